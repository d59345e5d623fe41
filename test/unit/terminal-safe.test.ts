/**
 * Nothing a service sends writes to your terminal (src/core/terminalText.ts): core's terminalSafe
 * on every class of character, and every console face on hostile replies, file names, request
 * files, reports and recordings — the whole output of each holds no control character but tab and
 * newline, no bidi override, and shows what was there visibly (`\u001b`, `\u202e`).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../src/cli/dispatch';
import { commands } from '../../src/cli/commands';
import type { CliIo } from '../../src/cli/command';
import { DEFAULT_NAMESPACES, getRecord, operations } from '../../src/core/catalog';
import { parseReply } from '../../src/core/reply/parse';
import { parseXml, XmlError } from '../../src/core/xml/dom';
import { sampleRequestFile } from '../../src/core/generate/samples';
import { terminalSafe } from '../../src/core/terminalText';
import { RECORDING_FORMAT } from '../../src/inspector/recordings';
import { soapReply, SOAP11_TYPE, startServer, tmpDir, type TestServer } from './transport-support';

/** Retitles the window, clears the screen, paints a green tick, adds a link. */
const ESC_SEQUENCES = '\x1b]0;pwned\x07\x1b[2J\x1b[32m✓ succeeded\x1b[0m\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\';
const BIDI = 'paid\u202ediap\u202c \u2066iso\u2069 \u200fmark';
/** Legal in XML: a one-character CSI and a line separator. */
const C1 = '\u009b2J \u0085 \u2028';

