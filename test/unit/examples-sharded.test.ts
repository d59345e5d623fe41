/**
 * The example collections on the embedded sandbox, split over three machines and merged again:
 * `carrier run examples/collections examples/collections/rate-quotes-by-lane --shard i/3` for
 * i = 1..3 gives three JSON reports that together hold every test of the unsharded run exactly
 * once, with the bill-of-lading life cycle in a single shard; `carrier report` merges them into a
 * junit.xml and a report.html that name every test; no report holds the API key.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/dispatch';
import { SANDBOX_DEFAULT_KEY } from '../../src/core/environments/builtin';
import { escapeHtml } from '../../src/core/runner/reporters/html';
import { checkJunitStructure } from './junit-structure';

const ROOT = path.resolve(__dirname, '../..');

async function carrier(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: ROOT,
    env: {},
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

interface JsonTest {
  id: string;
  name: string;
  file: string;
  status: string;
}
const tests = (dir: string): JsonTest[] => JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')).tests;

describe('the example collections in three shards, merged', function () {
  this.timeout(120_000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-examples-shards-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('every test of the unsharded run once across 1/3…3/3, the life cycle in one shard; carrier report names them all', async () => {
    const inputs = ['examples/collections', 'examples/collections/rate-quotes-by-lane'];
    const whole = await carrier(['run', ...inputs, '--concurrency', '4', '--reporter', 'json', '--out', path.join(tmp, 'whole')]);
    assert.equal(whole.code, 0, whole.stdout + whole.stderr);
    const all = tests(path.join(tmp, 'whole'));
    assert.equal(all.filter((t) => t.file.includes('rate-quotes-by-lane/')).length, 10, 'the data-driven collection: 2 files × 5 rows');

    const shards: JsonTest[][] = [];
    for (const i of [1, 2, 3]) {
      const out = path.join(tmp, 'shards', String(i));
      const r = await carrier(['run', ...inputs, '--shard', `${i}/3`, '--concurrency', '4', '--reporter', 'cli,json', '--out', out]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      shards.push(tests(out));
    }
    const ids = shards.flat().map((t) => t.id);
    assert.equal(ids.length, all.length, 'no test twice');
    assert.deepEqual([...ids].sort(), all.map((t) => t.id).sort(), 'no test lost');
    const lifecycle = shards.map((s) => s.filter((t) => t.file.includes('bill-of-lading-lifecycle/')).length);
    assert.deepEqual(
      lifecycle.filter((n) => n > 0),
      [all.filter((t) => t.file.includes('bill-of-lading-lifecycle/')).length],
      `the life cycle in one shard: ${lifecycle.join(', ')}`,
    );

    const merged = path.join(tmp, 'merged');
    const report = await carrier(['report', path.join(tmp, 'shards'), '--reporter', 'junit,json,html', '--out', merged]);
    assert.equal(report.code, 0, report.stdout + report.stderr);
    const junit = fs.readFileSync(path.join(merged, 'junit.xml'), 'utf8');
    const html = fs.readFileSync(path.join(merged, 'report.html'), 'utf8');
    assert.equal(checkJunitStructure(junit).cases, all.length);
    for (const t of all) {
      assert.ok(junit.includes(`name="${escapeHtml(t.name).replace(/&apos;/g, "'")}"`), `${t.name} in junit.xml`);
      assert.ok(html.includes(escapeHtml(t.name)), `${t.name} in report.html`);
    }
    for (const dir of [path.join(tmp, 'whole'), ...[1, 2, 3].map((i) => path.join(tmp, 'shards', String(i))), merged]) {
      for (const f of fs.readdirSync(dir)) assert.ok(!fs.readFileSync(path.join(dir, f), 'utf8').includes(SANDBOX_DEFAULT_KEY), `no API key in ${f}`);
    }
  });
});
