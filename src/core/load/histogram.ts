/**
 * Latency histograms for `carrier load` (docs/load.md): HdrHistogram (the hdr-histogram-js
 * package) in microseconds, 3 significant digits, growing as slower replies come. A run keeps
 * counts per bucket, never the samples, so its memory does not grow with its length; a histogram
 * leaves the run as HdrHistogram's compressed base64 encoding, which decodes to the very same
 * counts, so reports of several machines add up exactly (merge.ts).
 */
import type { Histogram } from 'hdr-histogram-js';

type Hdr = typeof import('hdr-histogram-js');
let hdr: Hdr | undefined;
// Required on first use, as the runner does with its heavier packages (runner/pattern.ts): only a load run needs it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const lib = (): Hdr => (hdr ??= require('hdr-histogram-js') as Hdr);

export type { Histogram } from 'hdr-histogram-js';

/** The histogram every latency goes in: microseconds, from 1 µs up, 3 significant digits. */
export function newHistogram(): Histogram {
  // Plain JavaScript arrays, not the package's WebAssembly: no memory outside the heap to free.
  return lib().build({ bitBucketSize: 32, autoResize: true, lowestDiscernibleValue: 1, numberOfSignificantValueDigits: 3, useWebAssembly: false });
}

/** A latency in milliseconds, as the histogram counts it: whole microseconds, at least 1. */
export function recordMs(h: Histogram, ms: number): void {
  h.recordValue(Math.max(1, Math.round(ms * 1000)));
}

/** HdrHistogram's compressed base64 encoding ("HISTFAAA…"): what reports keep. */
export function encodeHistogram(h: Histogram): string {
  return lib().encodeIntoCompressedBase64(h);
}

export function decodeHistogram(encoded: string): Histogram {
  const h = lib().decodeFromCompressedBase64(encoded, 32, false);
  h.autoResize = true;
  return h;
}

/** The percentiles a report and the progress line show, in milliseconds. */
export interface LatencySummary {
  readonly minMs: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly meanMs: number;
}

const ms = (us: number) => Math.round(us) / 1000;

export function summarize(h: Histogram): LatencySummary {
  if (!h.totalCount) return { minMs: 0, p50Ms: 0, p90Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0, meanMs: 0 };
  return {
    minMs: ms(h.minNonZeroValue),
    p50Ms: ms(h.getValueAtPercentile(50)),
    p90Ms: ms(h.getValueAtPercentile(90)),
    p95Ms: ms(h.getValueAtPercentile(95)),
    p99Ms: ms(h.getValueAtPercentile(99)),
    // As the percentiles are given (the highest value of their bucket), so p99 is never above the max.
    maxMs: ms(h.getValueAtPercentile(100)),
    meanMs: ms(h.mean),
  };
}

/** The value at a percentile (0–100), in milliseconds; 0 for an empty histogram. */
export function percentileMs(h: Histogram, percentile: number): number {
  return h.totalCount ? ms(h.getValueAtPercentile(percentile)) : 0;
}
