/**
 * `carrier inspect` tried as a developer debugging their own program would (issue 18, item 6):
 * zeep, PHP's SoapClient and node-soap built from the sandbox's ?WSDL with their endpoint moved
 * to the inspector, and curl for the HTTP GET and POST bindings, with gzip on and off. The target
 * is the sandbox behind a front that gzips the way IIS does (the sandbox itself never does). For
 * each client: it got its answer, the inspector's lines name the operation and outcome, `--show`
 * prints text for gzip bodies, the recording's request files make the same calls against the
 * same target, and `carrier run` of the recording passes there (the target sees the replays).
 * zeep and PHP come from Debian (scripts/ensure-soap-clients.js); a machine without them skips
 * their tests, saying so.
 */
import * as assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as soap from 'soap';
import { runCli } from '../../src/cli/dispatch';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { PHP, runClient, startGzipFront, ZEEP, type ClientLine, type ClientProgram, type GzipFront } from './inspect-clients-kit';
import { filesHolding, tmpDir, waitForOutput } from './inspect-kit';

const ROOT = path.resolve(__dirname, '..', '..');
const KEY = 'clients-key-7Hq2Zx9W';
const RATE_QUOTE_PATH = '/1.0.3/RateQuoteService.asmx';
const TRACE_PATH = '/1.0.2/ShipmentTracingService.asmx';
const TERMINAL_PATH = '/1.0.2/TerminalInformationService.asmx';
const HAZMAT_PATH = '/sandbox/BillOfLadingService.asmx';

/** Burns TN → Tampa FL, as examples/rate-quote/get-rate-quote-1.0.3.carrier.json asks it. */
const QUOTE = {
  QuoteType: 'Domestic',
  Origin: { City: 'Burns', StateOrProvince: 'TN', ZipOrPostalCode: '37029', CountryCode: 'USA' },
  Destination: { City: 'Tampa', StateOrProvince: 'FL', ZipOrPostalCode: '33635', CountryCode: 'USA' },
  Items: { Item: [{ Class: '50.0', Weight: 1500, Width: 48, Height: 40, Length: 48 }] },
  DeclaredValue: '0.00',
  Accessorials: { RQAccessorial: ['OriginLiftgate'] },
};
const TRACE = { TraceNumbers: { string: ['056391174'] }, TraceType: 'PRO', FormatResults: true, IncludeBlind: false, OutputFormat: 'Standard' };

const servicePath = (c: { operation: string }) => (c.operation === 'GetRateQuote' ? RATE_QUOTE_PATH : TRACE_PATH);
const stripComments = (text: string) => JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown>;

/** A running `carrier inspect`. */
interface Inspect {
  readonly url: string;
  /** Waits for exchange line #`lines`, then stops it with SIGTERM; everything it printed. */
  stop(lines: number): Promise<string>;
}

/** Every inspector process started, so none outlives a failed test. */
const children = new Set<ChildProcess>();

/** `carrier inspect --target <target> --record <dir>` as a process of its own, as people run it. */
async function startInspect(target: string, record: string, cwd: string): Promise<Inspect> {
  const child = spawn(
    process.execPath,
    ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'src', 'cli', 'main.ts'), 'inspect', '--target', target, '--record', record],
    { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const [, url] = await waitForOutput(() => out, /Carrier inspector listening on (http:\/\/127\.0\.0\.1:\d+) → /, 'the listening line');
  return {
    url,
    async stop(lines) {
      await waitForOutput(() => out, new RegExp(`(?:^|\\n)\\d\\d:\\d\\d:\\d\\d #${lines} `), `exchange line #${lines}`);
      child.kill('SIGTERM');
      assert.equal(await exited, 0, out);
      return out;
    },
  };
}

async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runCli(args, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      out += t;
    },
    cwd,
    env,
  });
  return { code, out };
}

interface Recorded {
  readonly prefix: string;
  readonly doc: { decoded?: { request?: string; reply?: string }; exchange: { operation?: string } };
  /** The request file, comments dropped, when the exchange has one. */
  readonly request?: {
    operation: string;
    version?: string;
    binding?: string;
    environment?: string;
    params: Record<string, unknown>;
    expect?: { status?: number; fault?: boolean };
  };
}

