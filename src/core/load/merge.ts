/**
 * Merges load reports — shards of one load run on several machines, or runs side by side — into
 * one, exactly: histograms are added count by count (HdrHistogram's add), so the merged
 * percentiles are those of one histogram over all the samples. Pure: reports in, a report out;
 * the shards and `carrier report` of later work build on it (docs/load.md#merging-reports).
 */
import { newHistogram, type Histogram } from './histogram';
import {
  ALL_OPERATIONS,
  histogramOf,
  LOAD_REPORT_FORMAT,
  LOAD_REPORT_VERSION,
  operationLoad,
  type LoadInterval,
  type LoadReport,
  type OperationLoad,
} from './report';
import { encodeHistogram } from './histogram';

interface Sum {
  readonly histogram: Histogram;
  count: number;
  errors: number;
  skipped: number;
  readonly classes: Record<string, number>;
}

function add(into: Sum, row: OperationLoad): void {
  into.histogram.add(histogramOf(row));
  into.count += row.count;
  into.errors += row.errors;
  into.skipped += row.skipped;
  for (const [k, v] of Object.entries(row.errorClasses)) into.classes[k] = (into.classes[k] ?? 0) + v;
}

const sum = (): Sum => ({ histogram: newHistogram(), count: 0, errors: 0, skipped: 0, classes: {} });

/**
 * One report of several. Shards run at the same time, so the merged run lasts as long as the
 * longest and its rate is the sum; intervals are aligned on the widest interval and added.
 * Thresholds are not carried over: judge them again against the merged report.
 */
export function mergeLoadReports(reports: readonly LoadReport[]): LoadReport {
  if (!reports.length) throw new Error('no load reports to merge');
  const durationMs = Math.max(...reports.map((r) => r.durationMs));
  const seconds = durationMs / 1000;
  const overall = sum();
  const byName = new Map<string, Sum>();
  for (const r of reports) {
    add(overall, r.overall);
    for (const op of r.operations) {
      let s = byName.get(op.name);
      if (!s) byName.set(op.name, (s = sum()));
      add(s, op);
    }
  }
  const intervalMs = Math.max(...reports.map((r) => r.intervalMs));
  const slots = new Map<number, { histogram: Histogram; count: number; errors: number }>();
  for (const r of reports)
    for (const i of r.timeline) {
      const at = Math.floor(i.atMs / intervalMs) * intervalMs;
      let slot = slots.get(at);
      if (!slot) slots.set(at, (slot = { histogram: newHistogram(), count: 0, errors: 0 }));
      slot.histogram.add(histogramOf(i));
      slot.count += i.count;
      slot.errors += i.errors;
    }
  const timeline: LoadInterval[] = [...slots]
    .sort(([a], [b]) => a - b)
    .map(([atMs, s]) => ({ atMs, count: s.count, errors: s.errors, histogram: encodeHistogram(s.histogram) }));
  const row = (name: string, s: Sum) => operationLoad(name, s.histogram, s.count, s.errors, s.classes, s.skipped, seconds);
  const rates = reports.map((r) => r.ratePerSecond).filter((r): r is number => r !== undefined);
  const startedAt = reports.map((r) => r.startedAt).sort()[0];
  const cancelled = reports.some((r) => r.cancelled);
  const abandoned = reports.reduce((n, r) => n + (r.abandoned ?? 0), 0);
  return {
    format: LOAD_REPORT_FORMAT,
    version: LOAD_REPORT_VERSION,
    startedAt,
    durationMs,
    model: reports.every((r) => r.model === 'open') ? 'open' : 'closed',
    vus: reports.reduce((n, r) => n + r.vus, 0),
    ...(rates.length ? { ratePerSecond: rates.reduce((a, b) => a + b, 0) } : {}),
    rampMs: Math.max(...reports.map((r) => r.rampMs)),
    iterations: reports.reduce((n, r) => n + r.iterations, 0),
    environments: [...new Set(reports.flatMap((r) => r.environments))].sort(),
    ...(cancelled ? { cancelled } : {}),
    ...(abandoned ? { abandoned } : {}),
    intervalMs,
    overall: row(ALL_OPERATIONS, overall),
    operations: [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, s]) => row(name, s)),
    timeline,
    mergedFrom: reports.reduce((n, r) => n + (r.mergedFrom ?? 1), 0),
  };
}

/** A load-report.json read back: the report, or why it is not one. */
export function parseLoadReport(text: string): LoadReport | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `not JSON: ${(e as Error).message}` };
  }
  const r = value as Partial<LoadReport> | null;
  if (!r || typeof r !== 'object' || r.format !== LOAD_REPORT_FORMAT) return { problem: `not a load report (its "format" is not "${LOAD_REPORT_FORMAT}")` };
  if (r.version !== LOAD_REPORT_VERSION) return { problem: `a load report of version ${String(r.version)}; this carrier reads version ${LOAD_REPORT_VERSION}` };
  if (!r.overall || !Array.isArray(r.operations) || !Array.isArray(r.timeline)) return { problem: 'a load report without its figures' };
  return r as LoadReport;
}
