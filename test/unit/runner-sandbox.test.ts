/**
 * `carrier run` end to end against the embedded sandbox: the example collections pass, a wrong
 * expectation fails with path, expected, actual and line:column, and the reports hold up.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/dispatch';
import { checkJunitStructure } from './junit-structure';

const ROOT = path.resolve(__dirname, '../..');
const COLLECTIONS = path.join(ROOT, 'examples/collections');

async function carrier(args: string[], cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
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
    env: {},
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

describe('carrier run against the embedded sandbox', function () {
  this.timeout(60_000);
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-run-sandbox-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('runs every example collection and passes', async () => {
    const r = await carrier(['run', 'examples/collections', '--concurrency', '4', '--reporter', 'cli,junit,json', '--out', tmp]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const name of ['bill-of-lading-lifecycle', 'rate-quotes-across-versions', 'rate-quotes-by-lane', 'tracing', 'error-cases']) {
      assert.match(r.stdout, new RegExp(`^examples/collections/${name}( — .*)?(  \\(settings: .*\\))?$`, 'm'), `${name} ran`);
    }
    assert.match(r.stdout, /(\d+) tests: \1 passed, 0 failed, 0 skipped/);
    const report = JSON.parse(fs.readFileSync(path.join(tmp, 'report.json'), 'utf8'));
    assert.ok(report.tests.length >= 20);
    const created = report.tests.find((t: { file: string }) => t.file.endsWith('01-create-bill-of-lading.carrier.json'));
    assert.match(created.captured.bolId, /^\d+$/);
    assert.match(created.captured.pro, /^\d{9}$/);
    const labels = report.tests.find((t: { file: string }) => t.file.endsWith('03-shipping-labels.carrier.json'));
    assert.deepEqual(labels.dependsOn, ['examples/collections/bill-of-lading-lifecycle/01-create-bill-of-lading.carrier.json']);
    const junit = fs.readFileSync(path.join(tmp, 'junit.xml'), 'utf8');
    assert.deepEqual(checkJunitStructure(junit), { suites: 5, cases: report.tests.length });
    assert.ok(!junit.includes('sandbox-key') && !JSON.stringify(report).includes('sandbox-key'), 'the API key is in no report');
  });

  it('fails a deliberately wrong expectation, naming path, expected, actual and where it is written', async () => {
    const copy = path.join(tmp, 'rates');
    fs.cpSync(path.join(COLLECTIONS, 'rate-quotes-across-versions'), copy, { recursive: true });
    const file = path.join(copy, '2-quote-1.0.1.carrier.json');
    const text = fs.readFileSync(file, 'utf8').replace('"Result.OriginServiceCenter.City": "Nashville"', '"Result.OriginServiceCenter.City": "Memphis"');
    fs.writeFileSync(file, text);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"Memphis"')) + 1;
    const column = lines[line - 1].indexOf('"Memphis"') + 1;

    const r = await carrier(['run', 'rates', '--reporter', 'cli,json', '--out', 'out'], tmp);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(
      r.stdout.includes(`rates/2-quote-1.0.1.carrier.json:${line}:${column}  Result.OriginServiceCenter.City: expected "Memphis", got "Nashville"`),
      r.stdout,
    );
    assert.match(
      r.stdout,
      /○ 3-quote-1\.0\.3\.carrier\.json \[soap12\] {2}skipped: needs \{\{standardNet\}\} from 2-quote-1\.0\.1\.carrier\.json \[soap11\], which failed/,
    );
    assert.match(r.stdout, /3 tests: 1 passed, 1 failed, 1 skipped/);
    const failure = JSON.parse(fs.readFileSync(path.join(tmp, 'out/report.json'), 'utf8')).tests[1].failures[0];
    assert.deepEqual(failure, {
      kind: 'reply',
      message: 'Result.OriginServiceCenter.City: expected "Memphis", got "Nashville"',
      expected: 'equals "Memphis"',
      actual: '"Nashville"',
      path: 'Result.OriginServiceCenter.City',
      location: { file: 'rates/2-quote-1.0.1.carrier.json', line, column, endLine: line, endColumn: column + '"Memphis"'.length },
    });
  });

  it('--binding all runs a file over every binding its operation offers', async () => {
    const r = await carrier(['run', 'examples/collections/tracing/4-document-types.carrier.json', '--binding', 'all', '--concurrency', '4']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    for (const b of ['soap11', 'soap12', 'get', 'post']) assert.match(r.stdout, new RegExp(`✓ 4-document-types\\.carrier\\.json \\[${b}\\]`));
  });
});
