/**
 * `carrier report`: the JSON reports of several runs or shards read back and merged into one run
 * report, which every reporter (junit, json, html, cli) then writes as if one run had made it.
 *
 * Each test is kept once, by its id (the same test in two reports keeps the later report's
 * result, and the merge says so); tests go back to the order of the whole run (`position`, the
 * same on every shard), and the summary is counted again from the merged tests.
 *
 * A merge that is not one whole run says why (`incompleteReasons`, which every reporter shows and
 * report.json keeps for the next merge): shards that a set of shard reports lacks, tests missing
 * from a complete set, shards of different splits, and reports whose run (RunFingerprint: commit,
 * catalog, options) differs from the others'.
 */
import * as path from 'node:path';
import { JSON_REPORT_VERSION } from './reporters/json';
import type {
  SnapshotOutcome,
  UntilAttempts,
  ExchangeTranscript,
  Failure,
  FailureKind,
  IncompleteKind,
  IncompleteReason,
  MergedSource,
  PlannedCollection,
  PlannedTest,
  ReplySummary,
  RunFingerprint,
  RunOptionsFingerprint,
  RunReport,
  ShardInfo,
  SourceLocation,
  TestAttempt,
  TestResult,
  TestStatus,
} from './types';
import { isFlaky } from './types';

const SNAPSHOT_STATUSES = ['matched', 'written', 'updated', 'differs', 'missing'] as const;

export const JSON_REPORT_FORMAT = 'carrier-run-report';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

const STATUSES: readonly TestStatus[] = ['passed', 'failed', 'skipped'];
const INCOMPLETE_KINDS: readonly IncompleteKind[] = ['missing-shard', 'tests-missing', 'split-differs', 'commit-differs', 'catalog-differs', 'options-differs'];

/** A report's `run`, each part kept only when it reads; options as written, so an option this carrier does not know still compares. */
function fingerprintOf(v: unknown): RunFingerprint | undefined {
  if (!isObject(v)) return undefined;
  return {
    ...(str(v.commit) ? { commit: str(v.commit) } : {}),
    ...(str(v.catalog) ? { catalog: str(v.catalog) } : {}),
    ...(isObject(v.options) ? { options: v.options as RunOptionsFingerprint } : {}),
  };
}

/** A merged report's reasons, read back so that merging it again still says them. */
function reasonsOf(json: Json): IncompleteReason[] {
  const reasons: IncompleteReason[] = [];
  for (const r of Array.isArray(json.incompleteReasons) ? json.incompleteReasons : []) {
    if (!isObject(r) || !str(r.message)) continue;
    reasons.push({
      kind: INCOMPLETE_KINDS.includes(r.kind as IncompleteKind) ? (r.kind as IncompleteKind) : 'tests-missing',
      message: r.message as string,
      ...(num(r.shard) !== undefined ? { shard: num(r.shard) } : {}),
      ...(num(r.total) !== undefined ? { total: num(r.total) } : {}),
      ...(str(r.file) ? { file: str(r.file) } : {}),
      ...(num(r.tests) !== undefined ? { tests: num(r.tests) } : {}),
      ...(Array.isArray(r.options) ? { options: r.options.filter((o): o is string => typeof o === 'string') } : {}),
    });
  }
  if (json.incomplete === true && !reasons.length)
    reasons.push({ kind: 'tests-missing', message: 'a report merged here says it is incomplete, without saying why' });
  return reasons;
}

