/**
 * `carrier envelope` and `carrier send` as people run them: child processes against local servers
 * and the embedded sandbox, exit codes, messages without stack traces — and the API key given in
 * CARRIER_API_KEY found in no byte of any output or written file.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape, type Binding } from '../../src/core/catalog';
import type { HttpRequestSpec } from '../../src/core/exchange';
import { secretSpellings } from '../../src/core/redact';
import { findVariables } from '../../src/core/requestFile/variables';
import { validateRequestText } from '../../src/core/validation/validate';
import { runCli } from '../../src/cli/dispatch';
import { assertRules, BASE } from './envelope-rules';
import { exampleFiles } from './example-files';
import { makePdf, soapReply, SOAP12_TYPE, startServer, tmpDir, type TestServer } from './transport-support';

const ROOT = path.join(__dirname, '../..');
const MAIN = path.join(ROOT, 'src/cli/main.ts');
const KEY = 'CliKey-9f8e7d6c5b4a3210ZYXWVUTSRQPONMLKJIHGFEDCBA-xyz';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function carrier(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CARRIER_API_KEY')));
    execFile(
      process.execPath,
      ['--require', require.resolve('tsx/cjs'), MAIN, ...args],
      { cwd, env: { ...clean, NO_COLOR: '1', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Every file under `dir`, as bytes. */
function filesIn(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) for (const [k, v] of filesIn(full)) out.set(k, v);
    else out.set(full, fs.readFileSync(full));
  }
  return out;
}

function assertNoKey(where: string, bytes: Buffer | string): void {
  const text = Buffer.isBuffer(bytes) ? bytes.toString('latin1') + bytes.toString('utf8') : bytes;
  const found = secretSpellings(KEY).filter((s) => text.includes(s));
  assert.deepEqual(found, [], `the key appears in ${where}`);
}

/** The printed request back into its parts: first line, headers, blank line, body. */
function parsePrinted(text: string, binding: Binding): HttpRequestSpec {
  const blank = text.indexOf('\n\n');
  const [first, ...headerLines] = text.slice(0, blank).split('\n');
  const [method, url] = first.split(' ');
  let body = text.slice(blank + 2);
  // The CLI ends its output with a newline; a form body has none of its own.
  if (binding === 'post') body = body.replace(/\n$/, '');
  const headers = headerLines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)] as const);
  return { method: method as 'GET' | 'POST', url, headers, body };
}

describe('carrier envelope', function () {
  this.timeout(60_000);
  let cwd: string;
  before(() => {
    cwd = tmpDir('carrier-envelope-');
    fs.writeFileSync(path.join(cwd, 'carrier.environments.json'), JSON.stringify({ remote: { baseUrl: BASE } }));
  });
  after(() => fs.rmSync(cwd, { recursive: true, force: true }));

  const inProcess = async (args: string[], env: Record<string, string>): Promise<Run> => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      cwd,
      env,
    });
    return { code, stdout, stderr };
  };

  it('prints, for every example file and binding, a request that follows the transport rules (docs/wire.md#transport-rules)', async () => {
    let checked = 0;
    for (const file of exampleFiles({ collectionsToo: true })) {
      const { request } = validateRequestText(fs.readFileSync(file, 'utf8'), file);
      assert.ok(request, file);
      const op = findShape(request.operation, request.version)!;
      const vars = findVariables(request.params)
        .filter((u) => !u.name.startsWith('run.'))
        .flatMap((u) => ['--var', `${u.name}=1`]);
      for (const binding of op.bindings) {
        const shown = await inProcess(['envelope', file, '--env', 'remote', '--binding', binding, '--show-secrets', ...vars], { CARRIER_API_KEY_REMOTE: KEY });
        assert.equal(shown.code, 0, `${file} ${binding}: ${shown.stderr}`);
        assertRules(parsePrinted(shown.stdout, binding), op, binding, DEFAULT_NAMESPACES, BASE, KEY);
        const redacted = await inProcess(['envelope', file, '--env', 'remote', '--binding', binding, ...vars], { CARRIER_API_KEY_REMOTE: KEY });
        assertNoKey(`${file} ${binding}`, redacted.stdout + redacted.stderr);
        assertRules(parsePrinted(redacted.stdout, binding), op, binding, DEFAULT_NAMESPACES, BASE, '••••');
        checked++;
      }
    }
    assert.ok(checked >= 30, `${checked} requests checked`);
  });

  it('runs as a command: the embedded sandbox shown as a placeholder address, curl on request, key redacted', async () => {
    const file = path.join(ROOT, 'test/golden/requests/GetTerminalInformation-1.0.2.carrier.json');
    const plain = await carrier(['envelope', file], cwd, { CARRIER_API_KEY: KEY });
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(
      plain.stdout,
      /^POST http:\/\/embedded-sandbox\.invalid\/1\.0\.2\/TerminalInformationService\.asmx\nContent-Type: text\/xml; charset=utf-8\nSOAPAction: "[^"]+\/GetTerminalInformation"\n\n<\?xml /,
    );
    assert.match(plain.stdout, /<APIKey>••••<\/APIKey>/);
    const curl = await carrier(['envelope', file, '--curl', '--binding', 'get'], cwd, { CARRIER_API_KEY: KEY });
    assert.equal(curl.code, 0, curl.stderr);
    assert.match(
      curl.stdout,
      /^curl 'http:\/\/embedded-sandbox\.invalid\/1\.0\.2\/TerminalInformationService\.asmx\/GetTerminalInformation\?APIKey=••••&ZipCode=68507/,
    );
    for (const r of [plain, curl]) assertNoKey('envelope output', r.stdout + r.stderr);
    const shown = await carrier(['envelope', file, '--show-secrets'], cwd, { CARRIER_API_KEY: KEY });
    assert.ok(shown.stdout.includes(`<APIKey>${KEY}</APIKey>`), 'only --show-secrets shows it');
  });

  it('exits 2 on a file with errors, naming file:line:col, and on usage errors', async () => {
    fs.writeFileSync(
      path.join(cwd, 'bad.carrier.json'),
      '{\n  "operation": "GetTerminalInformation",\n  "binding": "get",\n  "params": { "ZipCode": "1", "CountryCode": "USA", "Extra": { "a": 1 } }\n}\n',
    );
    const bad = await carrier(['envelope', 'bad.carrier.json'], cwd);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^bad\.carrier\.json:4:\d+: error: /m);
    const usage = await carrier(['envelope'], cwd);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /name the request file/);
    assert.ok(!/\n\s+at /.test(bad.stderr + usage.stderr), 'no stack trace');
  });
});

