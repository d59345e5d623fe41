/**
 * A row's verdict that holds from one run of the table to the next. A ratio is a median of
 * interleaved pairs; its spread is how far the pairs (within one run) or the runs of the table
 * (`--repeat`) range around it. A target inside that spread is not a result either way: the row is
 * "AT THE LINE", and only a spread wholly on the right side of the target is a PASS.
 */
import { median } from './stats';
import type { RowResult, Target } from './row';

export type Verdict = 'PASS' | 'AT THE LINE' | 'FAIL' | 'info';

/** The range a ratio is known within: the runs of the table, else the middle half of one run's pairs. */
export interface Spread {
  readonly low: number;
  readonly high: number;
  /** What the range is of, for the table. */
  readonly of: 'repeats' | 'pairs';
}

function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/**
 * The per-pair ratios of a row's samples, turned the way its ratio is (a/b or b/a, whichever has
 * the row's median): rows state their ratio either way round.
 */
export function pairRatios(r: Pick<RowResult, 'ratio' | 'samples'>): number[] | undefined {
  const s = r.samples;
  if (!s || s.a.length !== s.b.length || s.a.length < 4) return undefined;
  const ab = s.a.map((x, i) => x / s.b[i]);
  const ba = s.b.map((x, i) => x / s.a[i]);
  return Math.abs(median(ab) - r.ratio) <= Math.abs(median(ba) - r.ratio) ? ab : ba;
}

/** The spread of one result: the range over repeats when there were several, else the inter-quartile range of its pairs. */
export function spreadOf(r: Pick<RowResult, 'ratio' | 'samples'>, repeats?: readonly number[]): Spread | undefined {
  if (repeats && repeats.length > 1) return { low: Math.min(...repeats), high: Math.max(...repeats), of: 'repeats' };
  const ratios = pairRatios(r);
  if (!ratios) return undefined;
  const sorted = [...ratios].sort((x, y) => x - y);
  return { low: quantile(sorted, 0.25), high: quantile(sorted, 0.75), of: 'pairs' };
}

const meets = (target: Target, value: number): boolean => (target.kind === 'min' ? value >= target.value : value <= target.value);

/** PASS or FAIL when the whole spread is on one side of the target; AT THE LINE when the target is inside it. */
export function verdictOf(target: Target | undefined, ratio: number, spread?: Spread): Verdict {
  if (!target) return 'info';
  if (!spread) return meets(target, ratio) ? 'PASS' : 'FAIL';
  const low = meets(target, spread.low);
  const high = meets(target, spread.high);
  if (low && high) return 'PASS';
  if (!low && !high) return 'FAIL';
  return 'AT THE LINE';
}
