/**
 * examples/: every file validates without a finding, every shape is there with every binding it
 * offers, filed by area, with the realistic values the sandbox will serve. Also `carrier validate`
 * itself, on the examples and on made-up trees (exit codes, output format, folder search).
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { operations, shapeLabel } from '../../src/core/catalog';
import { parseRequestFile } from '../../src/core/requestFile';
import { validateRequestText } from '../../src/core/validation';
import { runCli } from '../../src/cli/dispatch';
import { validate } from '../../src/cli/commands/validate';
import type { CliIo } from '../../src/cli/command';

const ROOT = path.join(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');

/** The area folder of each service, as the examples are organised. */
const AREA: Record<string, string> = {
  TerminalInformationService: 'terminals',
  DocumentRetrievalService: 'documents',
  BillOfLadingService: 'bill-of-lading',
  RateQuoteService: 'rate-quote',
  PickupRequestService: 'pickup',
  ShipmentTracingService: 'tracing',
  TransitTimesService: 'transit-times',
};

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.carrier.json') ? [path.join(dir, e.name)] : []));
}

const examples = walk(EXAMPLES).sort();
const read = (file: string) => fs.readFileSync(file, 'utf8');
/**
 * The one-file-per-shape-and-binding set, by area; examples/collections/ holds chained runs
 * (variables), examples/fast-clock/ one that waits on its own fast sandbox (example-waits.test.ts).
 */
const parsed = examples
  .map((file) => ({ file: path.relative(EXAMPLES, file), request: parseRequestFile(read(file)).request! }))
  .filter(({ file }) => Object.values(AREA).includes(file.split(path.sep)[0]));

describe('examples', () => {
  for (const file of examples) {
    it(`${path.relative(EXAMPLES, file)} validates without a finding`, () => {
      const { findings, request } = validateRequestText(read(file), file);
      assert.deepEqual(
        findings.map((f) => `${f.range.start.line + 1}: ${f.message}`),
        [],
      );
      assert.ok(request);
    });
  }

  it('are filed in the area folders (or collections/, or fast-clock/ with its own environments)', () => {
    const folders = new Set(examples.map((f) => path.relative(EXAMPLES, f).split(path.sep)[0]));
    assert.deepEqual([...folders].filter((f) => f !== 'collections' && f !== 'fast-clock').sort(), Object.values(AREA).sort());
  });

  it('cover every shape with every binding it offers, each in its area folder', () => {
    for (const op of operations) {
      for (const binding of op.bindings) {
        const hits = parsed.filter(({ request }) => request.operation === op.operation && request.version === op.version && request.binding === binding);
        assert.ok(hits.length > 0, `no example of ${shapeLabel(op)} over ${binding}`);
        for (const { file } of hits) assert.equal(file.split(path.sep)[0], AREA[op.service], file);
      }
    }
  });

  it('name a binding other than SOAP 1.1 in the file name', () => {
    for (const { file, request } of parsed) {
      const suffix = /\.(soap12|get|post)\.carrier\.json$/.exec(file)?.[1] ?? 'soap11';
      assert.equal(request.binding, suffix, file);
    }
  });

  it('quote real lanes: Burns TN 37029 → Tampa FL 33635, 66227 → 71671, Tampa FL 34655 → Dayton OH 45414', () => {
    const lanes = parsed
      .filter(({ request }) => request.operation === 'GetRateQuote')
      .map(({ request }) => {
        const r = request.params.request as { Origin: { ZipOrPostalCode: string }; Destination: { ZipOrPostalCode: string } };
        return `${r.Origin.ZipOrPostalCode}>${r.Destination.ZipOrPostalCode}`;
      });
    for (const lane of ['37029>33635', '66227>71671', '34655>45414']) assert.ok(lanes.includes(lane), lane);
  });

  it('use the values the sandbox seeds and the facts name', () => {
    const all = (operation: string) => parsed.filter(({ request }) => request.operation === operation).map(({ request }) => request.params);
    assert.ok(
      all('GetTransitTimes').every((p) => (p.input as { OriginPoint: { ZipOrPostalCode: string } }).OriginPoint.ZipOrPostalCode === '68507'),
      'transit from Lincoln NE',
    );
    assert.ok(all('GetHazmatDescription').some((p) => p.UNNANumber === 'UN1203'));
    assert.ok(all('TraceShipment').every((p) => (p.request as { TraceNumbers: string[] }).TraceNumbers.includes('056391174')));
    for (const op of ['GetBillOfLadingPdf', 'GetBillOfLadingLabelPDF'])
      assert.ok(
        all(op).every((p) => p.billOfLadingId === 1),
        op,
      );
    assert.ok(
      all('CreateBillOfLading').some(
        (p) =>
          (p.request as { AddPickupRequest: boolean; PickupRequestInfo?: unknown }).AddPickupRequest === true &&
          (p.request as { PickupRequestInfo?: unknown }).PickupRequestInfo,
      ),
      'a BOL with a pickup',
    );
  });

  it('keep number literals as written (48.00 reaches the wire as 48.00)', () => {
    const quote = parseRequestFile(read(path.join(EXAMPLES, 'rate-quote', 'get-rate-quote-1.0.3.carrier.json'))).request!;
    assert.equal(quote.rawNumbers.get('/params/request/Items/0/Width'), '48.00');
  });
});

