/**
 * JUnit XML as CI servers read it (Jenkins junit-10.xsd, which GitLab, GitHub actions, Azure and
 * Surefire-style readers accept): testsuites > testsuite per collection > testcase per file ×
 * binding, classname = collection folder, time in seconds, one <failure> (message + details) or
 * <skipped> per case. Reports are built from redacted results only.
 *
 * A test run again (`retries`) is written as Maven Surefire writes its reruns: a flaky one (failed,
 * then passed) is a passing case with a <flakyFailure> per failed attempt; one that failed every
 * time has a <failure> for its first attempt and a <rerunFailure> per rerun. Each of those holds
 * its message and type, and <stackTrace> (the failures) and <system-out> (the reply) of its attempt.
 *
 * A merged report that is not one whole run (RunReport.incompleteReasons: a shard missing, shards
 * of different runs) opens with a testsuite of its own holding one <error> testcase per reason,
 * counted in `errors` and `tests`: a CI that publishes junit.xml whatever happened shows it red,
 * never the green of the tests that did arrive.
 */
import * as os from 'node:os';
import type { Failure, IncompleteReason, ReplySummary, RunReport, TestAttempt, TestResult } from '../types';
import { failureDetails, seconds, type Relative } from './format';

// XML 1.0 forbids most control characters even escaped; replies and messages may carry them.
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const INVALID_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// A character xmlText (or xmlAttr) may change: text without one, most text, is returned as it is.
// (A surrogate pair is one too: such text takes the long way, which keeps the pair.)
const CHANGED_IN_TEXT = /[^\t\n\r\u0020-\u0025\u0027-\u003B\u003D\u003F-\uD7FF\uE000-\uFFFD]/;
const CHANGED_IN_ATTR = /[^\u0020\u0021\u0023-\u0025\u0027-\u003B\u003D\u003F-\uD7FF\uE000-\uFFFD]/;

