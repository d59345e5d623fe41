/**
 * The pure parts of carrier load (src/core/load/): merging reports exactly (the merged
 * percentiles are those of one histogram over the pooled samples), thresholds read and judged,
 * and the arrival times of the open model.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  arrivalAt,
  decodeHistogram,
  judgeThresholds,
  loadHtmlReport,
  LoadRecorder,
  LOAD_REPORT_FORMAT,
  LOAD_REPORT_VERSION,
  mergeLoadReports,
  newHistogram,
  parseLoadReport,
  parseThreshold,
  recordMs,
  summarize,
  type LoadReport,
  type Threshold,
} from '../../src/core';

/** A small deterministic generator: the same samples every run. */
function samples(seed: number, n: number, spread: number): number[] {
  let x = seed;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(1 + (x % spread) + (i % 97 === 0 ? spread * 20 : 0));
  }
  return out;
}

/** A report of one run whose exchanges took these latencies (ms), `errors` of them failed as `class`. */
function reportOf(latencies: Record<string, number[]>, errors = 0, errorClass = 'fault'): LoadReport {
  const recorder = new LoadRecorder(1000);
  let at = 0;
  for (const [name, values] of Object.entries(latencies)) values.forEach((v, i) => recorder.record(name, v, (at += 7), i < errors ? errorClass : undefined));
  return {
    format: LOAD_REPORT_FORMAT,
    version: LOAD_REPORT_VERSION,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 10_000,
    model: 'closed',
    vus: 5,
    rampMs: 0,
    iterations: 1,
    environments: ['sandbox'],
    ...recorder.finish(10_000),
  };
}

