/**
 * `--shard i/n` over a run of more than 100 tests: for every n, the shards 1/n…n/n hold every test
 * exactly once, each keeps the run's order, chains of captures (row by row in a data-driven
 * collection) and collections whose order matters stay in one shard, shard sizes differ by at most
 * one unit, and the deal is the same wherever the repository is checked out. Durations balance by
 * time instead of count.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dealUnits, loadRun, parseShard, relativeName, shardPlan, shardUnits, type PlannedRun, type PlannedTest } from '../../src/core/runner';
import { nodeContext } from '../../src/host';

// Captures name PdfDocument, the one element of its reply: reply paths are held against the catalog.
const req = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  operation: 'GetBillOfLadingPdf',
  version: 'sandbox',
  params,
  ...extra,
});

function suite(root: string): void {
  const write = (rel: string, content: unknown) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  };
  // 40 rows × 2 files, row by row a chain of two: 80 tests in 40 units.
  write('suite/lanes/collection.json', { data: 'lanes.csv' });
  write('suite/lanes/lanes.csv', `name,bol\n${Array.from({ length: 40 }, (_, i) => `lane ${i + 1},${i + 1}`).join('\n')}\n`);
  write('suite/lanes/1-create.carrier.json', req({ billOfLadingId: '{{bol}}' }, { capture: { pro: 'PdfDocument' } }));
  write('suite/lanes/2-trace.carrier.json', req({ billOfLadingId: 1, memo: '{{pro}}' }));
  // Order matters: 4 tests, one unit.
  write('suite/ordered/collection.json', { order: ['d.carrier.json', 'c.carrier.json'] });
  for (const n of ['a', 'b', 'c', 'd']) write(`suite/ordered/${n}.carrier.json`, req({ billOfLadingId: 1 }));
  // keepTogether, with a subfolder: 5 tests, one unit.
  write('suite/together/collection.json', { keepTogether: true });
  for (const n of ['a', 'b', 'c']) write(`suite/together/${n}.carrier.json`, req({ billOfLadingId: 1 }));
  for (const n of ['x', 'y']) write(`suite/together/sub/${n}.carrier.json`, req({ billOfLadingId: 1 }));
  // A chain with a gap: 1 → 3, 3 → 5; 2 and 4 stand alone.
  write('suite/chain/1.carrier.json', req({ billOfLadingId: 1 }, { capture: { x: 'PdfDocument' } }));
  write('suite/chain/2.carrier.json', req({ billOfLadingId: 1 }));
  write('suite/chain/3.carrier.json', req({ billOfLadingId: '{{x}}' }, { capture: { y: 'PdfDocument' } }));
  write('suite/chain/4.carrier.json', req({ billOfLadingId: 1 }));
  write('suite/chain/5.carrier.json', req({ billOfLadingId: '{{y}}' }));
  // 15 files on their own.
  for (let i = 1; i <= 15; i++) write(`suite/loose/${i}.carrier.json`, req({ billOfLadingId: i }));
}

describe('--shard', () => {
  const context = nodeContext();
  let tmp: string;
  let plan: PlannedRun;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-shard-'));
    suite(tmp);
    plan = loadRun(context, ['suite'], { baseDir: tmp });
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  after(() => context.http.close());

  const rel = (t: PlannedTest) => relativeName(tmp, t.id.replace(/#.*$/, '')) + (t.id.includes('#') ? t.id.slice(t.id.indexOf('#')) : '');

  it('plans a run of more than 100 tests in units: row chains, ordered and kept-together collections, capture chains', () => {
    assert.deepEqual(plan.problems, []);
    assert.equal(plan.tests.length, 109);
    const units = shardUnits(plan.tests).map((u) => u.length);
    assert.equal(units.length, 40 + 1 + 1 + 3 + 15);
    assert.deepEqual([...new Set(units)].sort(), [1, 2, 3, 4, 5]);
  });

  for (const n of [1, 2, 3, 4, 5, 7, 8]) {
    it(`1/${n}…${n}/${n} hold every test exactly once, in run order, chains and ordered collections whole, sizes within one unit`, () => {
      const shards = Array.from({ length: n }, (_, i) => shardPlan(plan, { index: i + 1, total: n }).plan.tests);
      const all = shards.flat().map((t) => t.id);
      assert.equal(all.length, plan.tests.length, 'no test doubled');
      assert.deepEqual(new Set(all), new Set(plan.tests.map((t) => t.id)), 'no test lost');
      const shardOf = new Map<string, number>();
      shards.forEach((tests, i) => tests.forEach((t) => shardOf.set(t.id, i)));
      for (const tests of shards) {
        const positions = tests.map((t) => t.position!);
        assert.deepEqual(
          positions,
          [...positions].sort((a, b) => a - b),
          "each shard runs in the run's order",
        );
      }
      for (const t of plan.tests) for (const d of t.dependsOn) assert.equal(shardOf.get(d), shardOf.get(t.id), `${rel(t)} runs with its producer`);
      for (const folder of ['ordered', 'together']) {
        const where = new Set(plan.tests.filter((t) => t.file.includes(`/${folder}/`)).map((t) => shardOf.get(t.id)));
        assert.equal(where.size, 1, `${folder}/ in one shard`);
      }
      const sizes = shards.map((s) => s.length);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 5, `balanced by count: ${sizes.join(', ')}`);
      assert.ok(
        sizes.every((s) => s > 0),
        'more units than shards: nobody idles',
      );
    });
  }

  it('a collection named again after a folder that holds it runs once, unremarked, in either order', () => {
    for (const inputs of [
      ['suite', 'suite/lanes'],
      ['suite/lanes', 'suite'],
    ]) {
      const again = loadRun(context, inputs, { baseDir: tmp });
      assert.deepEqual([again.problems, again.warnings], [[], []], inputs.join(' '));
      assert.deepEqual(new Set(again.tests.map((t) => t.id)), new Set(plan.tests.map((t) => t.id)));
      assert.equal(again.tests.length, plan.tests.length);
    }
  });

  it('deals the same on every machine: again, and in a checkout elsewhere', () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-shard-elsewhere-'));
    try {
      suite(other);
      const there = loadRun(context, ['suite'], { baseDir: other });
      for (const i of [1, 2, 3]) {
        const here = shardPlan(plan, { index: i, total: 3 }).plan.tests.map(rel);
        assert.deepEqual(shardPlan(plan, { index: i, total: 3 }).plan.tests.map(rel), here);
        assert.deepEqual(
          shardPlan(there, { index: i, total: 3 }).plan.tests.map(
            (t) => relativeName(other, t.id.replace(/#.*$/, '')) + (t.id.includes('#') ? t.id.slice(t.id.indexOf('#')) : ''),
          ),
          here,
        );
      }
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('balances by the durations of an earlier report when given', () => {
    // The 15 loose files are slow; everything else is quick: each of 3 shards gets 5 of them.
    const duration = (t: PlannedTest) => (t.file.includes('/loose/') ? 10_000 : 10);
    const shards = [1, 2, 3].map((i) => shardPlan(plan, { index: i, total: 3 }, { duration }).plan.tests);
    assert.deepEqual(
      shards.map((s) => s.filter((t) => t.file.includes('/loose/')).length),
      [5, 5, 5],
    );
    // Tests the report does not know weigh its average.
    const some = (t: PlannedTest) => (t.file.includes('/loose/') ? 10_000 : undefined);
    assert.equal(
      [1, 2, 3].map((i) => shardPlan(plan, { index: i, total: 3 }, { duration: some }).plan.tests.length).reduce((a, b) => a + b),
      109,
    );
  });

  it('deals largest first to the least loaded shard, ties to the lowest', () => {
    assert.deepEqual(dealUnits([1, 1, 1, 1], 2), [0, 1, 0, 1]);
    assert.deepEqual(dealUnits([5, 1, 1, 1, 1, 1], 2), [0, 1, 1, 1, 1, 1]);
    assert.deepEqual(dealUnits([1, 2, 3], 5), [2, 1, 0]);
  });

  it('reads i/n and refuses what is not', () => {
    assert.deepEqual(parseShard('2/4'), { index: 2, total: 4 });
    for (const bad of ['0/3', '4/3', '1/0', '2', 'a/b', '1/2/3']) assert.equal(typeof parseShard(bad), 'string', bad);
  });
});
