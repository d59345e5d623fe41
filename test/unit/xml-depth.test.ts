/**
 * Replies that nest too deep: a hostile server on loopback answers with a result, a fault detail
 * or an unknown root nested 10,000 and 200,000 levels down (and, to check everything after the
 * parser, exactly as deep as the parser allows). The parser refuses past MAX_DEPTH with a located
 * XmlError; `carrier send`, core's send(), `carrier run` and the traffic inspector turn that into
 * a readable finding, keep the raw reply, and never print "internal error" or "Maximum call stack".
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape, SOAP11_ENVELOPE_NS } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import { recognizeRequest } from '../../src/core/recognize/recognize';
import { rawReplyBytes, send } from '../../src/core/send';
import { MAX_DEPTH, parseXml, XmlError } from '../../src/core/xml/dom';
import { parseDocumentKeeping } from '../../src/core/xml/parser';
import { SOAP12_ENVELOPE_NS } from '../../src/core/catalog';
import { runCli } from '../../src/cli/dispatch';
import { startInspector } from '../../src/inspector';
import { startSandbox } from '../../src/sandbox/server';
import { nodeContext } from '../../src/host';
import { closeClientAgent, plainRequest } from './inspect-kit';
import { environmentAt, SOAP11_TYPE, SOAP12_TYPE, startServer, tmpDir, type TestServer } from './transport-support';

const ROOT = path.join(__dirname, '../..');
const MAIN = path.join(ROOT, 'src/cli/main.ts');
const KEY = 'Dp7vRt2ZpL9xWm4NsB8yHc3JfD6gTa1VeU5oPi0lMkQrXwYzAb';
const S = DEFAULT_NAMESPACES.service;
const DEPTHS = [10_000, 200_000] as const;
const PLACES = ['result', 'fault', 'unknown'] as const;
type Place = (typeof PLACES)[number];

const nest = (levels: number) => '<Nest>'.repeat(levels) + '</Nest>'.repeat(levels);

/**
 * The reply for `place` with `levels` of <Nest> inside it. The fixed elements around the nest
 * are counted by `around`, so `levels = MAX_DEPTH - around(place)` is exactly as deep as allowed.
 */
function hostileReply(place: Place, levels: number): { status: number; body: string } {
  const envelope = (inner: string) =>
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_ENVELOPE_NS}"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
  switch (place) {
    case 'result':
      return {
        status: 200,
        body: envelope(
          `<GetTerminalInformationResponse xmlns="${S}"><GetTerminalInformationResult>${nest(levels)}</GetTerminalInformationResult></GetTerminalInformationResponse>`,
        ),
      };
    case 'fault':
      return {
        status: 500,
        body: envelope(`<soap:Fault><faultcode>soap:Server</faultcode><faultstring>Deep trouble</faultstring><detail>${nest(levels)}</detail></soap:Fault>`),
      };
    case 'unknown':
      return { status: 200, body: `<?xml version="1.0" encoding="utf-8"?><Surprise xmlns="urn:elsewhere">${nest(levels)}</Surprise>` };
  }
}
const around = (place: Place) => (place === 'unknown' ? 1 : 4);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function carrier(args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    const env = { ...process.env, NO_COLOR: '1', CARRIER_API_KEY: KEY };
    execFile(
      process.execPath,
      ['--require', require.resolve('tsx/cjs'), MAIN, ...args],
      { cwd, env, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr });
      },
    );
  });
}

function assertNoCrash(r: { stdout: string; stderr: string }, what: string): void {
  assert.doesNotMatch(r.stdout + r.stderr, /internal error|Maximum call stack|RangeError|\n\s+at /, `${what}: ${r.stderr.slice(0, 500)}`);
}

const TOO_DEEP = new RegExp(
  `The reply nests elements deeper than ${MAX_DEPTH.toLocaleString('en-US')} levels \\(line \\d+, column \\d+\\); the raw reply is kept as received`,
);