describe('carrier load: merging reports and thresholds', () => {
  it('two reports merge exactly: counts, errors by class, and percentiles of one histogram over all the samples', () => {
    const a = { GetRateQuote: samples(1, 3000, 50), TraceShipment: samples(2, 500, 200) };
    const b = { GetRateQuote: samples(3, 2000, 400), GetTerminals: samples(4, 100, 10) };
    const merged = mergeLoadReports([reportOf(a, 3, 'fault'), reportOf(b, 5, 'transport-error')]);

    const pooled = newHistogram();
    for (const v of [...a.GetRateQuote, ...b.GetRateQuote]) recordMs(pooled, v);
    const quote = merged.operations.find((o) => o.name === 'GetRateQuote')!;
    assert.equal(quote.count, 5000);
    assert.deepEqual(quote.latency, summarize(pooled));
    assert.deepEqual(quote.errorClasses, { fault: 3, 'transport-error': 5 });
    for (const p of [50, 90, 95, 99, 99.9, 100]) assert.equal(decodeHistogram(quote.histogram).getValueAtPercentile(p), pooled.getValueAtPercentile(p));

    const all = newHistogram();
    for (const v of [...Object.values(a), ...Object.values(b)].flat()) recordMs(all, v);
    assert.equal(merged.overall.count, 5600);
    assert.equal(merged.overall.errors, 3 + 3 + 5 + 5);
    assert.deepEqual(merged.overall.latency, summarize(all));
    assert.deepEqual(
      merged.operations.map((o) => [o.name, o.count]),
      [
        ['GetRateQuote', 5000],
        ['GetTerminals', 100],
        ['TraceShipment', 500],
      ],
    );
    // The timelines add up interval by interval.
    assert.equal(
      merged.timeline.reduce((n, i) => n + i.count, 0),
      5600,
    );
    assert.equal(merged.mergedFrom, 2);
    assert.equal(merged.vus, 10);
  });

  it('merging is associative: (a+b)+c and a+(b+c) give the same report', () => {
    const [a, b, c] = [1, 2, 3].map((s) => reportOf({ GetRateQuote: samples(s, 700, 30 * s) }, s));
    const left = mergeLoadReports([mergeLoadReports([a, b]), c]);
    const right = mergeLoadReports([a, mergeLoadReports([b, c])]);
    assert.deepEqual(left.overall.latency, right.overall.latency);
    // The same counts in every bucket; the encodings may differ in how large an array held them.
    const figures = (r: LoadReport) =>
      r.operations.map(({ histogram, ...rest }) => ({ ...rest, at: [50, 90, 99, 100].map((p) => decodeHistogram(histogram).getValueAtPercentile(p)) }));
    assert.deepEqual(figures(left), figures(right));
    assert.equal(left.mergedFrom, 3);
  });

  it('a report read back is the report; other JSON is said not to be one', () => {
    const r = reportOf({ GetRateQuote: samples(5, 10, 5) });
    assert.deepEqual(parseLoadReport(JSON.stringify(r)), r);
    assert.match((parseLoadReport('{"format":"carrier-run-report"}') as { problem: string }).problem, /not a load report/);
    assert.match((parseLoadReport('nope') as { problem: string }).problem, /not JSON/);
  });

  it('reads thresholds, and refuses what is not one', () => {
    const ok = (t: string) => parseThreshold(t) as Threshold;
    assert.deepEqual(ok('GetRateQuote:p95<800ms'), {
      text: 'GetRateQuote:p95<800ms',
      operation: 'GetRateQuote',
      metric: { kind: 'latency', percentile: 95, label: 'p95' },
      comparison: '<',
      limit: 800,
    });
    assert.equal(ok('*:p99<1s').limit, 1000);
    assert.equal(ok('*:p99.9<=1.5s').limit, 1500);
    assert.deepEqual([ok('Op:errors<1%').limit, ok('Op:errors<1%').percent], [0.01, true]);
    assert.equal(ok('Op:rate>100/s').metric.kind, 'rate');
    assert.equal(ok('Op:p95<800').limit, 800);
    for (const bad of ['p95<800ms', 'Op:p95<800%', 'Op:errors<5ms', 'Op:rate>5ms', 'Op:p0<1s', 'Op:errors<101%', 'Op:median<1s', 'Op:p95=1s'])
      assert.equal(typeof parseThreshold(bad), 'string', bad);
  });

  it('judges thresholds against a report: held, crossed with the measured value, and an operation never sent crosses', () => {
    const r = reportOf({ GetRateQuote: Array.from({ length: 100 }, (_, i) => (i < 90 ? 10 : 500)) }, 2, 'fault');
    const outcomes = judgeThresholds(
      ['GetRateQuote:p50<20ms', 'GetRateQuote:p95<100ms', '*:errors<1%', '*:errors<=2', 'GetRateQuote:rate>5/s', 'TraceShipment:p95<1s'].map(
        (t) => parseThreshold(t) as Threshold,
      ),
      r,
    );
    assert.deepEqual(
      outcomes.map((o) => o.held),
      [true, false, false, true, true, false],
    );
    assert.match(outcomes[1].measured, /^50\d(\.\d)? ms$/);
    assert.equal(outcomes[2].measured, '2% (2 of 100)');
    assert.equal(outcomes[4].measured, '10/s');
    assert.equal(outcomes[5].measured, 'no exchanges of TraceShipment');
  });

  it('open model: arrivals come evenly at the rate, and grow evenly over the ramp', () => {
    const perMs = 100 / 1000;
    assert.deepEqual(
      [0, 1, 2, 10].map((k) => arrivalAt(k, perMs, 0)),
      [0, 10, 20, 100],
    );
    // Over a 1 s ramp to 100/s, 50 arrivals come in the ramp, ever closer together, then every 10 ms.
    const ramp = Array.from({ length: 60 }, (_, k) => arrivalAt(k, perMs, 1000));
    for (let k = 1; k < 60; k++) assert.ok(ramp[k] > ramp[k - 1]);
    assert.ok(ramp[49] < 1000 && ramp[50] >= 1000);
    assert.ok(ramp[1] - ramp[0] > ramp[49] - ramp[48]);
    assert.equal(Math.round(ramp[55] - ramp[54]), 10);
  });

  it('the HTML report stands alone: inline SVG charts, no script, nothing loaded, its style allowed by hash', () => {
    const report = {
      ...reportOf({ GetRateQuote: samples(7, 400, 40), TraceShipment: samples(8, 100, 90) }, 4),
      thresholds: [{ threshold: '*:p99<1s', held: false, measured: '1873.9 ms' }],
    };
    const page = loadHtmlReport(report, { mask: (t) => t.replace(/TraceShipment/g, 'Trace••••') });
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page)![1];
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1];
    assert.ok(policy.includes(`style-src 'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`), policy);
    assert.match(policy, /script-src 'none'/);
    assert.match(policy, /^default-src 'none'/);
    assert.doesNotMatch(page, /<script|\bsrc=|href="http|url\(|@import/);
    // Latency over time (p50, p95, p99), and by percentile per operation and for all.
    assert.equal((page.match(/<svg class="chart"/g) ?? []).length, 3);
    assert.ok((page.match(/<polyline class="series/g) ?? []).length >= 6);
    assert.match(page, /✗ \*:p99&lt;1s: 1873\.9 ms/);
    // Masked before the policy was taken.
    assert.doesNotMatch(page, /TraceShipment/);
  });
});
