/**
 * The day the key arrives, end to end: a "live" service (the sandbox with other namespaces behind
 * altered WSDLs, its terminal replies lacking an element) checked with `carrier contract`, set up
 * with `--write`, the examples sent to it, a request file using what it adds, and `carrier
 * compare` against the sandbox. Then the contract that cannot be read, each way, with exit 2.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../src/cli/dispatch';
import type { CliIo } from '../../src/cli/command';
import { parseXml, type XmlElement } from '../../src/core/xml/dom';
import { secretSpellings } from '../../src/core/redact';
import { CONTRACT_REPORT_FORMAT, type ContractReport } from '../../src/core/contract/types';
import { checkContract, ContractCancelled } from '../../src/core/contract/check';
import { sandboxEnvironment } from '../../src/core/environments/builtin';
import { nodeContext } from '../../src/host';
import { alterLiveReply, alterLiveWsdl, liveRequest, LIVE_NAMESPACES, startLiveService, type LiveService } from './contract-kit';
import { exampleFiles } from './example-files';
import { startServer, tmpDir, type TestServer } from './transport-support';

const ROOT = path.join(__dirname, '../..');
const KEY = 'LiveKey-7Qm2Rx8WbY4Hs7Jd1Fp6Gc0Na5Ue2Ko9Vi3Xt8Ml4Qb';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function carrier(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
    env: { NO_COLOR: '1', ...env },
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

const ENVIRONMENTS = (url: string) => `{
  // The carrier's real service. Namespaces: to be found out.
  "live": {
    "description": "The carrier, day one",   // from the welcome e-mail
    "baseUrl": "${url}",
    /* a slow service: give it time */
    "timeoutMs": 20000
  }
}
`;

function childNames(el: XmlElement | undefined): string[] {
  return (el?.children ?? []).map((c) => c.local);
}

function find(el: XmlElement, local: string): XmlElement | undefined {
  if (el.local === local) return el;
  for (const c of el.children) {
    const f = find(c, local);
    if (f) return f;
  }
  return undefined;
}

describe('carrier contract, --write, send and compare against a live service', function () {
  this.timeout(120_000);
  let live: LiveService;
  let dir: string;

  before(async () => {
    live = await startLiveService({ alterWsdl: alterLiveWsdl, alterReply: alterLiveReply, alterRequest: liveRequest });
    dir = tmpDir('carrier-contract-');
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), ENVIRONMENTS(live.url));
  });
  after(async () => {
    await live.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exits 1 and names the live namespaces and every altered element', async () => {
    const r = await carrier(['contract', '--env', 'live'], dir, { CARRIER_API_KEY_LIVE: KEY });
    assert.equal(r.code, 1, r.stderr + r.stdout);
    for (const uri of Object.values(LIVE_NAMESPACES)) assert.ok(r.stdout.includes(uri), `names ${uri}`);
    for (const expected of [
      '→ serviceNamespace: "http://live.carrier.test/ws/"',
      '→ dataNamespace: "http://tempuri.org/"',
      'request.CustomerData: the live contract adds CustomerData',
      'request.Items[*].Pieces: the live contract adds Pieces (s:int, minOccurs 1, maxOccurs 1) to RateItem at position 3, after Weight',
      'lacks SortAndSegregate',
      'adds COD',
      'input.LineOfBusiness: the live contract has no LineOfBusiness',
      'types DateOfPickup as string; the catalog has dateTime',
      'orders the elements CompanyName, Name',
      'requires IncludeBol',
      'the live contract expands it: Stackable (s:boolean), TotalPallets (s:int)',
      'GetHazmatDescription is not in the live WSDL',
      'no HTTP GET binding',
      'no TerminalType in TerminalDetails',
      'Run with --write',
    ])
      assert.ok(r.stdout.includes(expected), `the report says "${expected}"\n${r.stdout}`);
    // Grouped by service path, the most serious group first; nothing is written without --write.
    assert.ok(r.stdout.indexOf('/1.0.0/TransitTimesService.asmx') < r.stdout.indexOf('/1.0.0/RateQuoteService.asmx'));
    assert.equal(fs.existsSync(path.join(dir, '.carrier')), false);
    // The key is never sent for a WSDL, never in a URL, never printed.
    for (const req of live.requests)
      assert.deepEqual(
        secretSpellings(KEY).filter((s) => req.path.includes(s) || req.body.includes(s)),
        [],
      );
    assert.deepEqual(
      secretSpellings(KEY).filter((s) => (r.stdout + r.stderr).includes(s)),
      [],
    );
  });

  it('--json gives the documented shape, --out the fetched WSDLs', async () => {
    const out = path.join(dir, 'wsdl');
    const r = await carrier(['contract', '--env', 'live', '--json', '--out', out], dir);
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout) as ContractReport;
    assert.equal(report.format, CONTRACT_REPORT_FORMAT);
    assert.equal(report.version, 1);
    assert.equal(report.environment, 'live');
    assert.deepEqual(report.suggestedNamespaces, LIVE_NAMESPACES);
    assert.equal(report.namespaces.data.differs, true);
    assert.equal(report.services.length, 11);
    assert.deepEqual(Object.keys(report.summary), ['differences', 'breaking', 'changed', 'added', 'unreadable']);
    assert.deepEqual(report.summary, { differences: 15, breaking: 10, changed: 1, added: 4, unreadable: 0 });
    const kinds = new Set(report.differences.map((d) => d.kind));
    for (const k of [
      'namespace',
      'operation-missing',
      'binding-missing',
      'element-missing',
      'type',
      'enumeration-missing',
      'order',
      'min-occurs',
      'element-added',
      'enumeration-added',
      'record-expanded',
    ])
      assert.ok(kinds.has(k as never), k);
    // Most serious first.
    const rank = { breaking: 0, changed: 1, added: 2 };
    assert.deepEqual(
      report.differences.map((d) => rank[d.severity]),
      report.differences.map((d) => rank[d.severity]).sort(),
    );
    const files = fs.readdirSync(out).sort();
    assert.equal(files.length, 11);
    assert.ok(files.includes('1.0.3-RateQuoteService.wsdl'));
    assert.match(fs.readFileSync(path.join(out, '1.0.3-RateQuoteService.wsdl'), 'utf8'), /name="CustomerData"/);
    assert.match(r.stderr, /WSDLs written to wsdl/);
  });

  it('--write sets the namespaces in place, comments kept, and stores the contract', async () => {
    const r = await carrier(['contract', '--env', 'live', '--write'], dir);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /carrier\.environments\.json: set serviceNamespace, dataNamespace, pickupNamespace of "live"/);
    const text = fs.readFileSync(path.join(dir, 'carrier.environments.json'), 'utf8');
    // Everything that was there is still there, character for character; the settings were added.
    for (const line of ENVIRONMENTS(live.url)
      .split('\n')
      .filter((l) => l.trim() && !l.includes('"timeoutMs"')))
      assert.ok(text.includes(line), `kept: ${line}`);
    assert.ok(
      text.includes(
        '"timeoutMs": 20000,\n    "serviceNamespace": "http://live.carrier.test/ws/",\n    "dataNamespace": "http://tempuri.org/",\n    "pickupNamespace": "http://live.carrier.test/pickup"\n  }',
      ),
      text,
    );
    const stored = JSON.parse(fs.readFileSync(path.join(dir, '.carrier/contracts/live.json'), 'utf8'));
    assert.equal(stored.format, 'carrier-contract');
    assert.deepEqual(stored.namespaces, LIVE_NAMESPACES);
    assert.equal(stored.report.environment, 'live');

    // Run again: the namespaces now agree, and the second write changes nothing in the file.
    const again = await carrier(['contract', '--env', 'live', '--write'], dir);
    assert.equal(again.code, 1);
    assert.match(again.stdout, /✓ {2}\{service_namespace\} http:\/\/live\.carrier\.test\/ws\//);
    assert.match(again.stdout, /the namespaces of "live" already are the live ones/);
    assert.equal(fs.readFileSync(path.join(dir, 'carrier.environments.json'), 'utf8'), text);
  });

  it('then every example sends to the live environment successfully', async () => {
    const examples = path.join(dir, 'examples');
    fs.cpSync(path.join(ROOT, 'examples'), examples, { recursive: true, filter: (src) => !src.includes(`${path.sep}collections`) });
    const failed: string[] = [];
    for (const file of exampleFiles({ root: examples })) {
      const r = await carrier(['send', path.relative(dir, file), '--env', 'live'], dir, { CARRIER_API_KEY_LIVE: KEY });
      if (r.code !== 0) failed.push(`${path.relative(dir, file)}: ${r.code}\n${r.stderr}${r.stdout.split('\n').slice(-3).join('\n')}`);
    }
    assert.deepEqual(failed, []);
  });

  it("a request file for the live environment may use an added element: it validates and goes out at the contract's place", async () => {
    const file = path.join(dir, 'quote.carrier.json');
    fs.writeFileSync(
      file,
      `{
  "operation": "GetRateQuote",
  "version": "1.0.3",
  "environment": "live",
  "params": {
    "request": {
      "QuoteType": "Domestic",
      "Origin": { "ZipOrPostalCode": "37029", "CountryCode": "USA" },
      "Destination": { "ZipOrPostalCode": "33635", "CountryCode": "USA" },
      "Items": [ { "Class": "50.0", "Weight": 1500, "Width": 48.00, "Height": 40, "Length": 48, "Pieces": 2 } ],
      "DeclaredValue": "0.00",
      "CustomerData": "day one"
    }
  }
}
`,
    );
    const v = await carrier(['validate', 'quote.carrier.json'], dir);
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.match(
      v.stdout,
      /quote\.carrier\.json:10:\d+: info: params\.request\.Items\[0\]\.Pieces is not in the catalog; the live contract of environment "live" \(checked \d{4}-\d\d-\d\d\) declares it: xs:int, minOccurs 1, maxOccurs 1, after Weight/,
    );
    assert.match(v.stdout, /info: params\.request\.CustomerData is not in the catalog/);

    const e = await carrier(['envelope', 'quote.carrier.json'], dir);
    assert.equal(e.code, 0, e.stderr);
    const envelope = parseXml(e.stdout.slice(e.stdout.indexOf('<?xml')));
    assert.deepEqual(childNames(find(envelope, 'request')), ['CustomerData', 'QuoteType', 'Origin', 'Destination', 'Items', 'DeclaredValue']);
    assert.deepEqual(childNames(find(envelope, 'Item')), ['Class', 'Weight', 'Pieces', 'Width', 'Height', 'Length']);
    assert.equal(find(envelope, 'Pieces')!.ns, LIVE_NAMESPACES.service);
    assert.match(e.stdout, /<Width>48\.00<\/Width>/);

    const before = live.requests.length;
    const s = await carrier(['send', 'quote.carrier.json'], dir, { CARRIER_API_KEY_LIVE: KEY });
    assert.equal(s.code, 0, s.stdout + s.stderr);
    const sent = live.requests.slice(before).find((q) => q.method === 'POST')!;
    assert.deepEqual(childNames(find(parseXml(sent.body), 'Item')), ['Class', 'Weight', 'Pieces', 'Width', 'Height', 'Length']);

    // A file that names no environment follows the contract of the one --env sends it to.
    fs.writeFileSync(path.join(dir, 'unnamed.carrier.json'), fs.readFileSync(file, 'utf8').replace('  "environment": "live",\n', ''));
    const unnamed = await carrier(['envelope', 'unnamed.carrier.json', '--env', 'live'], dir);
    assert.equal(unnamed.code, 0, unnamed.stderr);
    assert.match(unnamed.stdout, /<Weight>1500<\/Weight>\s*<Pieces>2<\/Pieces>/);
    assert.equal((await carrier(['envelope', 'unnamed.carrier.json'], dir)).code, 2);
    // carrier run --env follows that environment's contract too: the file runs, and passes.
    fs.mkdirSync(path.join(dir, 'suite'), { recursive: true });
    fs.copyFileSync(path.join(dir, 'unnamed.carrier.json'), path.join(dir, 'suite', 'unnamed.carrier.json'));
    const ran = await carrier(['run', 'suite', '--env', 'live'], dir, { CARRIER_API_KEY_LIVE: KEY });
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    assert.equal((await carrier(['run', 'suite'], dir)).code, 2, 'without --env the file follows the catalog, where Pieces is an error');

    // The same file sent to the sandbox follows the catalog: there the addition is an error.
    fs.writeFileSync(path.join(dir, 'sandbox.carrier.json'), fs.readFileSync(file, 'utf8').replace('"environment": "live"', '"environment": "sandbox"'));
    const vs = await carrier(['validate', 'sandbox.carrier.json'], dir);
    assert.equal(vs.code, 1);
    assert.match(vs.stdout, /error: params\.request\.Items\[0\]\.Pieces is not a field of RateItem/);
  });

  it('an element the live contract lacks is a warning; an added element of the wrong type an error', async () => {
    fs.writeFileSync(
      path.join(dir, 'transit.carrier.json'),
      JSON.stringify(
        {
          operation: 'GetTransitTimes',
          environment: 'live',
          params: {
            input: {
              LineOfBusiness: 'LTL',
              DateOfPickup: '2026-11-23T00:00:00',
              OriginPoint: { ZipOrPostalCode: '68507', CountryCode: 'USA' },
              Destinations: { DestinationPoint: [{ ZipOrPostalCode: '33635', CountryCode: 'USA' }] },
            },
          },
        },
        null,
        2,
      ),
    );
    const t = await carrier(['validate', 'transit.carrier.json'], dir);
    assert.equal(t.code, 0, t.stdout);
    assert.match(
      t.stdout,
      /warning: params\.input\.LineOfBusiness: the live contract of environment "live" \(checked [^)]+\) has no LineOfBusiness in TransitTimesInput: the live service will not read it/,
    );

    fs.writeFileSync(
      path.join(dir, 'bad.carrier.json'),
      fs.readFileSync(path.join(dir, 'quote.carrier.json'), 'utf8').replace('"Pieces": 2', '"Pieces": "two"'),
    );
    const b = await carrier(['validate', 'bad.carrier.json'], dir);
    assert.equal(b.code, 1);
    assert.match(b.stdout, /error: params\.request\.Items\[0\]\.Pieces: expected an integer \(xs:int\), got "two"/);
  });

  it('carrier compare names the element one side lacks and exits 1; equal replies exit 0', async () => {
    const r = await carrier(['compare', 'examples/terminals/get-terminal-information.carrier.json', '--env', 'sandbox', '--env', 'live'], dir, {
      CARRIER_API_KEY_LIVE: KEY,
    });
    assert.equal(r.code, 1, r.stderr + r.stdout);
    assert.match(r.stdout, /only in sandbox\s+Result\[\*\]\.TerminalDetails\.TerminalType/);
    assert.match(r.stdout, /✗ 1 of 1 file differ between sandbox and live/);

    const j = await carrier(
      ['compare', 'examples/terminals/get-terminal-information.carrier.json', 'examples/tracing/trace-shipment.carrier.json', '--env', 'live', '--json'],
      dir,
      { CARRIER_API_KEY_LIVE: KEY },
    );
    assert.equal(j.code, 1, j.stderr);
    const report = JSON.parse(j.stdout);
    assert.equal(report.format, 'carrier-compare-report');
    assert.deepEqual(report.environments, ['sandbox', 'live']);
    assert.deepEqual(
      report.files.map((f: { differences: unknown[] }) => f.differences.length),
      [1, 0],
    );
    assert.deepEqual(report.files[0].differences[0], {
      kind: 'only-in',
      path: 'Result[*].TerminalDetails.TerminalType',
      side: 0,
      message: 'Result[*].TerminalDetails.TerminalType: only in sandbox',
    });

    const ignored = await carrier(
      [
        'compare',
        'examples/terminals/get-terminal-information.carrier.json',
        '--env',
        'sandbox',
        '--env',
        'live',
        '--ignore',
        'Result[*].TerminalDetails.TerminalType',
      ],
      dir,
      { CARRIER_API_KEY_LIVE: KEY },
    );
    assert.equal(ignored.code, 0, ignored.stdout);
    assert.match(ignored.stdout, /✓ 1 file: sandbox and live agree/);
  });
});

describe('carrier contract: a contract that cannot be read exits 2, naming the URL', function () {
  this.timeout(60_000);
  let dir: string;
  let server: TestServer;
  let answer: (url: string) => { status: number; type: string; body: string; headers?: Record<string, string> };

  before(async () => {
    dir = tmpDir('carrier-contract-bad-');
    server = await startServer((req, res) => {
      const a = answer(req.url ?? '');
      res.writeHead(a.status, { 'Content-Type': a.type, ...(a.headers ?? {}) });
      res.end(a.body);
    });
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ bad: { baseUrl: server.url }, gone: { baseUrl: 'http://127.0.0.1:9' } }));
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const cases: Array<[string, () => typeof answer, RegExp]> = [
    [
      'an HTML page instead of the WSDL',
      () => () => ({ status: 200, type: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html><body>Sign in</body></html>' }),
      /RateQuoteService\.asmx\?WSDL answered with an HTML page/,
    ],
    [
      'malformed XML',
      () => () => ({ status: 200, type: 'text/xml', body: '<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"><wsdl:types>' }),
      /RateQuoteService\.asmx\?WSDL is not well-formed XML/,
    ],
    ['a server error', () => () => ({ status: 500, type: 'text/plain', body: 'boom' }), /RateQuoteService\.asmx\?WSDL answered HTTP 500/],
    [
      'a redirect, reported and not followed',
      () => () => ({ status: 302, type: 'text/plain', body: '', headers: { Location: 'https://login.example/' } }),
      /answered 302 .*redirecting to https:\/\/login\.example\/; redirects are never followed/,
    ],
    [
      'no service path at all (a wrong baseUrl)',
      () => () => ({ status: 404, type: 'text/plain', body: 'not found' }),
      /answered HTTP 404; no service path of the catalog was found/,
    ],
  ];
  for (const [name, make, message] of cases) {
    it(name, async () => {
      answer = make();
      const r = await carrier(['contract', '--env', 'bad'], dir);
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.stderr, message);
      assert.ok(r.stderr.includes(server.url), r.stderr);
    });
  }

  it('a WSDL over the size cap', async () => {
    answer = () => ({ status: 200, type: 'text/xml', body: `<x>${'y'.repeat(5000)}</x>` });
    fs.writeFileSync(
      path.join(dir, 'carrier.environments.json'),
      JSON.stringify({ bad: { baseUrl: server.url, maxReplyBytes: 1024 }, gone: { baseUrl: 'http://127.0.0.1:9' } }),
    );
    const r = await carrier(['contract', '--env', 'bad'], dir);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /RateQuoteService\.asmx\?WSDL is (\d+ bytes, more|larger) than the limit of 1024 bytes \(maxReplyBytes\)/);
  });

  it("a check cancelled part way (Ctrl-C, the editor's Cancel) concludes nothing", async () => {
    answer = () => ({ status: 200, type: 'text/xml', body: '<x/>' });
    const slow = await startServer(() => undefined);
    const context = nodeContext();
    try {
      const controller = new AbortController();
      const check = checkContract({
        context,
        environment: { ...sandboxEnvironment(), name: 'slow', embedded: false, baseUrl: slow.url },
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 200);
      await assert.rejects(check, ContractCancelled);
    } finally {
      await context.http.close();
      await slow.close();
    }
  });

  it('an unreachable service', async () => {
    const r = await carrier(['contract', '--env', 'gone'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /http:\/\/127\.0\.0\.1:9\/1\.0\.3\/RateQuoteService\.asmx\?WSDL/);
  });

  it('one path missing is a difference (its operations missing), not an unreadable contract', async () => {
    const live = await startLiveService({
      answer: (p) => (p === '/1.0.0/RateQuoteService.asmx' ? { status: 404, type: 'text/plain', body: 'no' } : undefined),
    });
    try {
      fs.writeFileSync(
        path.join(dir, 'carrier.environments.json'),
        JSON.stringify({
          part: { baseUrl: live.url, serviceNamespace: LIVE_NAMESPACES.service, dataNamespace: LIVE_NAMESPACES.data, pickupNamespace: LIVE_NAMESPACES.pickup },
        }),
      );
      const r = await carrier(['contract', '--env', 'part', '--json'], dir);
      assert.equal(r.code, 1, r.stderr);
      const report = JSON.parse(r.stdout) as ContractReport;
      assert.deepEqual(
        report.differences.map((d) => [d.kind, d.servicePath]),
        [['operation-missing', '/1.0.0/RateQuoteService.asmx']],
      );
      assert.equal(report.services.find((s) => s.path === '/1.0.0/RateQuoteService.asmx')!.status, 'not-found');
    } finally {
      await live.close();
    }
  });

  it("the sandbox's own contract: nothing differs (exit 0), and --write is refused for it", async () => {
    const r = await carrier(['contract', '--env', 'sandbox'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✓ The live contract is as the catalog has it\./);
    const w = await carrier(['contract', '--env', 'sandbox', '--write'], dir);
    assert.equal(w.code, 2);
    assert.match(w.stderr, /embedded sandbox, which follows the catalog/);
    assert.equal((await carrier(['contract'], dir)).code, 2);
    assert.equal((await carrier(['contract', '--env', 'nope'], dir)).code, 2);
  });
});
