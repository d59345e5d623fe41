/** Medians, and the one way every row turns paired samples into a ratio. */

export function median(values: readonly number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The ratio of paired samples: the median of the per-run ratios rather than the ratio of the two
 * medians. Each pair was measured back to back, so whatever else the machine was doing at that
 * moment weighs on both sides of that pair alike and cancels in its ratio.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / b[i]));
}