/** Reads one report.json; `base` is the folder its relative paths are relative to (where the run was started). */
export function parseRunReport(text: string, base: string): { report: RunReport } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { problem: `not JSON: ${(e as Error).message}` };
  }
  if (!isObject(json) || json.format !== JSON_REPORT_FORMAT)
    return { problem: `not a carrier run report (its "format" is not "${JSON_REPORT_FORMAT}"; carrier run --reporter json writes one)` };
  if (json.version !== JSON_REPORT_VERSION) return { problem: `report version ${String(json.version)}; this carrier reads version ${JSON_REPORT_VERSION}` };
  if (!Array.isArray(json.tests) || !isObject(json.summary)) return { problem: 'a carrier run report without "tests" and "summary"' };
  const abs = (p: string) => path.resolve(base, p);
  const absId = (id: string) => {
    const hash = id.indexOf('#');
    return hash < 0 ? abs(id) : abs(id.slice(0, hash)) + id.slice(hash);
  };
  const location = (v: unknown): SourceLocation | undefined => {
    if (!isObject(v) || !str(v.file)) return undefined;
    const line = num(v.line) ?? 1;
    const column = num(v.column) ?? 1;
    return { file: abs(v.file as string), line, column, endLine: num(v.endLine) ?? line, endColumn: num(v.endColumn) ?? column };
  };
  const failure = (v: unknown): Failure => {
    const f = isObject(v) ? v : {};
    const loc = location(f.location);
    return {
      kind: (str(f.kind) ?? 'file') as FailureKind,
      message: str(f.message) ?? '',
      ...(str(f.expected) !== undefined ? { expected: str(f.expected) } : {}),
      ...(str(f.actual) !== undefined ? { actual: str(f.actual) } : {}),
      ...(str(f.path) !== undefined ? { path: str(f.path) } : {}),
      ...(loc ? { location: loc } : {}),
    };
  };
  const collections = new Map<string, PlannedCollection>();
  const results: TestResult[] = [];
  // A report holds some rows of a data file (a shard's); the most it names stands for the count.
  const rowCounts = new Map<string, number>();
  for (const t of json.tests) {
    if (isObject(t) && isObject(t.row) && str(t.row.data) && num(t.row.index))
      rowCounts.set(t.row.data as string, Math.max(rowCounts.get(t.row.data as string) ?? 0, num(t.row.index)!));
  }
  for (const [i, t] of json.tests.entries()) {
    if (!isObject(t) || !str(t.id) || !str(t.name) || !str(t.file) || !STATUSES.includes(t.status as TestStatus))
      return { problem: `test ${i + 1} lacks an id, name, file or status` };
    const collectionName = str(t.collection) ?? '.';
    const configFiles = Array.isArray(t.collectionFiles) ? t.collectionFiles.filter((f): f is string => typeof f === 'string').map(abs) : [];
    const key = JSON.stringify([collectionName, t.collectionTitle, configFiles, t.keepTogether]);
    let collection = collections.get(key);
    if (!collection) {
      collection = {
        folder: abs(collectionName),
        name: collectionName,
        ...(str(t.collectionTitle) ? { title: str(t.collectionTitle) } : {}),
        configFiles,
        variables: {},
        ...(str(t.keepTogether) ? { together: abs(t.keepTogether as string) } : {}),
      };
      collections.set(key, collection);
    }
    const file = abs(t.file as string);
    const row = isObject(t.row) && str(t.row.data) && num(t.row.index) !== undefined ? t.row : undefined;
    const captured: Record<string, string> = {};
    if (isObject(t.captured)) for (const [k, v] of Object.entries(t.captured)) if (typeof v === 'string') captured[k] = v;
    const test: PlannedTest = {
      id: absId(t.id as string),
      file,
      name: t.name as string,
      collection,
      ...(str(t.binding) ? { binding: str(t.binding) as PlannedTest['binding'] } : {}),
      ...(str(t.operation) ? { operation: str(t.operation) } : {}),
      ...(str(t.version) ? { version: str(t.version) } : {}),
      location: { file, line: 1, column: 1, endLine: 1, endColumn: 1 },
      dependsOn: Array.isArray(t.dependsOn) ? t.dependsOn.filter((d): d is string => typeof d === 'string').map(absId) : [],
      captures: Object.keys(captured),
      ...(num(t.position) !== undefined ? { position: num(t.position) } : {}),
      ...(Array.isArray(t.tags) && t.tags.some((g) => typeof g === 'string') ? { tags: t.tags.filter((g): g is string => typeof g === 'string') } : {}),
      ...(row
        ? {
            row: {
              file: abs(row.data as string),
              index: num(row.index)!,
              count: rowCounts.get(row.data as string) ?? 0,
              ...(str(row.name) ? { name: str(row.name) } : {}),
              location: { file: abs(row.data as string), line: num(row.line) ?? 1, column: 1, endLine: num(row.line) ?? 1, endColumn: 1 },
              values: {},
              texts: {},
            },
          }
        : {}),
    };
    // A test run again keeps its failed attempts: a merge still counts it flaky, and shows them.
    const attempts: TestAttempt[] = (Array.isArray(t.attempts) ? t.attempts : []).filter(isObject).map((a) => ({
      failures: Array.isArray(a.failures) ? a.failures.map(failure) : [],
      ...(str(a.startedAt) ? { startedAt: str(a.startedAt) } : {}),
      durationMs: num(a.durationMs) ?? 0,
      ...(isObject(a.reply) ? { reply: a.reply as ReplySummary } : {}),
      ...(isObject(a.exchange) && isObject(a.exchange.request) ? { transcript: a.exchange as unknown as ExchangeTranscript } : {}),
    }));
    // A test that waited (retry.until) keeps its sends: a merged report shows them as the shard's did.
    const waited = isObject(t.waited) && Array.isArray(t.waited.each) ? t.waited : undefined;
    const untilAttempts: UntilAttempts | undefined = waited && {
      max: num(waited.max) ?? (waited.each as unknown[]).length,
      ...(num(waited.heldAt) !== undefined ? { heldAt: num(waited.heldAt) } : {}),
      ...(waited.cancelled === true ? { cancelled: true } : {}),
      each: (waited.each as unknown[]).filter(isObject).map((a, i) => ({
        number: num(a.number) ?? i + 1,
        id: str(a.id) ?? '',
        startedAt: str(a.startedAt) ?? '',
        ...(num(a.status) !== undefined ? { status: num(a.status) } : {}),
        verdict: str(a.verdict) ?? '',
        tone: (['ok', 'warn', 'error'] as const).find((v) => v === a.tone) ?? ('neutral' as const),
        ...(num(a.durationMs) !== undefined ? { durationMs: num(a.durationMs) } : {}),
        held: a.held === true,
        waitedMs: num(a.waitedMs) ?? 0,
        ...(str(a.note) ? { note: str(a.note) } : {}),
        ...(isObject(a.exchange) && isObject(a.exchange.request) ? { transcript: a.exchange as unknown as ExchangeTranscript } : {}),
      })),
    };
    const snapshotStatus = isObject(t.snapshot) ? SNAPSHOT_STATUSES.find((v) => v === (t.snapshot as Record<string, unknown>).status) : undefined;
    const snapshotFile = isObject(t.snapshot) ? str(t.snapshot.file) : undefined;
    const snapshot: SnapshotOutcome | undefined = snapshotStatus && snapshotFile ? { file: abs(snapshotFile), status: snapshotStatus } : undefined;
    results.push({
      test,
      status: t.status as TestStatus,
      ...(attempts.length ? { attempts } : {}),
      ...(untilAttempts ? { untilAttempts } : {}),
      ...(snapshot ? { snapshot } : {}),
      ...(str(t.notRetried) ? { notRetried: str(t.notRetried) } : {}),
      failures: Array.isArray(t.failures) ? t.failures.map(failure) : [],
      ...(Array.isArray(t.warnings) && t.warnings.length ? { warnings: t.warnings.map(failure) } : {}),
      ...(str(t.skipReason) ? { skipReason: str(t.skipReason) } : {}),
      ...(str(t.startedAt) ? { startedAt: str(t.startedAt) } : {}),
      durationMs: num(t.durationMs) ?? 0,
      captured,
      ...(str(t.environment) ? { environment: str(t.environment) } : {}),
      ...(isObject(t.reply) ? { reply: t.reply as ReplySummary } : {}),
      ...(isObject(t.exchange) && isObject(t.exchange.request) ? { transcript: t.exchange as unknown as ExchangeTranscript } : {}),
    });
  }
  const s = json.summary;
  const shardOf = (v: unknown): ShardInfo | undefined =>
    isObject(v) && num(v.index) && num(v.total) ? { index: num(v.index)!, total: num(v.total)!, tests: num(v.tests) ?? 0 } : undefined;
  const shard = shardOf(json.shard);
  // A merged report names the reports it was made from, so a merge of it sees their shards.
  const mergedFrom: MergedSource[] = (Array.isArray(json.mergedFrom) ? json.mergedFrom : []).filter(isObject).map((m) => {
    const from = shardOf(m.shard);
    return { file: str(m.file) ?? '', ...(from ? { shard: from } : {}), tests: num(m.tests) ?? 0 };
  });
  const run = fingerprintOf(json.run);
  const incompleteReasons = reasonsOf(json);
  return {
    report: {
      summary: summaryOf(results, str(s.startedAt) ?? new Date(0).toISOString(), num(s.durationMs) ?? 0),
      results,
      problems: Array.isArray(json.problems) ? json.problems.map(failure) : [],
      ...(shard ? { shard } : {}),
      ...(mergedFrom.length ? { mergedFrom } : {}),
      ...(run ? { run } : {}),
      ...(incompleteReasons.length ? { incompleteReasons } : {}),
    },
  };
}

