/**
 * The machine-readable report: one JSON document with the summary, load problems and every test
 * (status, failures with expected/actual/path/location, captured values, reply in brief, the data
 * row, the exchange as text), what was run (`run`: commit, catalog, options) and, for a merge that
 * is not one whole run, `incomplete` with its reasons. Paths are relative to the run's base
 * folder; nothing in it is unredacted. `carrier report` reads it back (merge.ts), so it holds
 * whatever the other reports need.
 */
import type { Failure, RunReport, SourceLocation, TestResult } from '../types';
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

function test(r: TestResult, rel: Relative) {
  return {
    id: relativeId(r.test.id, rel),
    name: r.test.name,
    file: rel(r.test.file),
    collection: r.test.collection.name,
    ...(r.test.collection.title ? { collectionTitle: r.test.collection.title } : {}),
    /** The collection.json files whose settings applied, outermost first. */
    collectionFiles: r.test.collection.configFiles.map((f) => rel(f)),
    operation: r.test.operation,
    version: r.test.version,
    binding: r.test.binding,
    environment: r.environment,
    status: r.status,
    skipReason: r.skipReason,
    startedAt: r.startedAt,
    durationMs: Math.round(r.durationMs * 1000) / 1000,
    dependsOn: r.test.dependsOn.map((d) => relativeId(d, rel)),
    captured: r.captured,
    reply: r.reply,
    failures: r.failures.map((f) => failure(f, rel)),
    ...(r.warnings?.length ? { warnings: r.warnings.map((f) => failure(f, rel)) } : {}),
    ...(r.test.position !== undefined ? { position: r.test.position } : {}),
    ...(r.test.row
      ? { row: { data: rel(r.test.row.file), index: r.test.row.index, ...(r.test.row.name ? { name: r.test.row.name } : {}), line: r.test.row.location.line } }
      : {}),
    ...(r.test.collection.together ? { keepTogether: rel(r.test.collection.together) } : {}),
    ...(r.transcript ? { exchange: r.transcript } : {}),
  };
}

export function jsonReport(report: RunReport, rel: Relative): string {
  return [...jsonReportParts(report, rel)].join('');
}

/**
 * The report as parts whose concatenation is jsonReport's text: the head, one part per test, the
 * end. Written part by part, each masked on its own (a secret never spans two tests), a run of
 * thousands of tests is never one string, nor one masked copy of it, in memory.
 */
export function* jsonReportParts(report: RunReport, rel: Relative): Generator<string> {
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
  const open = head.slice(0, head.length - '[]\n}'.length);
  const { results } = report;
  if (!results.length) {
    yield `${open}[]\n}\n`;
    return;
  }
  yield `${open}[\n`;
  for (let i = 0; i < results.length; i++) {
    // Indented as the array item JSON.stringify would print; a JSON text has no raw newline inside a string.
    yield `    ${JSON.stringify(test(results[i], rel), null, 2).replace(/\n/g, '\n    ')}${i < results.length - 1 ? ',' : ''}\n`;
  }
  yield '  ]\n}\n';
}