describe('XML depth: the parser refuses what nests too deep', () => {
  it(`reads ${MAX_DEPTH} levels and refuses one more, located, with its own code`, () => {
    assert.equal(MAX_DEPTH, 1000);
    let el = parseXml(nest(MAX_DEPTH));
    for (let level = 1; level < MAX_DEPTH; level++) el = el.children[0];
    assert.equal(el.children.length, 0);
    // The column is that of the first element one level too deep.
    const deeper: Array<[string, number]> = [
      [nest(MAX_DEPTH + 1), MAX_DEPTH * '<Nest>'.length + 1],
      [`${'<a>'.repeat(MAX_DEPTH)}<b/>${'</a>'.repeat(MAX_DEPTH)}`, MAX_DEPTH * 3 + 1],
    ];
    for (const [xml, column] of deeper) {
      assert.throws(
        () => parseXml(xml),
        (e: unknown) => {
          assert.ok(e instanceof XmlError);
          assert.equal(e.code, 'too-deep');
          assert.equal(e.message, `The XML nests elements deeper than 1,000 levels (line 1, column ${column})`);
          assert.deepEqual([e.line, e.column], [1, column]);
          return true;
        },
      );
    }
  });

  it('refuses 200,000 levels at once, without reading them all', () => {
    // Where it stopped says how much it read: at the first element past the limit, not the document's end.
    const text = nest(200_000);
    assert.throws(
      () => parseXml(text),
      (e: unknown) => e instanceof XmlError && e.code === 'too-deep' && e.line === 1 && e.column !== undefined && e.column < text.length / 100,
    );
  });

  it('refuses xmlns: with an empty prefix, located, and the other declarations XML 1.0 forbids', () => {
    const cases: Array<[string, RegExp]> = [
      ['<a xmlns:="u"/>', /^Malformed XML: "xmlns:" declares an empty prefix \(line 1, column 4\)$/],
      ['<a>\n  <b xmlns:="urn:x">t</b></a>', /"xmlns:" declares an empty prefix \(line 2, column 6\)$/],
      ['<p:a xmlns:p=""/>', /xmlns:p="" cannot undeclare a prefix in XML 1\.0 \(line 1, column 6\)/],
      ['<a xmlns:xmlns="u"/>', /the prefix xmlns cannot be declared/],
      ['<a xmlns:xml="urn:x"/>', /the prefix xml can only be bound to/],
      ['<a xmlns:p="http://www.w3.org/2000/xmlns/"/>', /is reserved/],
      ['<:a/>', /":a" is not a qualified name/],
      ['<a:/>', /"a:" is not a qualified name/],
      ['<a:b:c xmlns:a="u"/>', /"a:b:c" is not a qualified name/],
      ['<a p:x="1"/>', /the prefix "p" of attribute p:x is not declared \(line 1, column 4\)/],
      ['<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>', /attribute q:x of <a> repeats another in namespace u/],
    ];
    for (const [xml, message] of cases) {
      assert.throws(
        () => parseXml(xml),
        (e: unknown) => e instanceof XmlError && e.code === 'malformed' && message.test(e.message),
        xml,
      );
    }
    // What the rules still allow: the xml prefix bound to its own URI, a default namespace undeclared.
    assert.equal(parseXml('<a xmlns:xml="http://www.w3.org/XML/1998/namespace" xml:lang="en"/>').attrs[0].local, 'lang');
    assert.equal(parseXml('<a xmlns="u"><b xmlns=""/></a>').children[0].ns, '');
  });

  it('refuses the XML declaration anywhere but at the very start, and names that XML does not allow', () => {
    assert.doesNotThrow(() => parseXml('\ufeff<?xml version="1.0"?><a><?pi data?></a>'));
    for (const xml of [
      ' <?xml version="1.0"?><a/>',
      '<!-- c --><?xml version="1.0"?><a/>',
      '<a><?xml version="1.0"?></a>',
      '<a><? x?></a>',
      '<a×/>',
      '<a b×="1"/>',
    ]) {
      assert.throws(() => parseXml(xml), XmlError, xml);
    }
    assert.equal(parseXml('<é·\u0300/>').local, 'é·\u0300');
  });
});