function summaryOf(results: readonly TestResult[], startedAt: string, durationMs: number): RunReport['summary'] {
  const count = (s: TestStatus) => results.filter((r) => r.status === s).length;
  const flaky = results.filter(isFlaky).length;
  return {
    total: results.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    ...(flaky ? { flaky } : {}),
    durationMs,
    startedAt,
  };
}

export interface MergeInput {
  /** As the user named it, for messages and `mergedFrom`. */
  readonly file: string;
  readonly report: RunReport;
}

export interface MergeResult {
  readonly report: RunReport;
  /** Said, not fatal: a test in several reports. */
  readonly notes: readonly string[];
  /** Why the merged report is not one whole run, a line each (its incompleteReasons' messages): the merge fails. */
  readonly lost: readonly string[];
}

export function mergeReports(inputs: readonly MergeInput[]): MergeResult {
  const byId = new Map<string, { result: TestResult; from: string; seen: string[] }>();
  const order: string[] = [];
  for (const { file, report } of inputs) {
    for (const result of report.results) {
      const known = byId.get(result.test.id);
      if (known) {
        known.seen.push(file);
        known.result = result;
        known.from = file;
        continue;
      }
      byId.set(result.test.id, { result, from: file, seen: [file] });
      order.push(result.test.id);
    }
  }
  const notes: string[] = [];
  for (const { result, from, seen } of byId.values()) {
    if (seen.length > 1) notes.push(`${result.test.name} (${result.test.id}) is in ${seen.length} reports (${seen.join(', ')}); kept the result from ${from}`);
  }
  let results = order.map((id) => byId.get(id)!.result);
  // Back in the order of the whole run when every report says where its tests stood in it.
  if (results.every((r) => r.test.position !== undefined)) {
    results = results
      .map((r, i) => ({ r, i }))
      .sort((a, b) => a.r.test.position! - b.r.test.position! || a.i - b.i)
      .map(({ r }) => r);
  }

  const starts = inputs.map((i) => Date.parse(i.report.summary.startedAt)).filter(Number.isFinite);
  const ends = inputs.map((i) => Date.parse(i.report.summary.startedAt) + i.report.summary.durationMs).filter(Number.isFinite);
  const start = starts.length ? Math.min(...starts) : Date.now();
  const end = ends.length ? Math.max(...ends) : start;

  const problems: Failure[] = [];
  const seenProblems = new Set<string>();
  for (const { report } of inputs) {
    for (const p of report.problems) {
      const key = JSON.stringify(p);
      if (!seenProblems.has(key)) {
        seenProblems.add(key);
        problems.push(p);
      }
    }
  }

  // A merged report stands for the reports it was made from, so their shards count in the set.
  const mergedFrom: MergedSource[] = inputs.flatMap((i) =>
    i.report.mergedFrom?.length
      ? i.report.mergedFrom
      : [{ file: i.file, ...(i.report.shard ? { shard: i.report.shard } : {}), tests: i.report.results.length }],
  );
  const runs = compareRuns(inputs);
  // A merged report read back keeps what it said, so merging it again never makes it whole; what
  // it said of its shards is said again from them, with whatever shards join it now.
  const inherited = inputs.flatMap((i) => (i.report.incompleteReasons ?? []).filter((r) => !(i.report.mergedFrom?.length && SHARD_KINDS.includes(r.kind))));
  const reasons: IncompleteReason[] = [];
  const seenReasons = new Set<string>();
  for (const r of [...shardReasons(mergedFrom, results.length), ...runs.reasons, ...inherited]) {
    const key = JSON.stringify(r);
    if (!seenReasons.has(key)) {
      seenReasons.add(key);
      reasons.push(r);
    }
  }
  return {
    report: {
      summary: summaryOf(results, new Date(start).toISOString(), Math.max(0, end - start)),
      results,
      problems,
      mergedFrom,
      ...(runs.common ? { run: runs.common } : {}),
      ...(reasons.length ? { incompleteReasons: reasons } : {}),
    },
    notes,
    lost: reasons.map((r) => r.message),
  };
}

