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
  type LoadIncompleteReason,
  type LoadInterval,
  type LoadReport,
  type LoadRunFingerprint,
  type LoadShard,
  type OperationLoad,
} from './report';
import { encodeHistogram } from './histogram';
import { judgeThresholds, parseThreshold, type Threshold } from './thresholds';

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
  // A merged report stands for the shards it holds, so merging it again with the rest makes the whole.
  const shards = reports.flatMap((r) => r.shards ?? (r.shard ? [r.shard] : []));
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
    ...(shards.length ? { shards: [...shards].sort((a, b) => a.total - b.total || a.index - b.index) } : {}),
  };
}

export interface LoadMergeInput {
  /** As the user named it, for messages. */
  readonly file: string;
  readonly report: LoadReport;
}

const shardName = (s: LoadShard) => `${s.index}/${s.total}`;

/** Sorted keys all the way down: the same fingerprint written in another order is the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** What most reports hold, the earliest of a tie. */
function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  for (const [v, n] of counts) if (best === undefined || n > counts.get(best)!) best = v;
  return best;
}

/** What differs between a report's run and the common one, said part by part. */
function differences(mine: LoadRunFingerprint, theirs: LoadRunFingerprint): string[] {
  const said: string[] = [];
  if (mine.commit !== theirs.commit)
    said.push(`commit ${mine.commit?.slice(0, 12) ?? 'not known'} here, ${theirs.commit?.slice(0, 12) ?? 'not known'} in the others`);
  if (mine.catalog !== theirs.catalog) said.push(`operation catalog ${mine.catalog ?? 'not known'} here, ${theirs.catalog ?? 'not known'} in the others`);
  if (canonical(mine.files) !== canonical(theirs.files) || mine.filesHash !== theirs.filesHash)
    said.push(`files ${mine.filesHash ?? 'not known'} here, ${theirs.filesHash ?? 'not known'} in the others`);
  const a = (mine.options ?? {}) as Record<string, unknown>;
  const b = (theirs.options ?? {}) as Record<string, unknown>;
  for (const k of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort())
    if (canonical(a[k]) !== canonical(b[k]))
      said.push(`${k} ${a[k] === undefined ? 'not given' : canonical(a[k])} here, ${b[k] === undefined ? 'not given' : canonical(b[k])} in the others`);
  return said;
}

/**
 * Why shard reports do not make one whole load, as `carrier report` merges run shards
 * (runner/merge.ts shardReasons, compareRuns): a shard of the split missing or given twice,
 * shards of different splits, a report that is no shard among shards, and a report whose
 * whole load (commit, catalog, files, options) differs from what most of them ran.
 */
export function loadIncompleteReasons(inputs: readonly LoadMergeInput[]): LoadIncompleteReason[] {
  const reasons: LoadIncompleteReason[] = [];
  const held = inputs.flatMap(({ file, report }) => (report.shards ?? (report.shard ? [report.shard] : [])).map((shard) => ({ file, shard })));
  const totals = [...new Set(held.map((h) => h.shard.total))];
  if (totals.length > 1)
    reasons.push({
      kind: 'split-differs',
      message: `the reports are shards of different splits (${totals.map((t) => `/${t}`).join(', ')}); merge the shards of one load`,
    });
  else if (totals.length === 1) {
    const total = totals[0];
    for (const { file, report } of inputs)
      if (!report.shard && !report.shards?.length)
        reasons.push({
          kind: 'not-a-shard',
          file,
          message: `${file} is not a shard of the load (it was run without --shard), yet it is merged with shards of /${total}`,
        });
    for (let index = 1; index <= total; index++) {
      const these = held.filter((h) => h.shard.index === index);
      const name = shardName({ index, total });
      if (!these.length)
        reasons.push({ kind: 'missing-shard', shard: index, total, message: `shard ${name} missing: its users' exchanges are not in this report` });
      else if (these.length > 1)
        reasons.push({
          kind: 'duplicate-shard',
          shard: index,
          total,
          message: `shard ${name} is in ${these.length} reports (${these.map((h) => h.file).join(', ')}); its exchanges would count ${these.length} times`,
        });
    }
  }
  const keyed = inputs.map((i) => (i.report.run ? canonical(i.report.run) : undefined));
  const common = mostCommon(keyed.filter((k): k is string => k !== undefined));
  if (common !== undefined) {
    const commonRun = inputs[keyed.indexOf(common)].report.run!;
    inputs.forEach(({ file, report }, i) => {
      if (keyed[i] === undefined || keyed[i] === common) return;
      const label = `${file}${report.shard ? ` (shard ${shardName(report.shard)})` : ''}`;
      reasons.push({
        kind: 'run-differs',
        file,
        ...(report.shard ? { shard: report.shard.index, total: report.shard.total } : {}),
        message: `${label} is of another load: ${differences(report.run!, commonRun).join('; ')}`,
      });
    });
  }
  // A merged report read back keeps what it said of other loads; its shards are judged again above.
  for (const { report } of inputs) for (const r of report.incompleteReasons ?? []) if (r.kind === 'run-differs' || r.kind === 'not-a-shard') reasons.push(r);
  const seen = new Set<string>();
  return reasons.filter((r) => {
    const key = canonical(r);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The thresholds a load's fingerprint records, read again; those that do not read are left out. */
export function recordedThresholds(run: LoadRunFingerprint | undefined): Threshold[] {
  const given = run?.options?.thresholds;
  if (!Array.isArray(given)) return [];
  return given
    .filter((t): t is string => typeof t === 'string')
    .flatMap((t) => {
      const parsed = parseThreshold(t);
      return typeof parsed === 'string' ? [] : [parsed];
    });
}

/**
 * Shards of one load (or any load reports) merged as one: mergeLoadReports, then the whole
 * load's fingerprint and shard kept, the thresholds it was run with judged again on the merged
 * figures, and why it is not one whole load when it is not.
 */
export function mergeLoadShards(inputs: readonly LoadMergeInput[]): LoadReport {
  const merged = mergeLoadReports(inputs.map((i) => i.report));
  const reasons = loadIncompleteReasons(inputs);
  const keyed = inputs.map((i) => (i.report.run ? canonical(i.report.run) : undefined));
  const common = mostCommon(keyed.filter((k): k is string => k !== undefined));
  const run = common === undefined ? undefined : inputs[keyed.indexOf(common)].report.run;
  const thresholds = recordedThresholds(run);
  return {
    ...merged,
    ...(run ? { run } : {}),
    ...(thresholds.length ? { thresholds: judgeThresholds(thresholds, merged) } : {}),
    ...(reasons.length ? { incomplete: true as const, incompleteReasons: reasons } : {}),
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
