/**
 * The terminal reporter in a log (not a TTY) writes its lines in batches
 * (runner/reporters/cli.ts): one write per batch rather than per test, yet a CI log still shows
 * a test within a moment of its end, and everything before the summary.
 */
import { strict as assert } from 'node:assert';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliReporter } from '../../src/core/runner/reporters/cli';
import { relativeTo } from '../../src/core/runner/reporters/format';
import type { PlannedCollection, PlannedTest, RunReport, TestResult } from '../../src/core/runner/types';

const base = '/work/ci';
const collection: PlannedCollection = { folder: `${base}/c`, name: 'c', variables: {}, configFiles: [] };

function passed(n: number): TestResult {
  const file = `${base}/c/${n}.carrier.json`;
  const test: PlannedTest = {
    id: file,
    file,
    name: `${n}.carrier.json [soap11]`,
    collection,
    binding: 'soap11',
    location: { file, line: 1, column: 1, endLine: 1, endColumn: 2 },
    dependsOn: [],
    captures: [],
  };
  return { test, status: 'passed', failures: [], durationMs: 3, captured: {} };
}

describe('cli reporter in a log', () => {
  it('batches the lines of many tests into few writes, shows a test soon after it ends, and ends with the summary', async () => {
    const writes: string[] = [];
    const reporter = new CliReporter(
      {
        write: (t: string) => {
          writes.push(t);
        },
      },
      { rel: relativeTo(base), tty: false },
    );
    const results = Array.from({ length: 500 }, (_, i) => passed(i + 1));
    reporter.runStart(results.map((r) => r.test));
    for (const r of results) {
      reporter.testStart(r.test);
      reporter.testEnd(r);
    }
    assert.ok(writes.length < 10, `${writes.length} writes for 500 tests`);

    const last = passed(501);
    reporter.testStart(last.test);
    reporter.testEnd(last);
    await sleep(300);
    assert.match(writes.join(''), /✓ 501\.carrier\.json \[soap11\]/, 'written without waiting for the end of the run');

    const report: RunReport = {
      summary: { total: 501, passed: 501, failed: 0, skipped: 0, durationMs: 10, startedAt: '2026-01-05T10:00:00.000Z' },
      results: [...results, last],
      problems: [],
    };
    reporter.runEnd(report);
    const out = writes.join('');
    assert.equal(out.match(/✓ /g)?.length, 501);
    assert.match(out, /\n501 tests: 501 passed, 0 failed, 0 skipped in [^\n]+\n$/);
  });
});
