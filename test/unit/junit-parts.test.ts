/**
 * junit.xml with each <testcase> made as its test ended (src/cli/reportParts.ts JunitReportParts)
 * is the very file junitXml makes from the finished report: passed, failed, skipped, flaky and
 * rerun cases, in two suites; and a case made at the end fills in for one that was not.
 */
import { strict as assert } from 'node:assert';
import { JunitReportParts } from '../../src/cli/reportParts';
import { junitXml } from '../../src/core/runner/reporters/junit';
import { relativeTo } from '../../src/core/runner/reporters/format';
import type { PlannedCollection, PlannedTest, RunReport, TestAttempt, TestResult } from '../../src/core/runner/types';

const base = '/work/ci';
const rel = relativeTo(base);
const suite = (name: string): PlannedCollection => ({ folder: `${base}/${name}`, name, variables: {}, configFiles: [] });
const [quotes, bols] = [suite('quotes'), suite('bols')];

function result(n: number, collection: PlannedCollection, status: TestResult['status'], attempts?: TestAttempt[]): TestResult {
  const file = `${collection.folder}/${n}.carrier.json`;
  const location = { file, line: 3, column: 5, endLine: 3, endColumn: 9 };
  const test: PlannedTest = { id: file, file, name: `${n}.carrier.json [soap11]`, collection, binding: 'soap11', location, dependsOn: [], captures: [] };
  const failure = { kind: 'reply' as const, message: `Result.Amount: expected < 5, got "$1,234.${n}" <&>`, location };
  return {
    test,
    status,
    durationMs: 3.25 + n,
    startedAt: '2026-01-05T10:00:00.000Z',
    captured: status === 'passed' ? { pro: `0563911${n}` } : {},
    environment: 'sandbox',
    failures: status === 'failed' ? [failure] : [],
    ...(status === 'skipped' ? { skipReason: 'its producer failed' } : {}),
    reply: { endpoint: 'http://127.0.0.1:4000/x.asmx', status: 200, totalMs: 12.5 },
    ...(attempts ? { attempts } : {}),
  };
}

function report(results: TestResult[]): RunReport {
  const count = (s: TestResult['status']) => results.filter((r) => r.status === s).length;
  return {
    summary: {
      total: results.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      durationMs: 40,
      startedAt: '2026-01-05T10:00:00.000Z',
    },
    results,
    problems: [],
  };
}

describe('junit.xml with testcases made as tests end', () => {
  const attempt = (n: number): TestAttempt => ({
    durationMs: 2,
    failures: [{ kind: 'status', message: `HTTP 503 on attempt ${n}` }],
    reply: { endpoint: 'http://127.0.0.1:4000/x.asmx', status: 503, totalMs: 1.5 },
  });
  const results = [
    result(1, quotes, 'passed'),
    result(2, quotes, 'failed'),
    result(3, bols, 'skipped'),
    result(4, bols, 'passed', [attempt(1)]),
    result(5, quotes, 'failed', [attempt(1), attempt(2)]),
  ];

  it('is the file junitXml makes from the finished report', () => {
    const parts = new JunitReportParts(rel);
    for (const r of results) parts.testEnd(r);
    const whole = junitXml(report(results), rel, 'ci-host');
    assert.equal(junitXml(report(results), rel, 'ci-host', parts.caseOf), whole);
    assert.match(whole, /<flakyFailure/);
    assert.match(whole, /<rerunFailure/);
  });

  it('makes at the end the cases of tests it did not see end', () => {
    const parts = new JunitReportParts(rel);
    parts.testEnd(results[0]);
    assert.equal(parts.caseOf(results[1]), undefined);
    assert.equal(junitXml(report(results), rel, 'ci-host', parts.caseOf), junitXml(report(results), rel, 'ci-host'));
  });
});