const shardName = (s: { readonly index: number; readonly total: number }) => `${s.index}/${s.total}`;

/** What shardReasons finds: said again from the shards whenever a merged report is merged again. */
const SHARD_KINDS: readonly IncompleteKind[] = ['missing-shard', 'tests-missing', 'split-differs'];

/** Shards a set lacks, tests a complete set lacks, and shards of different splits; `present` is how many tests the merge holds. */
function shardReasons(sources: readonly MergedSource[], present: number): IncompleteReason[] {
  const shards = sources.map((m) => m.shard).filter((s): s is ShardInfo => s !== undefined);
  const totals = [...new Set(shards.map((s) => s.total))];
  if (totals.length > 1)
    return [
      { kind: 'split-differs', message: `the reports are shards of different splits (${totals.map((t) => `/${t}`).join(', ')}); merge the shards of one run` },
    ];
  if (totals.length === 0) return [];
  const total = totals[0];
  const have = new Set(shards.map((s) => s.index));
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !have.has(i));
  // Every shard's report says how many tests the whole run had (0 in none: not known).
  const whole = Math.max(...shards.map((s) => s.tests));
  const lacking = whole > present ? whole - present : undefined;
  if (!missing.length) {
    return lacking ? [{ kind: 'tests-missing', tests: lacking, message: `the whole run had ${whole} tests; the shards hold ${present}` }] : [];
  }
  return missing.map((index) => {
    const name = shardName({ index, total });
    const held =
      lacking === undefined
        ? ''
        : missing.length === 1
          ? ` (${lacking} of the run's ${whole})`
          : ` (shards ${missing.map((m) => shardName({ index: m, total })).join(', ')} together held ${lacking} of the run's ${whole})`;
    return {
      kind: 'missing-shard' as const,
      shard: index,
      total,
      ...(lacking !== undefined && missing.length === 1 ? { tests: lacking } : {}),
      message: `shard ${name} missing: its tests${held} are not in this report`,
    };
  });
}