describe('carrier validate', () => {
  function io(cwd: string) {
    const out: string[] = [];
    const err: string[] = [];
    const cli: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), cwd, env: {} };
    return { cli, out: () => out.join(''), err: () => err.join('') };
  }
  const run = (args: string[], cwd: string) => {
    const o = io(cwd);
    return runCli(['validate', ...args], o.cli, [validate]).then((code) => ({ code, stdout: o.out(), stderr: o.err() }));
  };

  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-validate-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
    fs.writeFileSync(path.join(tmp, rel), text);
  };
  const good = JSON.stringify({ operation: 'GetBillOfLadingPdf', params: { billOfLadingId: 1 } });
  const bad =
    '{\n  "operation": "GetRateQuote",\n  "version": "1.0.3",\n  "binding": "get",\n  "params": { "request": { "QuoteType": "Domestic", "DeclaredValue": 0 } }\n}\n';

  it('exits 0 on the examples folder', async () => {
    const r = await run(['examples'], ROOT);
    assert.equal(r.stdout, '');
    assert.equal(r.code, 0);
    assert.match(r.stderr, new RegExp(`^${examples.length} files checked: 0 errors, 0 warnings`));
  });

  it('prints path:line:col: severity: message and exits 1 on an error', async () => {
    write('a/bad.carrier.json', bad);
    write('a/good.carrier.json', good);
    const r = await run(['a'], tmp);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'a/bad.carrier.json:4:14: error: "binding": "get" — GetRateQuote 1.0.3 offers soap11, soap12\n');
  });

  it('searches folders recursively for *.carrier.json, skipping node_modules and dot-folders', async () => {
    write('deep/er/x.carrier.json', good);
    write('deep/node_modules/pkg/y.carrier.json', bad);
    write('deep/.git/z.carrier.json', bad);
    write('deep/notes.json', bad);
    const r = await run(['deep'], tmp);
    assert.equal(r.code, 0);
    assert.match(r.stderr, /^1 file checked/);
  });

  it('warnings alone exit 0; --quiet hides them; --json prints an array', async () => {
    write('w.carrier.json', JSON.stringify({ operation: 'GetBillOfLadingPdf', params: { APIKey: 'k3y', billOfLadingId: 1 } }));
    const plain = await run(['w.carrier.json'], tmp);
    assert.equal(plain.code, 0);
    assert.match(plain.stdout, /^w\.carrier\.json:1:\d+: warning: params\.APIKey: a literal API key/);
    assert.equal((await run(['--quiet', 'w.carrier.json'], tmp)).stdout, '');
    const json = JSON.parse((await run(['--json', 'w.carrier.json'], tmp)).stdout);
    assert.equal(json.length, 1);
    assert.equal(json[0].code, 'api-key');
    assert.equal(json[0].line, 1);
  });

  it('a syntax error is reported at its line and column, not thrown', async () => {
    write('s.carrier.json', '{\n  "operation": "GetBillOfLadingPdf"\n  "params": {}\n}');
    const r = await run(['s.carrier.json'], tmp);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 's.carrier.json:2:36: error: missing comma before "params"\n');
  });

  it('exits 2 with a short usage on stderr for an unknown flag, a missing path or no arguments', async () => {
    for (const args of [['--bogus', '.'], ['no/such/path'], []]) {
      const r = await run(args, tmp);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /Usage: carrier validate/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
  });

  it('--help lists commands; unknown commands get a did-you-mean and exit 2', async () => {
    const o = io(tmp);
    assert.equal(await runCli(['--help'], o.cli, [validate]), 0);
    assert.match(o.out(), /Commands:\n\s+validate\s+check request files/);
    assert.equal((await run(['--help'], tmp)).code, 0, 'carrier validate --help');
    const u = io(tmp);
    const unknown = { code: await runCli(['validat'], u.cli, [validate]), stderr: u.err() };
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "validat" — did you mean "validate"\?/);
  });

  it('`carrier validate examples` through bin/carrier.js exits 0', function () {
    this.timeout(60_000);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'carrier.js'), 'validate', 'examples'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
  });
});
