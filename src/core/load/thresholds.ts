/**
 * `--threshold`: a limit a load run must keep, per operation or for the whole run
 * (docs/load.md#thresholds). `GetRateQuote:p95<800ms`, `*:p99<1s`, `GetRateQuote:errors<1%`,
 * `*:rate>100/s`. Read once before the run (a mistake is a usage error, nothing sent) and
 * judged against the report at its end; a crossed threshold fails the run and is named with
 * what was measured.
 */
import { percentileMs } from './histogram';
import { ALL_OPERATIONS, histogramOf, type LoadReport, type OperationLoad, type ThresholdOutcome } from './report';

export type ThresholdMetric =
  | { readonly kind: 'latency'; readonly percentile: number; readonly label: string }
  | { readonly kind: 'latency'; readonly stat: 'min' | 'max' | 'mean'; readonly label: string }
  | { readonly kind: 'errors'; readonly label: 'errors' }
  | { readonly kind: 'rate'; readonly label: 'rate' };

export type Comparison = '<' | '<=' | '>' | '>=';

export interface Threshold {
  /** As given. */
  readonly text: string;
  /** An operation's name, or `*` for the whole run. */
  readonly operation: string;
  readonly metric: ThresholdMetric;
  readonly comparison: Comparison;
  /** Milliseconds, per second, a count of errors, or a fraction (`percent`). */
  readonly limit: number;
  /** `errors<1%`: the limit is a share of the operation's exchanges. */
  readonly percent?: boolean;
}

const SHAPE = /^(.+):(p\d+(?:\.\d+)?|min|max|mean|avg|errors|rate)(<=|>=|<|>)(\d+(?:\.\d+)?)(ms|s|%|\/s)?$/;

/** A threshold, or why it is not one (a usage error). */
export function parseThreshold(text: string): Threshold | string {
  const m = SHAPE.exec(text.replace(/\s+/g, ''));
  if (!m)
    return `--threshold "${text}" is not OPERATION:METRIC<LIMIT (METRIC: p50, p90, p95, p99, p99.9, min, max, mean, errors, rate; e.g. GetRateQuote:p95<800ms, *:p99<1s, GetRateQuote:errors<1%, *:rate>100/s)`;
  const [, operation, name, comparison, number, unit] = m;
  const value = Number(number);
  let metric: ThresholdMetric;
  let limit = value;
  let percent: boolean | undefined;
  if (name === 'errors') {
    metric = { kind: 'errors', label: 'errors' };
    if (unit === '%') {
      if (value > 100) return `--threshold "${text}": a share of errors is at most 100%`;
      percent = true;
      limit = value / 100;
    } else if (unit !== undefined) return `--threshold "${text}": errors are a count or a share (errors<1%), not ${unit}`;
  } else if (name === 'rate') {
    if (unit !== undefined && unit !== '/s') return `--threshold "${text}": a rate is per second (rate>100/s)`;
    metric = { kind: 'rate', label: 'rate' };
  } else {
    if (unit === '%' || unit === '/s') return `--threshold "${text}": a latency is in ms or s (p95<800ms)`;
    if (unit === 's') limit = value * 1000;
    if (name.startsWith('p')) {
      const percentile = Number(name.slice(1));
      if (!(percentile > 0 && percentile <= 100)) return `--threshold "${text}": a percentile is above 0 and at most 100`;
      metric = { kind: 'latency', percentile, label: name };
    } else metric = { kind: 'latency', stat: name === 'avg' ? 'mean' : (name as 'min' | 'max' | 'mean'), label: name };
  }
  return { text, operation, metric, comparison: comparison as Comparison, limit, ...(percent ? { percent } : {}) };
}

function holds(value: number, comparison: Comparison, limit: number): boolean {
  switch (comparison) {
    case '<':
      return value < limit;
    case '<=':
      return value <= limit;
    case '>':
      return value > limit;
    case '>=':
      return value >= limit;
  }
}

const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;

function measure(t: Threshold, row: OperationLoad): { value: number; said: string } {
  const m = t.metric;
  if (m.kind === 'errors') {
    if (t.percent) {
      const share = row.count ? row.errors / row.count : 0;
      return { value: share, said: `${round(share * 100, 2)}% (${row.errors} of ${row.count})` };
    }
    return { value: row.errors, said: `${row.errors} errors` };
  }
  if (m.kind === 'rate') return { value: row.ratePerSecond, said: `${round(row.ratePerSecond)}/s` };
  const value =
    'percentile' in m
      ? percentileMs(histogramOf(row), m.percentile)
      : m.stat === 'min'
        ? row.latency.minMs
        : m.stat === 'max'
          ? row.latency.maxMs
          : row.latency.meanMs;
  return { value, said: `${round(value)} ms` };
}

/**
 * Each threshold against the report: held or crossed, with what was measured. An operation the
 * run never sent crosses every threshold on it: nothing measured is not a pass.
 */
export function judgeThresholds(thresholds: readonly Threshold[], report: Pick<LoadReport, 'overall' | 'operations'>): ThresholdOutcome[] {
  return thresholds.map((t) => {
    const row = t.operation === ALL_OPERATIONS ? report.overall : report.operations.find((o) => o.name === t.operation);
    if (!row || !row.count)
      return { threshold: t.text, held: false, measured: `no exchanges of ${t.operation === ALL_OPERATIONS ? 'any operation' : t.operation}` };
    const { value, said } = measure(t, row);
    return { threshold: t.text, held: holds(value, t.comparison, t.limit), measured: said };
  });
}
