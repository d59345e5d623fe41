/**
 * The JSON report in parts (runner/reporters/json.ts jsonReportParts): the head, one part per
 * test, the end, so a writer can mask and write a large run test by test. Joined, the parts are
 * exactly the document JSON.stringify prints for the whole report.
 */
import { strict as assert } from 'node:assert';
import { jsonReport, jsonReportParts } from '../../src/core/runner/reporters/json';
import { relativeTo } from '../../src/core/runner/reporters/format';
import type { PlannedCollection, PlannedTest, RunReport, TestResult } from '../../src/core/runner/types';

const base = '/work/ci';
const rel = relativeTo(base);
const collection: PlannedCollection = { folder: `${base}/c`, name: 'c', variables: {}, configFiles: [] };

function result(n: number, failed = false): TestResult {
  const file = `${base}/c/${n}.carrier.json`;
  const location = { file, line: 3, column: 5, endLine: 3, endColumn: 9 };
  const test: PlannedTest = { id: file, file, name: `${n}.carrier.json [soap11]`, collection, binding: 'soap11', location, dependsOn: [], captures: [] };
  return {
    test,
    status: failed ? 'failed' : 'passed',
    durationMs: 3.25,
    startedAt: '2026-01-05T10:00:00.000Z',
    captured: { pro: `0563911${n}` },
    environment: 'sandbox',
    failures: failed
      ? [
          {
            kind: 'reply',
            message: 'Result.Amount: expected < 5, got "$1,234.56"\nsecond line',
            expected: '< 5',
            actual: '"$1,234.56"',
            path: 'Result.Amount',
            location,
          },
        ]
      : [],
    transcript: {
      request: { method: 'POST', url: 'http://127.0.0.1:4000/x.asmx', headers: [['Content-Type', 'text/xml']], body: '<a>\n  "quoted" & \u2028</a>' },
    },
  };
}

function report(results: TestResult[]): RunReport {
  const passed = results.filter((r) => r.status === 'passed').length;
  return {
    summary: { total: results.length, passed, failed: results.length - passed, skipped: 0, durationMs: 10, startedAt: '2026-01-05T10:00:00.000Z' },
    results,
    problems: [{ kind: 'file', message: 'a problem', location: { file: `${base}/c/x.json`, line: 1, column: 1, endLine: 1, endColumn: 2 } }],
  };
}

describe('JSON report in parts', () => {
  for (const count of [0, 1, 3]) {
    it(`joined, the parts of a report of ${count} test${count === 1 ? '' : 's'} are the whole document, one part per test`, () => {
      const r = report(Array.from({ length: count }, (_, i) => result(i + 1, i === 1)));
      const parts = [...jsonReportParts(r, rel)];
      assert.equal(parts.length, count ? count + 2 : 1);
      const text = parts.join('');
      assert.equal(text, jsonReport(r, rel));
      const parsed = JSON.parse(text) as { tests: unknown[]; summary: unknown; problems: unknown[] };
      // Laid out as JSON.stringify lays out the whole, but for each test's exchange: on one line, as it was kept.
      const exchanges: unknown[] = [];
      const layout = JSON.stringify(parsed, (key, value: unknown) => (key === 'exchange' ? `\u0000exchange ${exchanges.push(value) - 1}` : value), 2).replace(
        /"\\u0000exchange (\d+)"/g,
        (_, i: string) => JSON.stringify(exchanges[Number(i)]),
      );
      assert.equal(text, `${layout}\n`, 'laid out as JSON.stringify lays out the whole, each exchange on one line');
      assert.equal(text.split('\n').filter((l) => l.includes('"exchange"')).length, count);
      assert.equal(parsed.tests.length, count);
      parts.slice(1, -1).forEach((part, i) => assert.equal((JSON.parse(part.replace(/,\n$/, '')) as { name: string }).name, `${i + 1}.carrier.json [soap11]`));
    });
  }
});