/** The folder's exchanges in order, each with its request file when it has one. */
function readRecording(dir: string): Recorded[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.exchange.json'))
    .sort()
    .map((f) => {
      const prefix = f.slice(0, -'.exchange.json'.length);
      const doc = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Recorded['doc'];
      const requestFile = path.join(dir, `${prefix}.carrier.json`);
      return fs.existsSync(requestFile)
        ? { prefix, doc, request: stripComments(fs.readFileSync(requestFile, 'utf8')) as Recorded['request'] }
        : { prefix, doc };
    });
}

/** The calls of a recording (its exchanges with a request file), checked against what was sent. */
function recordedCalls(
  dir: string,
  expected: Array<{ operation: string; version: string; binding: string; params: unknown; expect?: object | null }>,
  environment = 'recorded',
): Recorded[] {
  const calls = readRecording(dir).filter((r) => r.request);
  assert.deepEqual(
    calls.map((r) => [r.request!.operation, r.request!.version, r.request!.binding ?? 'soap11']),
    expected.map((e) => [e.operation, e.version, e.binding]),
  );
  calls.forEach((r, i) => {
    assert.deepEqual(r.request!.params, expected[i].params, r.prefix);
    assert.equal(r.request!.environment, environment, r.prefix);
    // `expect: null` for a call whose outcome a request file cannot reproduce: then none is pinned.
    const expect = expected[i].expect === undefined ? { status: 200, fault: false } : (expected[i].expect ?? undefined);
    assert.deepEqual(r.request!.expect, expect, r.prefix);
  });
  // Compressed bodies too: a key inside gzip is masked in the decoded copy that is kept.
  assert.deepEqual(filesHolding(dir, KEY), []);
  return calls;
}

/** `carrier inspect --show` of an exchange: text, never the compressed bytes. */
async function shown(dir: string, prefix: string): Promise<string> {
  const { code, out } = await cli(['inspect', '--show', path.join(dir, `${prefix}.exchange.json`)], dir);
  assert.equal(code, 0, out);
  const binary = [...out].findIndex((ch) => ch === '\uFFFD' || (ch < ' ' && ch !== '\n' && ch !== '\t' && ch !== '\r'));
  assert.equal(binary, -1, `--show printed binary:\n${out}`);
  return out;
}

/** What a recording holds of GetRateQuote 1.0.3 and TraceShipment as the examples ask them. */
const QUOTE_PARAMS = { request: { ...QUOTE, Items: QUOTE.Items.Item, Accessorials: QUOTE.Accessorials.RQAccessorial } };
const TRACE_PARAMS = { request: { ...TRACE, TraceNumbers: TRACE.TraceNumbers.string } };