describe('carrier send', function () {
  this.timeout(90_000);
  let cwd: string;
  let server: TestServer;
  const pdf = makePdf(3, 4000);

  before(async () => {
    cwd = tmpDir('carrier-send-');
    // A server that faults SOAP 1.2 calls, returns a PDF to HTTP calls, and echoes the key it got.
    server = await startServer((req, res, body) => {
      const key = /<APIKey>([^<]*)</.exec(body.toString())?.[1] ?? new URL(req.url!, 'http://x').searchParams.get('APIKey') ?? '';
      if (req.headers['content-type']?.startsWith('application/soap+xml')) {
        res.writeHead(500, { 'Content-Type': SOAP12_TYPE, 'X-Seen-Key': key });
        res.end(
          soapReply(
            '1.2',
            `<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value><soap:Subcode><soap:Value>InvalidApiKey</soap:Value></soap:Subcode></soap:Code><soap:Reason><soap:Text xml:lang="en">The API key is not valid.</soap:Text></soap:Reason><soap:Detail><Key>${key}</Key></soap:Detail></soap:Fault>`,
          ),
        );
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
      res.end(
        `<?xml version="1.0" encoding="utf-8"?>\n<BillOfLadingPDFReply xmlns="${DEFAULT_NAMESPACES.service}"><!-- for ${key} --><PdfDocument>${pdf.toString('base64')}</PdfDocument></BillOfLadingPDFReply>`,
      );
    });
    fs.writeFileSync(
      path.join(cwd, 'carrier.environments.json'),
      JSON.stringify({ local: { baseUrl: server.url }, nowhere: { baseUrl: 'http://127.0.0.1:9' } }),
    );
    fs.writeFileSync(
      path.join(cwd, 'terminal.carrier.json'),
      JSON.stringify({ operation: 'GetTerminalInformation', binding: 'soap12', environment: 'local', params: { ZipCode: '68507', CountryCode: 'USA' } }),
    );
    fs.writeFileSync(
      path.join(cwd, 'pdf.carrier.json'),
      JSON.stringify({ operation: 'GetBillOfLadingPdf', binding: 'get', environment: 'local', params: { billOfLadingId: 7 } }),
    );
  });

  after(async () => {
    await server.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('a SOAP 1.2 fault: prints code and reason, exits 1, and the key is in no output or file', async () => {
    const out = path.join(cwd, 'out-fault');
    const human = await carrier(['send', 'terminal.carrier.json', '--out', out], cwd, { CARRIER_API_KEY: KEY });
    assert.equal(human.code, 1, human.stderr);
    assert.match(human.stdout, /HTTP 500 Internal Server Error/);
    assert.match(human.stdout, /code: +soap:Sender \/ InvalidApiKey/);
    assert.match(human.stdout, /reason: The API key is not valid\./);
    const json = await carrier(['send', 'terminal.carrier.json', '--json'], cwd, { CARRIER_API_KEY: KEY });
    assert.equal(json.code, 1);
    const summary = JSON.parse(json.stdout);
    assert.deepEqual([summary.status, summary.ok, summary.fault.code, summary.fault.reason], [500, false, 'soap:Sender', 'The API key is not valid.']);
    assert.ok(
      server.received.some((r) => r.body.toString().includes(`<APIKey>${KEY}</APIKey>`)),
      'the key went on the wire',
    );
    const files = filesIn(out);
    assert.deepEqual([...files.keys()].map((f) => path.basename(f)).sort(), ['exchange.json', 'reply.xml', 'request.http']);
    assert.match(files.get(path.join(out, 'request.http'))!.toString(), /^POST http:\/\/127\.0\.0\.1:\d+\/1\.0\.2\/TerminalInformationService\.asmx\n/);
    assert.match(files.get(path.join(out, 'reply.xml'))!.toString(), /<Key>••••<\/Key>/);
    for (const r of [human, json]) assertNoKey('send output', r.stdout + r.stderr);
    for (const [file, bytes] of files) assertNoKey(file, bytes);
  });

  it('a PDF over HTTP GET: exits 0, writes the raw reply and the document, and the key is in no output or file', async () => {
    const out = path.join(cwd, 'out-pdf');
    const r = await carrier(['send', 'pdf.carrier.json', '--out', out], cwd, { CARRIER_API_KEY_LOCAL: KEY });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /^GET http:\/\/127\.0\.0\.1:\d+\/sandbox\/BillOfLadingService\.asmx\/GetBillOfLadingPdf\?APIKey=••••&billOfLadingId=7\n/);
    assert.match(r.stdout, /GetBillOfLadingPdf-PdfDocument\.pdf {2}application\/pdf {2}\d+ bytes {2}3 pages/);
    assert.match(r.stdout, /"PdfDocument": "\[document GetBillOfLadingPdf-PdfDocument\.pdf: \d+ bytes, 3 pages\]"/);
    const files = filesIn(out);
    assert.ok(files.get(path.join(out, 'GetBillOfLadingPdf-PdfDocument.pdf'))!.equals(pdf));
    assert.match(files.get(path.join(out, 'reply.xml'))!.toString(), /<!-- for •••• -->/);
    assertNoKey('send output', r.stdout + r.stderr);
    for (const [file, bytes] of files) if (!file.endsWith('.pdf')) assertNoKey(file, bytes);
  });

  it('exits 2 without sending on file, environment and key problems; 1 on a transport error; never a stack trace', async () => {
    const before = server.received.length;
    fs.writeFileSync(path.join(cwd, 'broken.carrier.json'), '{ "operation": "GetTerminalInformation", "params": { "ZipCode": 1 ');
    const broken = await carrier(['send', 'broken.carrier.json'], cwd, { CARRIER_API_KEY: KEY });
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /^broken\.carrier\.json:1:\d+: error: /m);
    const unknownEnv = await carrier(['send', 'terminal.carrier.json', '--env', 'staging'], cwd, { CARRIER_API_KEY: KEY });
    assert.equal(unknownEnv.code, 2);
    assert.match(unknownEnv.stderr, /unknown environment "staging" \(environments: sandbox, local, nowhere\)/);
    const noKey = await carrier(['send', 'terminal.carrier.json'], cwd);
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /No API key for environment "local": set CARRIER_API_KEY_LOCAL or CARRIER_API_KEY/);
    const badBinding = await carrier(['send', 'terminal.carrier.json', '--binding', 'smtp'], cwd, { CARRIER_API_KEY: KEY });
    assert.equal(badBinding.code, 2);
    assert.equal(server.received.length, before, 'nothing was sent');
    const refused = await carrier(['send', 'terminal.carrier.json', '--env', 'nowhere'], cwd, { CARRIER_API_KEY: KEY });
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /Error \(connect\): Connection refused by 127\.0\.0\.1:9/);
    for (const r of [broken, unknownEnv, noKey, badBinding, refused]) {
      assert.ok(!/\n\s+at /.test(r.stdout + r.stderr), `no stack trace: ${r.stderr}`);
      assertNoKey('messages', r.stdout + r.stderr);
    }
  });

  it('starts the embedded sandbox for the call and closes it after', async () => {
    const file = path.join(ROOT, 'test/golden/requests/GetHazmatDescription-sandbox.carrier.json');
    const r = await carrier(['send', file, '--binding', 'post', '--json'], cwd, { CARRIER_API_KEY: KEY });
    const summary = JSON.parse(r.stdout);
    assert.match(summary.request.url, /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/BillOfLadingService\.asmx\/GetHazmatDescription$/);
    assert.equal(summary.status, 200, r.stdout);
    assert.equal(r.code, summary.ok ? 0 : 1);
    assertNoKey('sandbox send', r.stdout + r.stderr);
  });
});