/** The value most reports have, the earliest of a tie; undefined when no report knows it. */
function mostCommon(values: ReadonlyArray<string | undefined>): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  for (const [v, n] of counts) if (best === undefined || n > counts.get(best)!) best = v;
  return best;
}

/** Sorted keys: two reports writing the same options in another order ran the same. */
const optionsKey = (o: RunOptionsFingerprint) =>
  JSON.stringify(
    Object.keys(o)
      .sort()
      .map((k) => [k, (o as Json)[k]]),
  );

const OPTION_LABELS: Record<string, string> = {
  environment: '--env',
  binding: '--binding',
  data: '--data',
  variables: '--var names',
  strictContract: '--strict-contract',
  shards: 'shards',
};

function optionValue(v: unknown): string {
  if (v === undefined || v === null) return 'not given';
  if (Array.isArray(v)) return v.length ? v.map(String).join(', ') : 'none';
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  return String(v);
}

/**
 * The reports whose run differs from the others' (by what most of them ran) in commit, catalog or
 * options, and the fingerprint they share. A part a report does not record is not compared.
 */
function compareRuns(inputs: readonly MergeInput[]): { reasons: IncompleteReason[]; common?: RunFingerprint } {
  const runs = inputs.map((i) => i.report.run);
  const commit = mostCommon(runs.map((r) => r?.commit));
  const catalog = mostCommon(runs.map((r) => r?.catalog));
  const optionsRef = mostCommon(runs.map((r) => (r?.options ? optionsKey(r.options) : undefined)));
  const options = optionsRef === undefined ? undefined : runs.find((r) => r?.options && optionsKey(r.options) === optionsRef)!.options!;
  const reasons: IncompleteReason[] = [];
  inputs.forEach(({ file, report }, i) => {
    const run = runs[i];
    if (!run) return;
    const where = { file, ...(report.shard ? { shard: report.shard.index, total: report.shard.total } : {}) };
    const label = `${file}${report.shard ? ` (shard ${shardName(report.shard)})` : ''}`;
    if (run.commit !== undefined && run.commit !== commit) {
      reasons.push({ kind: 'commit-differs', ...where, message: `${label} ran commit ${run.commit.slice(0, 12)}, the others ${commit!.slice(0, 12)}` });
    }
    if (run.catalog !== undefined && run.catalog !== catalog) {
      reasons.push({
        kind: 'catalog-differs',
        ...where,
        message: `${label} was run by a carrier with another operation catalog (${run.catalog}, the others ${catalog})`,
      });
    }
    if (run.options && options && optionsKey(run.options) !== optionsRef) {
      const mine = run.options as Json;
      const theirs = options as Json;
      const names = [...new Set([...Object.keys(theirs), ...Object.keys(mine)])].filter((k) => JSON.stringify(mine[k]) !== JSON.stringify(theirs[k]));
      const said = names.map((k) => `${OPTION_LABELS[k] ?? k} ${optionValue(mine[k])} here, ${optionValue(theirs[k])} in the others`);
      reasons.push({ kind: 'options-differs', ...where, options: names, message: `${label} ran with other options: ${said.join('; ')}` });
    }
  });
  const common: RunFingerprint = { ...(commit ? { commit } : {}), ...(catalog ? { catalog } : {}), ...(options ? { options } : {}) };
  return { reasons, ...(Object.keys(common).length ? { common } : {}) };
}