describe('traffic inspector with independent SOAP clients', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let front: GzipFront;
  const root = tmpDir('carrier-inspect-clients-');

  before(async () => {
    sandbox = await startSandbox({});
    front = await startGzipFront(sandbox.url);
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
    await front.close();
    await sandbox.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /**
   * Replays the recording with `carrier run` and checks the target received every call again. A
   * URL target is written as the environment `recorded` into the folder; a named one is found
   * where it was, above the folder.
   */
  async function replays(dir: string, calls: number, environment = 'recorded'): Promise<void> {
    const before = front.seen.length;
    const { code, out } = await cli(['run', dir], root, { [`CARRIER_API_KEY_${environment.toUpperCase()}`]: KEY });
    assert.equal(code, 0, out);
    assert.match(out, new RegExp(`${calls} passed`), out);
    assert.equal(front.seen.length, before + calls, `the target should have received ${calls} replays:\n${out}`);
    const own = path.join(dir, 'carrier.environments.json');
    if (environment === 'recorded') assert.equal((JSON.parse(fs.readFileSync(own, 'utf8')) as Record<string, { baseUrl: string }>).recorded.baseUrl, front.url);
    else assert.ok(!fs.existsSync(own), 'a named target needs no environments file of its own');
  }

  function skipUnless(ctx: Mocha.Context, client: ClientProgram): void {
    const missing = client.missing();
    if (!missing) return;
    // Visible in the report: CI installs the clients, so there a skip means something is wrong.
    console.log(`      SKIPPED: ${client.name} is not installed: ${missing}`);
    ctx.skip();
  }

  const soapCalls = (inspector: string) => [
    {
      wsdl: `${inspector}${RATE_QUOTE_PATH}?WSDL`,
      address: `${inspector}${RATE_QUOTE_PATH}`,
      binding: 'RateQuoteServiceSoap',
      soap: '1.1',
      operation: 'GetRateQuote',
      args: { APIKey: KEY, request: QUOTE },
    },
    {
      wsdl: `${inspector}${TRACE_PATH}?WSDL`,
      address: `${inspector}${TRACE_PATH}`,
      binding: 'ShipmentTracingServiceSoap12',
      soap: '1.2',
      operation: 'TraceShipment',
      args: { APIKey: KEY, request: TRACE },
    },
  ];
  const expectedCalls = [
    { operation: 'GetRateQuote', version: '1.0.3', binding: 'soap11', params: QUOTE_PARAMS },
    { operation: 'TraceShipment', version: '1.0.2', binding: 'soap12', params: TRACE_PARAMS },
  ];

  /** The exchange lines of a session: each WSDL fetch read as unknown, each call by operation, version and binding, 200. */
  function assertLines(out: string, calls: Array<{ operation: string; version: string; binding: string }>, wsdls: number): void {
    assert.equal(out.match(/ GET \S+\?WSDL {2}unknown \(The WSDL of \S+\) → 200 /g)?.length, wsdls, out);
    const seen = [...out.matchAll(/ POST (\S+) {2}(\w+) ([\d.]+) (SOAP 1\.[12]) → 200 {2}[\d.]+ ms\n/g)].map((m) => m.slice(1));
    assert.deepEqual(
      seen,
      calls.map((c) => [servicePath(c), c.operation, c.version, c.binding === 'soap12' ? 'SOAP 1.2' : 'SOAP 1.1']),
      out,
    );
  }

  /** What each client must have made of its answer: the quote's net charge, the traced shipment. */
  const ANSWERS: Record<string, RegExp> = { GetRateQuote: /"NetCharge":"\$[\d.]+"/, TraceShipment: /"ShipmentNumber":"056391174"/ };

  function answered(lines: ClientLine[], operations: string[]): void {
    assert.deepEqual(
      lines.map((l) => l.operation),
      operations,
    );
    for (const line of lines) {
      assert.equal(line.fault, undefined, JSON.stringify(line));
      assert.match(JSON.stringify(line.result), ANSWERS[line.operation]);
    }
  }

  it('zeep, gzip replies and plain, a call without its key and one answered with an error: answered, read, shown as text, recorded, replayed against the target', async function () {
    skipUnless(this, ZEEP);
    const dir = path.join(root, 'zeep');
    const inspect = await startInspect(front.url, dir, root);
    const first = front.seen.length;
    const [quote, trace] = soapCalls(inspect.url);
    // A key left out (refused, and not reproducible: a replay sends one) and a PRO the carrier does not know (an error in the reply body, reproducible).
    const keyless = { ...trace, binding: 'ShipmentTracingServiceSoap', args: { request: TRACE } };
    const unknownPro = {
      ...trace,
      binding: 'ShipmentTracingServiceSoap',
      args: { APIKey: KEY, request: { ...TRACE, TraceNumbers: { string: ['999999999'] } } },
    };
    const gzipped = await runClient(ZEEP, { gzip: true, calls: [quote, trace, keyless, unknownPro] });
    const plain = await runClient(ZEEP, { gzip: false, calls: [quote, trace] });
    const out = await inspect.stop(12);

    const [refused, notFound] = gzipped.splice(2);
    answered([...gzipped, ...plain], ['GetRateQuote', 'TraceShipment', 'GetRateQuote', 'TraceShipment']);
    assert.match(refused.fault ?? '', /^Missing API key/, JSON.stringify(refused));
    assert.match(JSON.stringify(notFound.result), /"ShipmentNumber":"999999999"/);
    // requests asks for gzip by default, and the target gave it; the second session asked for none.
    assert.deepEqual(
      front.seen.slice(first).map((s) => s.gzipped),
      [...Array(8).fill(true), ...Array(4).fill(false)],
    );
    assertLines(out, [...expectedCalls, ...expectedCalls], 6);
    assert.match(out, /#6 POST \/1\.0\.2\/ShipmentTracingService\.asmx {2}TraceShipment 1\.0\.2 SOAP 1\.1 → 500 fault soap:Client {2}/);
    assert.match(out, /#8 POST \/1\.0\.2\/ShipmentTracingService\.asmx {2}TraceShipment 1\.0\.2 SOAP 1\.1 → 200 \(error in the reply body\) {2}/);

    const calls = recordedCalls(dir, [
      ...expectedCalls,
      { operation: 'TraceShipment', version: '1.0.2', binding: 'soap11', params: TRACE_PARAMS, expect: null },
      {
        operation: 'TraceShipment',
        version: '1.0.2',
        binding: 'soap11',
        params: { request: { ...TRACE_PARAMS.request, TraceNumbers: ['999999999'] } },
        expect: { status: 200, fault: false, success: false },
      },
      ...expectedCalls,
    ]);
    assert.deepEqual(
      calls.map((c) => c.doc.decoded?.reply),
      ['gzip', 'gzip', 'gzip', 'gzip', undefined, undefined],
    );
    assert.match(
      fs.readFileSync(path.join(dir, `${calls[2].prefix}.carrier.json`), 'utf8'),
      /\/\/ .*the client sent no APIKey, and a replay sends the environment's key/,
    );
    const text = await shown(dir, calls[0].prefix);
    assert.match(text, /^Content-Encoding: gzip$/m);
    assert.match(text, /<NetCharge>\$[\d.]+<\/NetCharge>/);
    assert.match(await shown(dir, calls[1].prefix), /<TraceShipmentResult>/);
    assert.match(await shown(dir, calls[2].prefix), /<faultstring>Missing API key/);
    await replays(dir, 6);
  });

  it('PHP SoapClient, gzip requests and plain, and a tempuri.org call without WSDL: answered, read, shown as text, recorded, replayed against the target', async function () {
    skipUnless(this, PHP);
    const dir = path.join(root, 'php');
    const inspect = await startInspect(front.url, dir, root);
    const first = front.seen.length;
    // Without a WSDL, PHP names the namespace itself: a developer who copied a .NET sample's.
    const tempuri = {
      uri: 'http://tempuri.org/',
      address: `${inspect.url}${HAZMAT_PATH}`,
      operation: 'GetHazmatDescription',
      args: { APIKey: KEY, UNNANumber: '1203' },
    };
    const gzipped = await runClient(PHP, { gzip: true, calls: [...soapCalls(inspect.url), tempuri] });
    // Free text as a program may send it: spaces at the ends, characters XML escapes.
    const [quote, trace] = soapCalls(inspect.url);
    const noted = { ...trace, args: { APIKey: KEY, request: { ...TRACE, CustomerData: '  PO <77> & co ' } } };
    const plain = await runClient(PHP, { gzip: false, calls: [quote, noted] });
    const out = await inspect.stop(9);

    const refused = gzipped.pop()!;
    answered([...gzipped, ...plain], ['GetRateQuote', 'TraceShipment', 'GetRateQuote', 'TraceShipment']);
    assert.match(
      refused.fault ?? '',
      /did not recognize the value of HTTP Header SOAPAction: http:\/\/tempuri\.org\/#GetHazmatDescription/,
      JSON.stringify(refused),
    );
    const posts = front.seen.slice(first).filter((s) => s.method === 'POST');
    assert.deepEqual(
      posts.map((s) => [s.requestEncoding, s.gzipped]),
      [
        ['gzip', true],
        ['gzip', true],
        ['gzip', true],
        [undefined, false],
        [undefined, false],
      ],
    );
    assertLines(out, [...expectedCalls, ...expectedCalls], 4);
    assert.match(out, /#5 POST \/sandbox\/BillOfLadingService\.asmx {2}GetHazmatDescription sandbox SOAP 1\.1 → 500 fault soap:Client {2}[\d.]+ ms\n/);

    const hazmat = { operation: 'GetHazmatDescription', version: 'sandbox', binding: 'soap11', params: { UNNANumber: '1203' }, expect: null };
    const notedParams = { request: { ...TRACE_PARAMS.request, CustomerData: '  PO <77> & co ' } };
    const recorded = recordedCalls(dir, [...expectedCalls, hazmat, expectedCalls[0], { ...expectedCalls[1], params: notedParams }]);
    assert.deepEqual(
      recorded.map((c) => c.doc.decoded),
      [{ request: 'gzip', reply: 'gzip' }, { request: 'gzip', reply: 'gzip' }, { request: 'gzip', reply: 'gzip' }, undefined, undefined],
    );
    const text = await shown(dir, recorded[0].prefix);
    assert.match(text, /<(\w+:)?APIKey>••••<\/(\w+:)?APIKey>/);
    assert.match(text, /<(\w+:)?City>Burns<\/(\w+:)?City>/);
    assert.match(text, /<NetCharge>\$[\d.]+<\/NetCharge>/);
    const refusal = await shown(dir, recorded[2].prefix);
    assert.match(refusal, /<UNNANumber xsi:type="xsd:string">1203<\/UNNANumber>/);
    assert.match(refusal, /<faultstring>Server did not recognize the value of HTTP Header SOAPAction/);
    assert.match(
      fs.readFileSync(path.join(dir, `${recorded[2].prefix}.carrier.json`), 'utf8'),
      /\/\/ .*outside the namespaces of the contract \(http:\/\/tempuri\.org\/\)/,
    );
    // One line, exactly as on the wire, its edges said.
    assert.match(
      await shown(dir, recorded[4].prefix),
      /^ {8}<ns1:CustomerData> {2}PO &lt;77&gt; &amp; co <\/ns1:CustomerData> {3}← 2 leading spaces, 1 trailing space$/m,
    );
    await replays(dir, 5);
  });

  it('node-soap, gzip replies and plain: answered, read, shown as text, recorded, replayed against the target', async () => {
    const dir = path.join(root, 'node-soap');
    const inspect = await startInspect(front.url, dir, root);
    const first = front.seen.length;
    const lines: ClientLine[] = [];
    // node-soap asks for no compression unless told; its forceGzip option is not used: soap 1.13
    // sends the uncompressed body's Content-Length with the gzipped body, so a server waits for
    // bytes that never come. Asking for gzip replies is a header of the call.
    const calls = soapCalls(inspect.url);
    const clients = await Promise.all(calls.map((call) => soap.createClientAsync(call.wsdl, { endpoint: call.address })));
    for (const gzip of [true, false]) {
      for (const [i, call] of calls.entries()) {
        const method = (clients[i] as unknown as Record<string, (args: unknown, options: unknown, headers: unknown) => Promise<[unknown]>>)[
          `${call.operation}Async`
        ];
        const [result] = await method(call.args, {}, gzip ? { 'Accept-Encoding': 'gzip' } : {});
        lines.push({ operation: call.operation, result });
      }
    }
    const out = await inspect.stop(6);

    answered(lines, ['GetRateQuote', 'TraceShipment', 'GetRateQuote', 'TraceShipment']);
    const posts = front.seen.slice(first).filter((s) => s.method === 'POST');
    assert.deepEqual(
      posts.map((s) => [s.requestEncoding, s.gzipped]),
      [
        [undefined, true],
        [undefined, true],
        [undefined, false],
        [undefined, false],
      ],
    );
    // node-soap calls the first port of a service: SOAP 1.1.
    const expected = expectedCalls.map((c) => ({ ...c, binding: 'soap11' }));
    assertLines(out, [...expected, ...expected], 2);
    const recorded = recordedCalls(dir, [...expected, ...expected]);
    assert.deepEqual(
      recorded.map((c) => c.doc.decoded),
      [{ reply: 'gzip' }, { reply: 'gzip' }, undefined, undefined],
    );
    assert.match(await shown(dir, recorded[1].prefix), /<TraceShipmentResult>/);
    await replays(dir, 4);
  });

  it('curl, HTTP GET with --compressed, a chunked HTTP POST and an envelope sent after 100 Continue, --target an environment: answered, read, shown as text, recorded, replayed against the target', async () => {
    // A project that names the target in its own environments file: the recording names it too.
    const project = path.join(root, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'carrier.environments.json'), JSON.stringify({ iis: { baseUrl: front.url } }));
    const dir = path.join(project, 'curl');
    const inspect = await startInspect('iis', dir, project);
    const first = front.seen.length;
    const url = `${inspect.url}${TERMINAL_PATH}/GetTerminalInformation`;
    const got = await curl(['--compressed', `${url}?APIKey=${KEY}&ZipCode=33635&CountryCode=USA&CustomerData=curl-get`]);
    const posted = await curl([
      '-H',
      'Transfer-Encoding: chunked',
      '--data-urlencode',
      `APIKey=${KEY}`,
      '--data-urlencode',
      'ZipCode=33635',
      '--data-urlencode',
      'CountryCode=USA',
      '--data-urlencode',
      'CustomerData=curl-post',
      url,
    ]);
    // An envelope written by hand and posted as .NET's HttpWebRequest does by default: Expect: 100-continue, the body sent only after the interim reply.
    const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetHazmatDescription xmlns="http://schemas.carrier-workbench.example/ltl/"><APIKey>${KEY}</APIKey><UNNANumber>1203</UNNANumber></GetHazmatDescription></soap:Body></soap:Envelope>`;
    const soapAction = 'SOAPAction: "http://schemas.carrier-workbench.example/ltl/GetHazmatDescription"';
    const enveloped = await curl([
      '-i',
      '-H',
      'Expect: 100-continue',
      '-H',
      'Content-Type: text/xml; charset=utf-8',
      '-H',
      soapAction,
      '--data-binary',
      envelope,
      `${inspect.url}${HAZMAT_PATH}`,
    ]);
    const out = await inspect.stop(3);

    assert.match(enveloped, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n[\s\S]*<Description [^>]*>Gasoline<\/Description>/, enveloped);
    assert.match(out, /#3 POST \/sandbox\/BillOfLadingService\.asmx {2}GetHazmatDescription sandbox SOAP 1\.1 → 200 {2}[\d.]+ ms\n/);
    for (const reply of [got, posted]) assert.match(reply, /<TerminalInformationReply[\s\S]*<TerminalCode>TPA<\/TerminalCode>/);
    assert.deepEqual(
      front.seen.slice(first).map((s) => [s.method, s.gzipped]),
      [
        ['GET', true],
        ['POST', false],
        ['POST', false],
      ],
    );
    assert.match(
      out,
      /#1 GET \/1\.0\.2\/TerminalInformationService\.asmx\/GetTerminalInformation\?\S+ {2}GetTerminalInformation 1\.0\.2 HTTP GET → 200 {2}[\d.]+ ms\n/,
    );
    assert.match(
      out,
      /#2 POST \/1\.0\.2\/TerminalInformationService\.asmx\/GetTerminalInformation {2}GetTerminalInformation 1\.0\.2 HTTP POST → 200 {2}[\d.]+ ms\n/,
    );
    assert.ok(!out.includes(KEY), out);

    const recorded = recordedCalls(
      dir,
      [
        { operation: 'GetTerminalInformation', version: '1.0.2', binding: 'get', params: { ZipCode: '33635', CountryCode: 'USA', CustomerData: 'curl-get' } },
        { operation: 'GetTerminalInformation', version: '1.0.2', binding: 'post', params: { ZipCode: '33635', CountryCode: 'USA', CustomerData: 'curl-post' } },
        { operation: 'GetHazmatDescription', version: 'sandbox', binding: 'soap11', params: { UNNANumber: '1203' } },
      ],
      'iis',
    );
    assert.deepEqual(
      recorded.map((c) => c.doc.decoded),
      [{ reply: 'gzip' }, undefined, undefined],
    );
    const text = await shown(dir, recorded[0].prefix);
    assert.match(text, /^Content-Encoding: gzip$/m);
    assert.match(text, /^GET \S+\/GetTerminalInformation\?APIKey=••••&ZipCode=33635&CountryCode=USA&CustomerData=curl-get$/m);
    assert.match(text, /<TerminalCode>TPA<\/TerminalCode>/);
    const form = await shown(dir, recorded[1].prefix);
    assert.match(form, /^Transfer-Encoding: chunked$/m);
    assert.match(form, /^APIKey = ••••\nZipCode = 33635\nCountryCode = USA\nCustomerData = curl-post$/m);
    await replays(dir, 3, 'iis');
  });
});

function curl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/curl', ['-sS', '--fail-with-body', ...args], { timeout: 20_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`curl ${args.join(' ')}: ${err.message}\n${stderr}${stdout}`)) : resolve(stdout),
    );
  });
}
