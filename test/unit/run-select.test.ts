/**
 * Choosing part of a run (src/core/runner/select.ts, `carrier run --grep` and `--last-failed`):
 * only the chosen tests run, each with the tests whose captures it uses; the run says what it
 * chose, added and left out; nothing that failed means nothing is sent; a chain of captures as
 * long as a collection is walked without recursion.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/dispatch';
import { withProducers, type PlannedTest } from '../../src/core/runner';

const EXAMPLE = path.resolve(__dirname, '../../examples/collections/tracing');

async function carrier(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd,
    env: {},
  });
  return { code, out, err };
}

interface JsonReport {
  readonly tests: ReadonlyArray<{ readonly name: string; readonly status: string }>;
}
const testsOf = (file: string): JsonReport['tests'] => (JSON.parse(fs.readFileSync(file, 'utf8')) as JsonReport).tests;

describe('carrier run --last-failed and --grep', function () {
  this.timeout(120_000);
  let work: string;
  let suite: string;
  const second = () => path.join(suite, '2-trace-by-bol-number.carrier.json');

  before(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'run-select-'));
    suite = path.join(work, 'tracing');
    fs.cpSync(EXAMPLE, suite, { recursive: true });
    // The second file traces by the BOL number the first captures: make it fail.
    fs.writeFileSync(
      second(),
      fs.readFileSync(second(), 'utf8').replace('"Result[0].ReferenceNumbers.BOL": "{{bolNumber}}"', '"Result[0].ReferenceNumbers.BOL": "not-this"'),
    );
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('reruns what failed, with the test whose capture it uses, and says what it left out', async () => {
    const whole = await carrier(['run', 'tracing', '-r', 'json', '-o', 'first'], work);
    assert.equal(whole.code, 1, whole.err);
    const first = testsOf(path.join(work, 'first', 'report.json'));
    const failed = first.filter((t) => t.status === 'failed').map((t) => t.name);
    assert.deepEqual(failed, ['2-trace-by-bol-number.carrier.json [soap11]']);

    const again = await carrier(['run', 'tracing', '--last-failed', 'first/report.json', '-r', 'json', '-o', 'again'], work);
    assert.equal(again.code, 1, again.err);
    assert.match(
      again.err,
      new RegExp(`--last-failed first/report.json chose 1 of ${first.length} tests, and 1 test whose captures they use; ${first.length - 2} left out`),
    );
    assert.deepEqual(
      testsOf(path.join(work, 'again', 'report.json')).map((t) => `${t.name} ${t.status}`),
      ['1-trace-by-pro.carrier.json [soap11] passed', '2-trace-by-bol-number.carrier.json [soap11] failed'],
    );

    // Fixed: the same rerun passes, and runs nothing else.
    fs.writeFileSync(second(), fs.readFileSync(path.join(EXAMPLE, '2-trace-by-bol-number.carrier.json')));
    const fixed = await carrier(['run', 'tracing', '--last-failed', 'first/report.json', '-r', 'json', '-o', 'fixed'], work);
    assert.equal(fixed.code, 0, fixed.err);
    assert.equal(testsOf(path.join(work, 'fixed', 'report.json')).length, 2);

    // A report where nothing failed: nothing to rerun, nothing sent, not a failure.
    const none = await carrier(['run', 'tracing', '--last-failed', 'fixed/report.json', '-r', 'json', '-o', 'none'], work);
    assert.equal(none.code, 0, none.err);
    assert.match(none.out, /nothing failed in fixed\/report\.json that this run has: nothing to rerun/);
    assert.equal(fs.existsSync(path.join(work, 'none', 'report.json')), false, 'no run, no report');
  });

  it('runs only the tests whose name matches --grep, with their producers', async () => {
    const chosen = await carrier(['run', 'tracing', '--grep', 'bol-number', '-r', 'json', '-o', 'grep'], work);
    assert.equal(chosen.code, 0, chosen.err);
    assert.match(chosen.err, /--grep \/bol-number\/ chose 1 of \d+ tests, and 1 test whose captures they use; \d+ left out/);
    assert.deepEqual(
      testsOf(path.join(work, 'grep', 'report.json')).map((t) => t.name),
      ['1-trace-by-pro.carrier.json [soap11]', '2-trace-by-bol-number.carrier.json [soap11]'],
    );
    const nothing = await carrier(['run', 'tracing', '--grep', 'no-such-test'], work);
    assert.equal(nothing.code, 1, 'a run where nothing ran fails');
    assert.match(nothing.err, /chose 0 of \d+ tests; \d+ left out/);
  });

  it('refuses a pattern it cannot read, and two ways of choosing at once', async () => {
    const bad = await carrier(['run', 'tracing', '--grep', '(unclosed'], work);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--grep \(unclosed: /);
    const lookahead = await carrier(['run', 'tracing', '--grep', 'a(?=b)'], work);
    assert.equal(lookahead.code, 2, 'the linear-time engine has no lookahead, and says so');
    const both = await carrier(['run', 'tracing', '--grep', 'x', '--last-failed', 'first/report.json'], work);
    assert.equal(both.code, 2);
    assert.match(both.err, /choose the tests one way/);
  });

  it('walks a chain of captures as long as the collection without recursion', () => {
    const n = 200_000;
    const tests = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, dependsOn: i ? [`t${i - 1}`] : [] }) as unknown as PlannedTest);
    assert.equal(withProducers(tests, new Set([`t${n - 1}`])).size, n);
    assert.equal(withProducers(tests, new Set(['t0'])).size, 1);
  });
});