describe('XML depth: requests nested too deep', function () {
  this.timeout(30_000);
  const deepRequest = (levels: number) =>
    `<soap:Envelope xmlns:soap="${SOAP11_ENVELOPE_NS}"><soap:Body><GetHazmatDescription xmlns="${S}"><APIKey>${KEY}</APIKey><UNNANumber>${nest(levels)}</UNNANumber></GetHazmatDescription></soap:Body></soap:Envelope>`;

  it('the sandbox answers a soap:Client fault, as for any malformed XML', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      for (const levels of DEPTHS) {
        const r = await fetch(`${sandbox.url}/sandbox/BillOfLadingService.asmx`, {
          method: 'POST',
          headers: { 'Content-Type': SOAP11_TYPE, SOAPAction: `"${S}GetHazmatDescription"` },
          body: deepRequest(levels),
        });
        const text = await r.text();
        assert.equal(r.status, 500);
        assert.match(text, /<faultcode>soap:Client<\/faultcode>/);
        assert.match(text, /Server was unable to read the request: The XML nests elements deeper than 1,000 levels \(line 1, column \d+\)/);
      }
    } finally {
      await sandbox.close();
    }
  });

  it('recognition (the inspector, Import SOAP Envelope) calls it unreadable XML', () => {
    const r = recognizeRequest(
      { method: 'POST', url: '/sandbox/BillOfLadingService.asmx', headers: { 'Content-Type': SOAP11_TYPE }, body: deepRequest(200_000) },
      { namespaces: DEFAULT_NAMESPACES },
    );
    assert.equal(r.kind, 'unknown');
    assert.match(r.kind === 'unknown' ? r.reason : '', /cannot be read: The XML nests elements deeper than 1,000 levels/);
  });
});