export function xmlText(text: string): string {
  if (!CHANGED_IN_TEXT.test(text)) return text;
  return text.replace(INVALID_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xmlAttr(text: string): string {
  if (!CHANGED_IN_ATTR.test(text)) return text;
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

function attrs(values: Record<string, string | number | undefined>): string {
  let text = '';
  for (const name in values) {
    const v = values[name];
    if (v !== undefined) text += ` ${name}="${xmlAttr(String(v))}"`;
  }
  return text;
}

/** The first failure's message, noting how many more there are. */
function failureMessage(failures: readonly Failure[]): string {
  const first = failures[0]?.message ?? 'failed';
  return failures.length > 1 ? `${first} (and ${failures.length - 1} more)` : first;
}

function replyLine(reply: ReplySummary): string {
  const { endpoint, status, totalMs, fault } = reply;
  let line = endpoint || '';
  if (status !== undefined) line = after(line, `HTTP ${status}`);
  if (totalMs !== undefined) line = after(line, `${Math.round(totalMs)} ms`);
  return fault ? after(line, `fault ${fault}`) : line;
}

/** `part` after `line`, if any, as replyLine separates them. */
function after(line: string, part: string): string {
  return line ? `${line} · ${part}` : part;
}

/** Surefire's element for one failed attempt of a rerun test: message and type, the failures as its stack, the reply as its output. */
function rerunElement(name: 'flakyFailure' | 'rerunFailure', a: TestAttempt, rel: Relative, indent: string): string {
  return [
    `${indent}<${name}${attrs({ message: failureMessage(a.failures), type: a.failures[0]?.kind ?? 'failure' })}>`,
    `${indent}  <stackTrace>${xmlText(failureDetails(a.failures, rel))}</stackTrace>`,
    ...(a.reply ? [`${indent}  <system-out>${xmlText(replyLine(a.reply))}</system-out>`] : []),
    `${indent}</${name}>`,
  ].join('\n');
}

/** A test's <testcase> as junitXml writes it: made as each test ends (src/cli/reportParts.ts) or at the end. */
export function junitTestcase(r: TestResult, rel: Relative): string {
  return testcase(r, rel, '    ');
}

function testcase(r: TestResult, rel: Relative, indent: string): string {
  const attempts = r.attempts ?? [];
  // The case's time is every attempt's: what the run spent on it.
  const time = attempts.reduce((t, a) => t + a.durationMs, r.durationMs);
  const open = `${indent}<testcase${attrs({ name: r.test.name, classname: r.test.collection.name, time: seconds(time), file: rel(r.test.file) })}`;
  const body: string[] = [];
  if (r.status === 'skipped') body.push(`${indent}  <skipped${attrs({ message: r.skipReason ?? 'skipped' })}/>`);
  if (r.status === 'failed') {
    // Failed every time: the first attempt is the <failure>, each later one a <rerunFailure>.
    const all: TestAttempt[] = [...attempts, r];
    const first = all[0];
    body.push(
      `${indent}  <failure${attrs({ message: failureMessage(first.failures), type: first.failures[0]?.kind ?? 'failure' })}>${xmlText(failureDetails(first.failures, rel))}</failure>`,
    );
    for (const a of all.slice(1)) body.push(rerunElement('rerunFailure', a, rel, `${indent}  `));
  }
  if (r.status === 'passed') for (const a of attempts) body.push(rerunElement('flakyFailure', a, rel, `${indent}  `));
  const out: string[] = [];
  if (r.reply) out.push(replyLine(r.reply));
  if (r.notRetried) out.push(r.notRetried);
  let captured = '';
  for (const name in r.captured) captured += `${captured ? ', ' : ''}${name}=${r.captured[name]}`;
  if (captured) out.push(`captured: ${captured}`);
  // JUnit has no warning element: contract warnings that did not fail the test are said in its output.
  for (const w of r.warnings ?? []) out.push(w.message);
  if (out.length) body.push(`${indent}  <system-out>${xmlText(out.join('\n'))}</system-out>`);
  return body.length ? `${open}>\n${body.join('\n')}\n${indent}</testcase>` : `${open}/>`;
}

/** The testsuite (and classname) of the reasons a report is incomplete. */
export const INCOMPLETE_SUITE = 'incomplete report';

/** What each kind of reason means for the report, under its one-line message. */
const INCOMPLETE_MEANS: Record<IncompleteReason['kind'], string> = {
  'missing-shard': "This report does not hold the whole run: the missing shard's tests are in no report, passed or failed. Merge every shard's report.json.",
  'tests-missing': "This report does not hold the whole run: some of its tests are in no shard's report.",
  'split-differs': 'The shards merged here were cut from different splits, so they are not the parts of one run.',
  'commit-differs': "The reports merged here ran different commits: their results are not one run's.",
  'catalog-differs': "The reports merged here were run by carriers with different operation catalogs: their results are not one run's.",
  'options-differs': "The reports merged here ran with different options: their results are not one run's.",
};

function incompleteName(r: IncompleteReason): string {
  const shard = r.shard !== undefined && r.total !== undefined ? `shard ${r.shard}/${r.total}` : undefined;
  const who = [r.file, shard].filter(Boolean).join(', ');
  switch (r.kind) {
    case 'missing-shard':
      return shard ? `${shard} missing` : 'a shard missing';
    case 'tests-missing':
      return 'tests missing';
    case 'split-differs':
      return 'shards of different splits';
    case 'commit-differs':
      return who ? `${who}: commit differs` : 'commit differs';
    case 'catalog-differs':
      return who ? `${who}: catalog differs` : 'catalog differs';
    case 'options-differs':
      return who ? `${who}: options differ` : 'options differ';
  }
}

function incompleteCase(r: IncompleteReason, indent: string): string {
  const open = `${indent}<testcase${attrs({ name: incompleteName(r), classname: INCOMPLETE_SUITE, time: seconds(0), file: r.file })}>`;
  return `${open}\n${indent}  <error${attrs({ message: r.message, type: r.kind })}>${xmlText(`${r.message}\n${INCOMPLETE_MEANS[r.kind]}`)}</error>\n${indent}</testcase>`;
}

/** `made`: a test's <testcase> made already as it ended (junitTestcase), else it is made here. */
export function junitXml(report: RunReport, rel: Relative, hostname = os.hostname(), made?: (r: TestResult) => string | undefined): string {
  // One suite per collection, in the order its first test ran; cases in the order they ran.
  const suites = new Map<string, TestResult[]>();
  for (const r of report.results) {
    const name = r.test.collection.name;
    const list = suites.get(name);
    if (list) list.push(r);
    else suites.set(name, [r]);
  }
  const count = (rs: readonly TestResult[], s: TestResult['status']) => rs.filter((r) => r.status === s).length;
  const time = (rs: readonly TestResult[]) => rs.reduce((t, r) => t + r.durationMs, 0);
  const incomplete = report.incompleteReasons ?? [];
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  lines.push(
    `<testsuites${attrs({
      name: 'carrier run',
      tests: report.results.length + incomplete.length,
      failures: count(report.results, 'failed'),
      errors: incomplete.length,
      skipped: count(report.results, 'skipped'),
      time: seconds(report.summary.durationMs),
      timestamp: report.summary.startedAt.replace(/\.\d+Z$/, ''),
    })}>`,
  );
  let id = 0;
  if (incomplete.length) {
    const stamp = report.summary.startedAt.replace(/\.\d+Z$/, '');
    lines.push(
      `  <testsuite${attrs({ name: INCOMPLETE_SUITE, tests: incomplete.length, failures: 0, errors: incomplete.length, skipped: 0, time: seconds(0), timestamp: stamp, hostname, id: id++, package: INCOMPLETE_SUITE })}>`,
    );
    lines.push('    <properties/>');
    for (const r of incomplete) lines.push(incompleteCase(r, '    '));
    lines.push('    <system-out/>', '    <system-err/>', '  </testsuite>');
  }
  for (const [name, results] of suites) {
    const title = results[0].test.collection.title;
    const first = results.find((r) => r.startedAt)?.startedAt ?? report.summary.startedAt;
    lines.push(
      `  <testsuite${attrs({
        name,
        tests: results.length,
        failures: count(results, 'failed'),
        errors: 0,
        skipped: count(results, 'skipped'),
        time: seconds(time(results)),
        timestamp: first.replace(/\.\d+Z$/, ''),
        hostname,
        id: id++,
        package: name,
      })}>`,
    );
    const envs = [...new Set(results.map((r) => r.environment).filter((e): e is string => !!e))];
    const properties = [
      ...(title ? [{ name: 'title', value: title }] : []),
      ...envs.map((e) => ({ name: 'environment', value: e })),
      ...results[0].test.collection.configFiles.map((f) => ({ name: 'collection.json', value: rel(f) })),
    ];
    lines.push(
      properties.length ? `    <properties>\n${properties.map((p) => `      <property${attrs(p)}/>`).join('\n')}\n    </properties>` : '    <properties/>',
    );
    for (const r of results) lines.push(made?.(r) ?? testcase(r, rel, '    '));
    lines.push('    <system-out/>', '    <system-err/>', '  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
