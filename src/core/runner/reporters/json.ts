/**
 * The machine-readable report: one JSON document with the summary, load problems and every test
 * (status, failures with expected/actual/path/location, captured values, reply in brief, the data
 * row, the exchange as text, on one line), what was run (`run`: commit, catalog, options) and,
 * for a merge that is not one whole run, `incomplete` with its reasons. Paths are relative to the
 * run's base folder; nothing in it is unredacted. `carrier report` reads it back (merge.ts), so it holds
 * whatever the other reports need.
 */
import { isFlaky, type Failure, type RunReport, type SourceLocation, type TestResult } from '../types';
import type { Relative } from './format';

export const JSON_REPORT_VERSION = 1;

function location(loc: SourceLocation | undefined, rel: Relative) {
  return loc && { file: rel(loc.file), line: loc.line, column: loc.column, endLine: loc.endLine, endColumn: loc.endColumn };
}

function failure(f: Failure, rel: Relative) {
  return { kind: f.kind, message: f.message, expected: f.expected, actual: f.actual, path: f.path, location: location(f.location, rel) };
}

/** Test ids are `<absolute file>` or `<absolute file>#<binding>` (then `#row=N`); reports show them relative. */
export function relativeId(id: string, rel: Relative): string {
  const hash = id.indexOf('#');
  return hash < 0 ? rel(id) : rel(id.slice(0, hash)) + id.slice(hash);
}

/**
 * One test's item of `tests`, but for its exchange. Made by assignment in the report's key order,
 * an optional key only when it has something to say: a spread per optional key was a copy each, in
 * code that runs unoptimized for most of a run.
 */
export function jsonTestItem(r: TestResult, rel: Relative) {
  const t = r.test;
  const item: Record<string, unknown> = { id: relativeId(t.id, rel), name: t.name, file: rel(t.file), collection: t.collection.name };
  if (t.collection.title) item.collectionTitle = t.collection.title;
  /** The collection.json files whose settings applied, outermost first. */
  item.collectionFiles = t.collection.configFiles.map((f) => rel(f));
  item.operation = t.operation;
  item.version = t.version;
  item.binding = t.binding;
  item.environment = r.environment;
  item.status = r.status;
  item.skipReason = r.skipReason;
  item.startedAt = r.startedAt;
  item.durationMs = Math.round(r.durationMs * 1000) / 1000;
  item.dependsOn = t.dependsOn.map((d) => relativeId(d, rel));
  item.captured = r.captured;
  item.reply = r.reply;
  item.failures = r.failures.map((f) => failure(f, rel));
  if (r.warnings?.length) item.warnings = r.warnings.map((f) => failure(f, rel));
  if (t.position !== undefined) item.position = t.position;
  if (t.row) item.row = { data: rel(t.row.file), index: t.row.index, ...(t.row.name ? { name: t.row.name } : {}), line: t.row.location.line };
  if (t.collection.together) item.keepTogether = rel(t.collection.together);
  // Tags and retries (docs/collections.md#retries-and-flaky-tests): merge.ts reads them back.
  if (t.tags?.length) item.tags = t.tags;
  if (isFlaky(r)) item.flaky = true;
  if (r.notRetried) item.notRetried = r.notRetried;
  // What became of its snapshot (docs/collections.md#snapshots): the file, relative, and matched, written, updated, differs or missing; never a differing reply's text (the editor's alone).
  if (r.snapshot) item.snapshot = { file: rel(r.snapshot.file), status: r.snapshot.status };
  // A test that waited (retry.until, docs/request-files.md#retry): each send, its own exchange with all but the last.
  if (r.untilAttempts) {
    const u = r.untilAttempts;
    item.waited = {
      max: u.max,
      ...(u.heldAt !== undefined ? { heldAt: u.heldAt } : {}),
      ...(u.cancelled ? { cancelled: true } : {}),
      each: u.each.map((a) => ({
        number: a.number,
        id: a.id,
        startedAt: a.startedAt,
        ...(a.status !== undefined ? { status: a.status } : {}),
        verdict: a.verdict,
        tone: a.tone,
        ...(a.durationMs !== undefined ? { durationMs: Math.round(a.durationMs * 1000) / 1000 } : {}),
        held: a.held,
        waitedMs: a.waitedMs,
        ...(a.note ? { note: a.note } : {}),
        ...(a.transcript ? { exchange: a.transcript } : {}),
      })),
    };
  }
  if (r.attempts?.length)
    item.attempts = r.attempts.map((a) => ({
      startedAt: a.startedAt,
      durationMs: Math.round(a.durationMs * 1000) / 1000,
      reply: a.reply,
      failures: a.failures.map((f) => failure(f, rel)),
      ...(a.transcript ? { exchange: a.transcript } : {}),
    }));
  return item;
}

