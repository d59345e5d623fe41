/**
 * The bench's verdict (bench/lib/verdict.ts): a target inside a row's spread is AT THE LINE,
 * never a PASS; `--repeat` gives each line the range of its runs (bench/lib/format.ts).
 */
import { strict as assert } from 'node:assert';
import { combineRepeats, textTable, type BenchReport } from '../../bench/lib/format';
import { atLeast, atMost, type RowResult } from '../../bench/lib/row';
import { pairRatios, spreadOf, verdictOf } from '../../bench/lib/verdict';

const row = (ratio: number, extra: Partial<RowResult> = {}): RowResult => ({
  id: 'r.c1',
  measured: 'm',
  a: { label: 'ours', value: ratio * 100, unit: 'req/s' },
  b: { label: 'raw', value: 100, unit: 'req/s' },
  ratio,
  ratioText: 'ours / raw',
  target: atLeast(0.9),
  runs: 10,
  ...extra,
});

describe('bench verdicts that hold', () => {
  it('passes or fails only when the whole spread is on one side of the target', () => {
    const t = atLeast(0.9);
    assert.equal(verdictOf(t, 0.95, { low: 0.92, high: 0.97, of: 'repeats' }), 'PASS');
    assert.equal(verdictOf(t, 0.85, { low: 0.8, high: 0.88, of: 'repeats' }), 'FAIL');
    assert.equal(verdictOf(t, 0.91, { low: 0.87, high: 0.94, of: 'repeats' }), 'AT THE LINE');
    assert.equal(verdictOf(t, 0.89, { low: 0.87, high: 0.94, of: 'repeats' }), 'AT THE LINE');
    const most = atMost(1.1);
    assert.equal(verdictOf(most, 1.05, { low: 1.0, high: 1.08, of: 'pairs' }), 'PASS');
    assert.equal(verdictOf(most, 1.09, { low: 1.02, high: 1.15, of: 'pairs' }), 'AT THE LINE');
    assert.equal(verdictOf(undefined, 3, undefined), 'info');
    assert.equal(verdictOf(t, 0.95, undefined), 'PASS');
  });

  it("turns a row's samples the way its ratio is, and takes the middle half of the pairs as one run's spread", () => {
    const a = [90, 92, 94, 96, 98, 100, 102, 104];
    const b = [100, 100, 100, 100, 100, 100, 100, 100];
    const r = row(0.97, { samples: { a, b } });
    assert.deepEqual(pairRatios(r), [0.9, 0.92, 0.94, 0.96, 0.98, 1, 1.02, 1.04]);
    const inverse = row(100 / 97, { samples: { a, b } });
    assert.ok(pairRatios(inverse)!.every((x, i) => Math.abs(x - 100 / a[i]) < 1e-12));
    const s = spreadOf(r)!;
    assert.equal(s.of, 'pairs');
    assert.ok(Math.abs(s.low - 0.935) < 1e-9 && Math.abs(s.high - 1.005) < 1e-9, JSON.stringify(s));
    assert.equal(spreadOf(row(0.97)), undefined, 'no samples, no spread');
  });

  it('combines the runs of the table into one line per row with the range of its ratios', () => {
    const runs = [[row(0.88)], [row(0.93)], [row(0.91)]];
    const [line] = combineRepeats(runs);
    assert.equal(line.ratio, 0.91);
    assert.deepEqual(line.repeats, [0.88, 0.93, 0.91]);
    assert.equal(line.runs, 30);
    const report: BenchReport = {
      startedAt: '2026-11-29T00:00:00Z',
      durationS: 1,
      machine: { node: 'v20', cpu: 'x', cores: 2, platform: 'linux' },
      runs: 10,
      repeat: 3,
      results: [line],
      errors: [],
    };
    const text = textTable(report);
    assert.match(text, /^AT THE LINE\s+r\.c1$/m);
    assert.match(text, /0\.910× \(0\.880–0\.930 over 3 runs\)/);
    assert.match(text, /0 below target, 1 at the line/);
    const clear = combineRepeats([[row(0.95)], [row(0.97)], [row(0.92)]]);
    assert.match(textTable({ ...report, results: clear }), /^PASS\s+r\.c1$/m);
  });
});
