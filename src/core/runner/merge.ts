/**
 * `carrier report`: the JSON reports of several runs or shards read back and merged into one run
 * report, which every reporter (junit, json, html, cli) then writes as if one run had made it.
 *
 * Each test is kept once, by its id (the same test in two reports keeps the later report's
 * result, and the merge says so); tests go back to the order of the whole run (`position`, the
 * same on every shard), and the summary is counted again from the merged tests. Shards that a set
 * of shard reports lacks, and tests missing from a complete set, are named.
 */
import * as path from 'node:path';
import { JSON_REPORT_VERSION } from './reporters/json';
import type { ExchangeTranscript, Failure, FailureKind, MergedSource, PlannedCollection, PlannedTest, ReplySummary, RunReport, ShardInfo, SourceLocation, TestResult, TestStatus } from './types';

export const JSON_REPORT_FORMAT = 'carrier-run-report';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

const STATUSES: readonly TestStatus[] = ['passed', 'failed', 'skipped'];

/** Reads one report.json; `base` is the folder its relative paths are relative to (where the run was started). */
export function parseRunReport(text: string, base: string): { report: RunReport } | { problem: string } {
  let json: unknown;
  try { json = JSON.parse(text); } catch (e) { return { problem: `not JSON: ${(e as Error).message}` }; }
  if (!isObject(json) || json.format !== JSON_REPORT_FORMAT) return { problem: `not a carrier run report (its "format" is not "${JSON_REPORT_FORMAT}"; carrier run --reporter json writes one)` };
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
    if (isObject(t) && isObject(t.row) && str(t.row.data) && num(t.row.index)) rowCounts.set(t.row.data as string, Math.max(rowCounts.get(t.row.data as string) ?? 0, num(t.row.index)!));
  }
  for (const [i, t] of json.tests.entries()) {
    if (!isObject(t) || !str(t.id) || !str(t.name) || !str(t.file) || !STATUSES.includes(t.status as TestStatus)) return { problem: `test ${i + 1} lacks an id, name, file or status` };
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
      ...(row ? {
        row: {
          file: abs(row.data as string),
          index: num(row.index)!,
          count: rowCounts.get(row.data as string) ?? 0,
          ...(str(row.name) ? { name: str(row.name) } : {}),
          location: { file: abs(row.data as string), line: num(row.line) ?? 1, column: 1, endLine: num(row.line) ?? 1, endColumn: 1 },
          values: {},
          texts: {},
        },
      } : {}),
    };
    results.push({
      test,
      status: t.status as TestStatus,
      failures: Array.isArray(t.failures) ? t.failures.map(failure) : [],
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
  const shard = isObject(json.shard) && num(json.shard.index) && num(json.shard.total) ? { index: num(json.shard.index)!, total: num(json.shard.total)!, tests: num(json.shard.tests) ?? 0 } : undefined;
  return {
    report: {
      summary: summaryOf(results, str(s.startedAt) ?? new Date(0).toISOString(), num(s.durationMs) ?? 0),
      results,
      problems: Array.isArray(json.problems) ? json.problems.map(failure) : [],
      ...(shard ? { shard } : {}),
    },
  };
}

function summaryOf(results: readonly TestResult[], startedAt: string, durationMs: number): RunReport['summary'] {
  const count = (s: TestStatus) => results.filter((r) => r.status === s).length;
  return { total: results.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), durationMs, startedAt };
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
  /** Tests are lost: shards missing from a set, or fewer tests than the whole run had. */
  readonly lost: readonly string[];
}

export function mergeReports(inputs: readonly MergeInput[]): MergeResult {
  const byId = new Map<string, { result: TestResult; from: string; seen: string[] }>();
  const order: string[] = [];
  for (const { file, report } of inputs) {
    for (const result of report.results) {
      const known = byId.get(result.test.id);
      if (known) { known.seen.push(file); known.result = result; known.from = file; continue; }
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
    results = results.map((r, i) => ({ r, i })).sort((a, b) => a.r.test.position! - b.r.test.position! || a.i - b.i).map(({ r }) => r);
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
      if (!seenProblems.has(key)) { seenProblems.add(key); problems.push(p); }
    }
  }

  const lost: string[] = [];
  const shards = inputs.map((i) => i.report.shard).filter((s): s is ShardInfo => s !== undefined);
  const totals = [...new Set(shards.map((s) => s.total))];
  if (totals.length > 1) lost.push(`the reports are shards of different splits (${totals.map((t) => `/${t}`).join(', ')}); merge the shards of one run`);
  else if (totals.length === 1) {
    const total = totals[0];
    const have = new Set(shards.map((s) => s.index));
    const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !have.has(i));
    if (missing.length) lost.push(`shard${missing.length > 1 ? 's' : ''} ${missing.map((m) => `${m}/${total}`).join(', ')} missing: their tests are not in this report`);
    else {
      const whole = Math.max(...shards.map((s) => s.tests));
      if (whole && results.length < whole) lost.push(`the whole run had ${whole} tests; the shards hold ${results.length}`);
    }
  }

  const mergedFrom: MergedSource[] = inputs.map((i) => ({ file: i.file, ...(i.report.shard ? { shard: i.report.shard } : {}), tests: i.report.results.length }));
  return {
    report: { summary: summaryOf(results, new Date(start).toISOString(), Math.max(0, end - start)), results, problems, mergedFrom },
    notes,
    lost,
  };
}