/**
 * One test as the item of the `tests` array, indented as JSON.stringify indents it there, but for
 * `exchange`, last and on one line: a request and reply kept as JSON (KeptTranscript.json) go in as
 * they were kept, without being parsed and printed again; and a run's report is half the lines.
 * Without the comma that separates it from the next: a writer can make it as the test ends.
 */
export function jsonTestPart(r: TestResult, rel: Relative): string {
  // Printed two arrays deep, the item is indented as it is in `tests`, without a pass to indent it.
  const nested = JSON.stringify([[jsonTestItem(r, rel)]], null, 2);
  const exchange = r.transcriptJson?.() ?? (r.transcript ? JSON.stringify(r.transcript) : undefined);
  // The arrays' `[\n  [\n` before, `\n  ]\n]` after; the item ends `\n    }`: the exchange goes in as its last member.
  return exchange === undefined
    ? nested.slice(ARRAYS_OPEN, -ARRAYS_CLOSE)
    : `${nested.slice(ARRAYS_OPEN, -ARRAYS_CLOSE - ITEM_CLOSE)},\n      "exchange": ${exchange}\n    }`;
}

const ARRAYS_OPEN = '[\n  [\n'.length;
const ARRAYS_CLOSE = '\n  ]\n]'.length;
const ITEM_CLOSE = '\n    }'.length;

export function jsonReport(report: RunReport, rel: Relative): string {
  return [...jsonReportParts(report, rel)].join('');
}

/**
 * The report as parts whose concatenation is jsonReport's text: the head, one part per test, the
 * end. Written part by part, each masked on its own (a secret never spans two tests), a run of
 * thousands of tests is never one string, nor one masked copy of it, in memory.
 */
export function* jsonReportParts(report: RunReport, rel: Relative): Generator<string> {
  const { results } = report;
  if (!results.length) {
    yield `${jsonReportHead(report, rel)}]\n}\n`;
    return;
  }
  yield `${jsonReportHead(report, rel)}\n`;
  for (let i = 0; i < results.length; i++) yield `${jsonTestPart(results[i], rel)}${i < results.length - 1 ? JSON_TEST_SEPARATOR : '\n'}`;
  yield JSON_REPORT_END;
}

/** Between two tests' parts. */
export const JSON_TEST_SEPARATOR = ',\n';
/** After the last test's part. */
export const JSON_REPORT_END = '  ]\n}\n';

/** The report up to the opening `[` of `tests`, its last key. */
export function jsonReportHead(report: RunReport, rel: Relative): string {
  const head = JSON.stringify(
    {
      format: 'carrier-run-report',
      version: JSON_REPORT_VERSION,
      // First, where a reader (and `carrier report` merging this again) cannot miss it.
      ...(report.incompleteReasons?.length ? { incomplete: true, incompleteReasons: report.incompleteReasons } : {}),
      summary: report.summary,
      ...(report.shard ? { shard: report.shard } : {}),
      ...(report.mergedFrom ? { mergedFrom: report.mergedFrom } : {}),
      ...(report.run ? { run: report.run } : {}),
      problems: report.problems.map((p) => failure(p, rel)),
      tests: [],
    },
    null,
    2,
  );
  // "tests" is the last key: the head ends `"tests": []` and the closing brace.
  return head.slice(0, head.length - ']\n}'.length);
}