describe('XML depth: a hostile server', function () {
  this.timeout(180_000);
  const context = nodeContext();
  let server: TestServer;
  let cwd: string;
  const served = new Map<string, string>();

  before(async () => {
    server = await startServer((req, res) => {
      const [, place, levels] = /^\/(\w+)\/(\d+)\//.exec(req.url ?? '') ?? [];
      const reply = hostileReply(place as Place, Number(levels));
      served.set(`${place}/${levels}`, reply.body);
      res.writeHead(reply.status, { 'Content-Type': SOAP11_TYPE });
      res.end(reply.body);
    });
    cwd = tmpDir('carrier-depth-');
    const environments: Record<string, { baseUrl: string }> = {};
    for (const place of PLACES) {
      for (const levels of [...DEPTHS, MAX_DEPTH - around(place)]) environments[`${place}-${levels}`] = { baseUrl: `${server.url}/${place}/${levels}` };
    }
    fs.writeFileSync(path.join(cwd, 'carrier.environments.json'), JSON.stringify(environments));
    fs.writeFileSync(
      path.join(cwd, 'terminal.carrier.json'),
      JSON.stringify({
        operation: 'GetTerminalInformation',
        version: '1.0.2',
        binding: 'soap11',
        params: { ZipCode: '68507', CountryCode: 'USA' },
        expect: { status: 200, reply: { Result: { exists: true } } },
      }),
    );
  });

  after(async () => {
    closeClientAgent();
    await context.http.close();
    await server.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  for (const place of PLACES) {
    it(`carrier send: ${DEPTHS.join(' and ')} levels in ${place === 'result' ? 'the result' : place === 'fault' ? "a fault's detail" : 'an unknown root'} exit 1 naming the depth, the raw reply written`, async () => {
      const runs = await Promise.all(
        DEPTHS.map((levels) => carrier(['send', 'terminal.carrier.json', '--env', `${place}-${levels}`, '--out', `out-${place}-${levels}`], cwd)),
      );
      runs.forEach((r, i) => {
        const levels = DEPTHS[i];
        assertNoCrash(r, `${place} ${levels}`);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.match(r.stdout, TOO_DEEP);
        assert.match(r.stdout, place === 'fault' ? /HTTP 500/ : /HTTP 200 OK/);
        const raw = fs.readFileSync(path.join(cwd, `out-${place}-${levels}`, 'reply.xml'), 'utf8');
        assert.equal(raw, served.get(`${place}/${levels}`), 'the raw reply is kept as received');
      });
    });
  }

  it('carrier send: nested exactly as deep as allowed, the reply is read, printed and written as JSON', async () => {
    const result = await carrier(['send', 'terminal.carrier.json', '--env', `result-${MAX_DEPTH - 4}`, '--json'], cwd);
    assertNoCrash(result, 'result at the limit');
    assert.equal(result.code, 0, result.stderr);
    let value = JSON.parse(result.stdout).reply;
    let levels = 0;
    while (value && typeof value === 'object') {
      value = value.Nest;
      levels++;
    }
    assert.equal(levels, MAX_DEPTH - 4);
    const fault = await carrier(['send', 'terminal.carrier.json', '--env', `fault-${MAX_DEPTH - 4}`], cwd);
    assertNoCrash(fault, 'fault at the limit');
    assert.equal(fault.code, 1);
    assert.match(fault.stdout, /reason: Deep trouble/);
    assert.match(fault.stdout, /detail: \{"Nest":\{"Nest":/);
    const unknown = await carrier(['send', 'terminal.carrier.json', '--env', `unknown-${MAX_DEPTH - 1}`], cwd);
    assertNoCrash(unknown, 'unknown root at the limit');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stdout, /not a SOAP envelope: its root is <Surprise>/);
  });

  it("core's send(): an Exchange with the finding and the raw reply, never a throw", async () => {
    for (const place of PLACES) {
      for (const levels of DEPTHS) {
        const x = await send({
          context,
          request: { operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: '68507', CountryCode: 'USA' } },
          environment: environmentAt(`${server.url}/${place}/${levels}`),
          apiKey: KEY,
          binding: 'soap11',
        });
        const body = served.get(`${place}/${levels}`)!;
        assert.equal(x.reply?.bodyText, body);
        assert.ok(rawReplyBytes(x)!.equals(Buffer.from(body)));
        // What came before the limit is read (the next describe): the fault's reason, the result so far.
        if (place === 'fault') assert.equal(x.fault?.reason, 'Deep trouble');
        else assert.equal(x.fault, undefined);
        assert.equal(x.judgement?.verdict.kind, place === 'fault' ? 'fault' : 'unreadable');
        assert.ok(
          x.findings.some((f) => f.severity === 'error' && TOO_DEEP.test(f.message)),
          JSON.stringify(x.findings),
        );
        assert.doesNotThrow(() => JSON.stringify(x));
      }
    }
  });

  it('carrier run: each too-deep reply is a failing test, not an internal error', async () => {
    const runs = await Promise.all(
      PLACES.map((place) =>
        carrier(['run', 'terminal.carrier.json', '--env', `${place}-200000`, '--reporter', 'cli', '-r', 'junit', '--out', `run-${place}`], cwd),
      ),
    );
    runs.forEach((r, i) => {
      assertNoCrash(r, `run ${PLACES[i]}`);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /1 test: 0 passed, 1 failed, 0 skipped/);
      assert.match(fs.readFileSync(path.join(cwd, `run-${PLACES[i]}`, 'junit.xml'), 'utf8'), /<failure /);
    });
  });

  it('carrier inspect: records the exchange and --show prints a readable outcome', async () => {
    const record = path.join(cwd, 'recording');
    const op = findShape('GetTerminalInformation', '1.0.2')!;
    for (const place of PLACES) {
      const inspector = await startInspector({ target: `${server.url}/${place}/200000`, namespaces: DEFAULT_NAMESPACES, recordDir: record });
      try {
        const spec = buildHttpRequest({
          op,
          binding: 'soap11',
          baseUrl: inspector.url,
          namespaces: DEFAULT_NAMESPACES,
          params: { ZipCode: '68507', CountryCode: 'USA' },
          apiKey: KEY,
        });
        const got = await plainRequest(spec.url, 'POST', spec.headers as Array<[string, string]>, Buffer.from(spec.body));
        assert.equal(got.body.toString(), served.get(`${place}/200000`));
        for (let i = 0; i < 100 && !inspector.exchanges().length; i++) await inspector.flush();
        const [recorded] = inspector.exchanges();
        assert.ok(
          recorded.exchange.findings.some((f) => TOO_DEEP.test(f.message)),
          JSON.stringify(recorded.exchange.findings),
        );
        let out = '';
        let err = '';
        const code = await runCli(['inspect', '--show', path.join(record, recorded.files!.exchange)], {
          stdout: (t) => {
            out += t;
          },
          stderr: (t) => {
            err += t;
          },
          cwd,
          env: {},
        });
        assert.equal(code, 0, err);
        assertNoCrash({ stdout: out, stderr: err }, `inspect --show ${place}`);
        assert.match(out, /^#\d+ GetTerminalInformation 1\.0\.2 · SOAP 1\.1/);
        assert.match(out, TOO_DEEP);
        // The body is pretty-printed however deep it goes, its indentation bounded.
        assert.ok(out.split('\n').length > 400_000);
        const long = out.split('\n').filter((line) => line.length >= 200);
        assert.equal(long.length, 0, `${place}: ${long.map((l) => l.slice(0, 150)).join('\n')}`);
      } finally {
        await inspector.close();
      }
    }
  });
});

describe('XML depth: what came before the limit is kept', function () {
  this.timeout(120_000);
  const LEVELS = 100_000;
  const faults = {
    soap11: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_ENVELOPE_NS}"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Boom</faultstring><detail>${nest(LEVELS)}</detail></soap:Fault></soap:Body></soap:Envelope>`,
    soap12: `<?xml version="1.0" encoding="utf-8"?><env:Envelope xmlns:env="${SOAP12_ENVELOPE_NS}"><env:Body><env:Fault><env:Code><env:Value>env:Receiver</env:Value></env:Code><env:Reason><env:Text xml:lang="en">Boom</env:Text></env:Reason><env:Detail>${nest(LEVELS)}</env:Detail></env:Fault></env:Body></env:Envelope>`,
  } as const;
  // A terminal's details read, then its phone list nested past the limit.
  const result = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_ENVELOPE_NS}"><soap:Body><GetTerminalInformationResponse xmlns="${S}"><GetTerminalInformationResult><Result><TerminalInfo><TerminalDetails><TerminalDetailID>7</TerminalDetailID><TerminalName>Lincoln</TerminalName></TerminalDetails><TerminalPhoneNumbers><TerminalPhone>${nest(LEVELS)}</TerminalPhone></TerminalPhoneNumbers></TerminalInfo></Result></GetTerminalInformationResult></GetTerminalInformationResponse></soap:Body></soap:Envelope>`;
  const context = nodeContext();
  let server: TestServer;
  let cwd: string;

  before(async () => {
    server = await startServer((req, res) => {
      const which = (req.url ?? '').split('/')[1];
      if (which === 'result') {
        res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
        res.end(result);
        return;
      }
      const binding = which as keyof typeof faults;
      res.writeHead(500, { 'Content-Type': binding === 'soap12' ? SOAP12_TYPE : SOAP11_TYPE });
      res.end(faults[binding]);
    });
    cwd = tmpDir('carrier-depth-kept-');
    fs.writeFileSync(
      path.join(cwd, 'carrier.environments.json'),
      JSON.stringify({ soap11: { baseUrl: `${server.url}/soap11` }, soap12: { baseUrl: `${server.url}/soap12` } }),
    );
    for (const binding of ['soap11', 'soap12'])
      fs.writeFileSync(
        path.join(cwd, `${binding}.carrier.json`),
        JSON.stringify({ operation: 'GetTerminalInformation', version: '1.0.2', binding, params: { ZipCode: '68507', CountryCode: 'USA' } }),
      );
  });

  after(async () => {
    await context.http.close();
    await server.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('the parser keeps the elements closed so far and the open chain, no deeper than the limit', () => {
    const kept = parseDocumentKeeping(`<a><b>one</b><c>two${nest(LEVELS)}</c></a>`);
    assert.equal(kept.stopped?.code, 'too-deep');
    assert.deepEqual(
      kept.root.children.map((c) => [c.local, c.text]),
      [
        ['b', 'one'],
        ['c', 'two'],
      ],
    );
    let depth = 1;
    for (let el = kept.root; el.children.length; el = el.children[el.children.length - 1]) depth++;
    assert.equal(depth, MAX_DEPTH);
    // Within the limit, the whole document and no `stopped`; a malformed one still throws.
    assert.equal(parseDocumentKeeping('<a><b/></a>').stopped, undefined);
    assert.throws(() => parseDocumentKeeping('<a><b></a>'), XmlError);
  });

  for (const binding of ['soap11', 'soap12'] as const) {
    it(`core's send(): a SOAP ${binding === 'soap11' ? '1.1' : '1.2'} fault with its detail ${LEVELS.toLocaleString('en-US')} levels deep is a fault with its reason, the limit named`, async () => {
      const x = await send({
        context,
        request: { operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: '68507', CountryCode: 'USA' } },
        environment: environmentAt(`${server.url}/${binding}`),
        apiKey: KEY,
        binding,
      });
      assert.equal(x.fault?.reason, 'Boom');
      assert.equal(x.fault?.code, binding === 'soap11' ? 'soap:Server' : 'env:Receiver');
      assert.equal(x.fault?.detail, undefined);
      assert.equal(x.judgement?.verdict.kind, 'fault');
      assert.ok(
        x.findings.some((f) => f.severity === 'error' && TOO_DEEP.test(f.message)),
        JSON.stringify(x.findings),
      );
      assert.equal(x.reply?.bodyText, faults[binding]);
    });

    it(`carrier send: the SOAP ${binding === 'soap11' ? '1.1' : '1.2'} fault's reason is printed beside the depth limit`, async () => {
      const r = await carrier(['send', `${binding}.carrier.json`, '--env', binding], cwd);
      assertNoCrash(r, binding);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /reason: Boom/);
      assert.match(r.stdout, TOO_DEEP);
    });
  }

  it("core's send(): a result whose trailing field nests too deep keeps its leading fields", async () => {
    const x = await send({
      context,
      request: { operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: '68507', CountryCode: 'USA' } },
      environment: environmentAt(`${server.url}/result`),
      apiKey: KEY,
      binding: 'soap11',
    });
    const terminal = (x.parsed as { Result: Array<{ TerminalDetails: Record<string, unknown> }> }).Result[0];
    assert.deepEqual(terminal.TerminalDetails, { TerminalDetailID: 7, TerminalName: 'Lincoln' });
    // Not a success: the reply was not read whole, and says where it stopped.
    assert.equal(x.judgement?.verdict.kind, 'unreadable');
    assert.ok(
      x.findings.some((f) => f.severity === 'error' && TOO_DEEP.test(f.message)),
      JSON.stringify(x.findings),
    );
    assert.ok(!x.findings.some((f) => f.kind === 'contract' && /missing|empty/i.test(f.message)), JSON.stringify(x.findings));
    assert.doesNotThrow(() => JSON.stringify(x));
  });
});