/** Any character a terminal acts on or hides, but tab and newline. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x08\x0B-\x1F\x7F-\x9F\xAD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF]/;

function assertSafe(out: string, what: string): void {
  const m = UNSAFE.exec(out);
  assert.equal(
    m,
    null,
    `${what}: raw U+${m?.[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m?.index}: ${JSON.stringify(out.slice(Math.max(0, (m?.index ?? 0) - 40), (m?.index ?? 0) + 40))}`,
  );
}

describe('terminalSafe', () => {
  it('shows C0 controls but tab and newline, DEL and C1 controls as \\uXXXX', () => {
    assert.equal(terminalSafe('a\tb\nc'), 'a\tb\nc');
    assert.equal(terminalSafe('\x00\x01\x07\x08\x0b\x0c\x1b\x1f\x7f'), '\\u0000\\u0001\\u0007\\u0008\\u000b\\u000c\\u001b\\u001f\\u007f');
    assert.equal(terminalSafe('\x80\x85\x9b\x9f\xa0é'), '\\u0080\\u0085\\u009b\\u009f\xa0é');
  });

  it('drops the CR of a CRLF and shows a lone CR, which would let text overwrite a line', () => {
    assert.equal(terminalSafe('one\r\ntwo\rXX'), 'one\ntwo\\u000dXX');
    assert.equal(terminalSafe('\r'), '\\u000d');
  });

  it('takes the power out of escape sequences and keeps their printable rest readable', () => {
    assert.equal(terminalSafe('\x1b]0;title\x07'), '\\u001b]0;title\\u0007');
    assert.equal(terminalSafe('\x1b[2J\x1b[32m✓ ok\x1b[0m'), '\\u001b[2J\\u001b[32m✓ ok\\u001b[0m');
    assert.equal(terminalSafe('\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\'), '\\u001b]8;;http://x/\\u001b\\link\\u001b]8;;\\u001b\\');
  });

  it('shows bidi overrides, isolates, marks and other invisible format characters', () => {
    for (const c of [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
      '\u200b',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u00ad',
      '\u2028',
      '\u2029',
      '\u180e',
      '\ufff9',
    ]) {
      assert.equal(terminalSafe(`a${c}b`), `a\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}b`, `U+${c.charCodeAt(0).toString(16)}`);
    }
  });

  it('keeps other text, pairs included; shows lone surrogates and tag characters', () => {
    const plain = 'Tampa, FL 33635 — Zürich 東京 😀 ✓ ✗ ○ • ×';
    assert.equal(terminalSafe(plain), plain);
    assert.equal(terminalSafe('a\ud800b\udc00c'), 'a\\ud800b\\udc00c');
    assert.equal(terminalSafe('x\udb40\udc41y'), 'x\\udb40\\udc41y');
  });

  it('keeps JSON the same JSON: the \\uXXXX spelling reads back as the character', () => {
    const value = { s: `${ESC_SEQUENCES}${BIDI}${C1}\x7f\\` };
    const safe = terminalSafe(JSON.stringify(value));
    assertSafe(safe, 'JSON');
    assert.deepEqual(JSON.parse(safe), value);
  });

  it('is idempotent and one pass on huge input', () => {
    const unit = `${ESC_SEQUENCES}${BIDI}${C1}\r\n\ud800ok`;
    const huge = unit.repeat(50_000);
    const once = terminalSafe(huge);
    assert.equal(once, terminalSafe(unit).repeat(50_000));
    assert.equal(terminalSafe(once), once);
    const plain = 'x'.repeat(5_000_000);
    assert.equal(terminalSafe(plain), plain);
  });
});

interface Out {
  code: number;
  stdout: string;
  stderr: string;
  terminal: string;
}

async function carrier(args: string[], cwd: string, io: Partial<CliIo> = {}): Promise<Out> {
  const out = { stdout: '', stderr: '', terminal: '' };
  const code = await runCli(args, {
    stdout: (t) => {
      out.stdout += t;
      out.terminal += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    cwd,
    env: { NO_COLOR: '1', CARRIER_API_KEY: 'test-key-1234' },
    ...io,
  });
  return { code, ...out };
}

describe('every console face is terminal-safe', function () {
  this.timeout(60_000);
  let dir: string;
  let faultServer: TestServer;
  let pageServer: TestServer;
  const op = operations.find((o) => o.bindings.includes('soap11'))!;
  const FILE = `evil\x1b]0;t\x07\u202e.carrier.json`;

  before(async () => {
    faultServer = await startServer((_req, res) => {
      res.writeHead(500, { 'content-type': SOAP11_TYPE });
      res.end(
        soapReply(
          '1.1',
          `<soap:Fault><faultcode>soap:Server</faultcode><faultstring>${C1} ${BIDI}</faultstring><detail><Why>${BIDI}\u009d</Why></detail></soap:Fault>`,
        ),
      );
    });
    pageServer = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(`<html><head><title>${ESC_SEQUENCES} ${BIDI}</title></head><body><h1>Bad gateway\x1b[2J</h1></body></html>`);
    });
    dir = tmpDir('carrier-terminal-');
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ fault: { baseUrl: faultServer.url }, page: { baseUrl: pageServer.url } }));
    fs.mkdirSync(path.join(dir, 'tests'));
    fs.writeFileSync(path.join(dir, 'tests', FILE), JSON.stringify({ ...sampleRequestFile(op, 'soap11'), binding: 'soap11' }, null, 2));
  });
  after(async () => {
    await faultServer?.close();
    await pageServer?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('carrier send: a fault string with C1 controls and bidi overrides, an HTML title with escape sequences', async () => {
    const fault = await carrier(['send', `tests/${FILE}`, '--env', 'fault'], dir);
    assert.equal(fault.code, 1, fault.stderr);
    assertSafe(fault.stdout + fault.stderr, 'send (fault)');
    assert.ok(fault.stdout.includes('\\u009b2J') && fault.stdout.includes('paid\\u202ediap'), fault.stdout);

    const page = await carrier(['send', `tests/${FILE}`, '--env', 'page'], dir);
    assert.equal(page.code, 1, page.stderr);
    assertSafe(page.stdout + page.stderr, 'send (page)');
    assert.ok(page.stdout.includes('\\u001b]0;pwned\\u0007'), page.stdout);

    const json = await carrier(['send', `tests/${FILE}`, '--env', 'fault', '--json'], dir);
    assertSafe(json.stdout, 'send --json');
    // The same JSON: the reason reads back exactly as the service sent it.
    assert.equal((JSON.parse(json.stdout) as { fault: { reason: string } }).fault.reason, `${C1} ${BIDI}`);
  });

  it('carrier run (log and TTY) and carrier report: test names from file names, failures from replies', async () => {
    const log = await carrier(['run', 'tests', '--env', 'page', '--reporter', 'cli,json', '--out', 'reports'], dir);
    assert.equal(log.code, 1, log.stderr);
    assertSafe(log.stdout + log.stderr, 'run (log)');
    assert.ok(log.stdout.includes('evil\\u001b]0;t\\u0007\\u202e') && log.stdout.includes('\\u001b]0;pwned\\u0007'), log.stdout);

    // On a TTY the reporter writes its own colours and clear-lines as given: nothing else.
    const tty = await carrier(['run', 'tests', '--env', 'fault'], dir, { isTTY: true, columns: 300, env: { CARRIER_API_KEY: 'test-key-1234' } });
    assert.equal(tty.code, 1, tty.stderr);
    // eslint-disable-next-line no-control-regex -- the reporter's own colours and clear-lines
    const own = tty.terminal.replace(/\r\x1b\[2K|\x1b\[\d+m/g, '');
    assert.notEqual(own, tty.terminal, 'the TTY run drew its progress line and colours');
    assertSafe(own + tty.stderr, 'run (TTY)');
    assert.ok(own.includes('paid\\u202ediap') && own.includes('evil\\u001b]0;t\\u0007'), own);

    const report = await carrier(['report', 'reports/report.json', '--reporter', 'cli', '--out', 'merged'], dir);
    assert.equal(report.code, 1, report.stderr);
    assertSafe(report.stdout + report.stderr, 'report');
    assert.ok(report.stdout.includes('\\u001b]0;pwned\\u0007'), report.stdout);
  });

  it('carrier validate: a request file holding escape sequences and overrides in its text', async () => {
    const file = path.join(dir, 'bad.carrier.json');
    const request = sampleRequestFile(op, 'soap11') as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...request, [`x${ESC_SEQUENCES}${BIDI}`]: `${ESC_SEQUENCES}` }));
    const out = await carrier(['validate', 'bad.carrier.json', `tests/${FILE}`], dir);
    assert.notEqual(out.code, 0);
    assertSafe(out.stdout + out.stderr, 'validate');
    assert.ok((out.stdout + out.stderr).includes('\\u001b]0;pwned\\u0007'), out.stdout + out.stderr);
  });

  it('carrier inspect --show: a recording with a hostile body, fault and headers', async () => {
    const file = path.join(dir, '001-Hostile.exchange.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        format: RECORDING_FORMAT,
        exchange: {
          id: '1',
          startedAt: '2026-11-25T00:00:00.000Z',
          endpoint: 'http://t/x',
          findings: [{ kind: 'fault', severity: 'error', message: ESC_SEQUENCES }],
          documents: [],
          request: {
            method: 'POST',
            url: `http://t/x${BIDI}`,
            headers: [
              ['Content-Type', 'text/html'],
              ['X-Evil', ESC_SEQUENCES],
            ],
            body: `<html><title>${ESC_SEQUENCES}</title></html>`,
          },
          reply: { status: 500, statusText: BIDI, headers: [['Content-Type', 'text/plain']], bodyText: `${ESC_SEQUENCES}\r\n${C1}`, size: 10 },
          fault: { soapVersion: '1.1', code: 'soap:Server', subcodes: [], reason: `${ESC_SEQUENCES}${BIDI}`, detail: BIDI },
        },
      }),
    );
    const out = await carrier(['inspect', '--show', '001-Hostile.exchange.json'], dir);
    assert.equal(out.code, 0, out.stderr);
    assertSafe(out.stdout + out.stderr, 'inspect --show');
    assert.ok(out.stdout.includes('\\u001b]0;pwned\\u0007') && out.stdout.includes('paid\\u202ediap'), out.stdout);
  });

  it('every command of the table writes through the safe writer, even its usage errors', async () => {
    const flag = `--x${ESC_SEQUENCES}${BIDI}`;
    for (const entry of [{ name: `nope${ESC_SEQUENCES}` }, ...commands]) {
      const out = await carrier([entry.name, flag], dir);
      assertSafe(out.stdout + out.stderr, `carrier ${entry.name}`);
      assert.ok(out.stdout + out.stderr, `carrier ${entry.name} said something`);
    }
  });
});

describe('the XML reader refuses characters XML 1.0 forbids written as themselves', () => {
  it('a raw U+0001 or ESC in a fault string is a located error, as &#27; is', () => {
    for (const [c, name] of [
      ['\u0001', 'U+0001'],
      ['\x1b', 'U+001B'],
      ['\uffff', 'U+FFFF'],
      ['\ud800', 'U+D800'],
    ] as const) {
      const text = `<a>\n  <faultstring>bad ${c}[2J</faultstring>\n</a>`;
      assert.throws(
        () => parseXml(text),
        (e: unknown) =>
          e instanceof XmlError && e.message.includes(`${name} (written as itself) is not a character XML allows`) && e.line === 2 && e.column === 20,
        name,
      );
    }
    assert.throws(() => parseXml('<a>&#27;</a>'), /&#27; is not a character XML allows/);
    assert.ok(parseXml('<a>tab\there\r\nline 😀</a>'));
  });

  it('a reply holding one is not read as a result, and parseReply says where it is', async () => {
    // (That the one-pass reader of the common reply gives up on it: reply-readers-equal.test.ts.)
    const op = operations.find((o) => o.bindings.includes('soap11') && getRecord(o.result) !== undefined)!;
    const good = soapReply('1.1', `<${op.operation}Response xmlns="${DEFAULT_NAMESPACES.service}"><${op.operation}Result/></${op.operation}Response>`);
    const read = (text: string) =>
      parseReply({ op, binding: 'soap11', namespaces: DEFAULT_NAMESPACES, status: 200, statusText: 'OK', contentType: SOAP11_TYPE, text });
    assert.deepEqual((await read(good)).parsed, {}, 'the plain reply is read');
    const bad = good.replace('<?xml version="1.0"', '<?xml version="1.0\x1b"');
    const unread = await read(bad);
    assert.equal(unread.parsed, undefined);
    assert.ok(
      unread.findings.some((f) => /U\+001B \(written as itself\) is not a character XML allows/.test(f.message)),
      JSON.stringify(unread.findings),
    );
    const fault = soapReply('1.1', '<soap:Fault><faultcode>soap:Server</faultcode><faultstring>\x1b]0;pwned\x07</faultstring></soap:Fault>');
    const parsed = await parseReply({
      op,
      binding: 'soap11',
      namespaces: DEFAULT_NAMESPACES,
      status: 500,
      statusText: 'Internal Server Error',
      contentType: SOAP11_TYPE,
      text: fault,
    });
    assert.equal(parsed.fault, undefined);
    assert.ok(
      parsed.findings.some((f) => /U\+001B \(written as itself\) is not a character XML allows/.test(f.message)),
      JSON.stringify(parsed.findings),
    );
  });
});
