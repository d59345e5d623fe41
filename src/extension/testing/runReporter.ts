/**
 * Tells a TestRun what the engine reports: enqueued, started, then passed, failed (a message at
 * each failing expectation's line, with expected and actual; the reply's contract errors, judged
 * by the runner, among them) or skipped, with durations, and a
 * readable log in the run's output, scrubbed of every secret of the run's environments. A flaky
 * test (failed, then passed when run again: collection.json `retries`) passes, and its output
 * says so at the item, with each failed attempt's failures at their lines; a test that waits
 * (`retry.until`) says at which attempt `until` held, or that it never did, and lists the last
 * attempts, in the CLI's words (core's waitedText and waitedLines). A reply snapshot written or
 * differing is said in the output, as `carrier run` says it; a difference is handed to
 * snapshotDiffs.ts, and its messages carry the contextValue its Show Diff and Accept menus read.
 * Keeps a plain record of the same, which the extension-host tests read.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PlannedTest, RunFailure, RunObserver, RunReport, TestResult } from '../core-adapter';
import { engine } from '../engineBundle';
import { testMessage, toLocation } from './locations';
import { SNAPSHOT_MESSAGE, type SnapshotDiffs } from './snapshotDiffs';
import type { TestTree } from './testTree';

export interface ReportedMessage {
  /** The runner's kind of failure: `contract` for the reply against its contract, `body`, `status`, `reply`… */
  readonly kind?: RunFailure['kind'];
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly file?: string;
  /** 1-based. */
  readonly line?: number;
  /** The TestMessage's contextValue, which its menus read (a snapshot difference's: snapshotDiffs.ts). */
  readonly contextValue?: string;
}

export interface ReportedTest {
  readonly id: string;
  readonly file: string;
  /** The runner's name: the file's, with the binding. */
  readonly name: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly durationMs: number;
  /** False for a producer without `expect`: it ran for its captures but has no item. */
  readonly listed: boolean;
  readonly skipReason?: string;
  readonly messages: readonly ReportedMessage[];
  /** Failed, then passed when run again. */
  readonly flaky?: boolean;
  /** How many times it ran (absent: once). */
  readonly attempts?: number;
  /** A test that waits (`retry`): its sends, the attempt at which `until` held, whether the run was cancelled while it waited. */
  readonly waited?: { readonly sends: number; readonly max: number; readonly heldAt?: number; readonly cancelled?: boolean };
}

export interface RunOutcome {
  readonly tests: readonly ReportedTest[];
  /** Everything appended to the run's output, as written. */
  readonly output: string;
}

function shownName(test: PlannedTest): string {
  // The test's name carries the binding when the file runs over several.
  return vscode.workspace.asRelativePath(test.file) + test.name.slice(path.basename(test.file).length);
}

function where(failure: RunFailure): string {
  const l = failure.location;
  return l ? `${vscode.workspace.asRelativePath(l.file)}:${l.line}:${l.column}  ` : '';
}

/**
 * A failure as the peek view's diff shows it: the expected value against the actual one, like with
 * like (`"Memphis"` against `"Nashville"`, not `equals "Memphis"`, which marked the operator as
 * changed), the expectation as written said in the message instead.
 */
export function likeWithLike(failure: RunFailure): RunFailure {
  if (failure.expectedValue === undefined || failure.actual === undefined) return failure;
  return { ...failure, message: `${failure.message} (the expectation: ${failure.expected})`, expected: failure.expectedValue };
}

export class RunReporter implements RunObserver {
  private readonly tests: ReportedTest[] = [];
  private output = '';

  constructor(
    private readonly run: vscode.TestRun,
    private readonly tree: TestTree,
    private readonly redact: (text: string) => string,
    /** Aborted when the user cancels: a send cut short then is not a failure of the service. */
    private readonly cancelled: AbortSignal,
    /** Where a differing snapshot is kept for Show Snapshot Diff and Accept. */
    private readonly snapshots?: SnapshotDiffs,
  ) {}

  get outcome(): RunOutcome {
    return { tests: [...this.tests], output: this.output };
  }

  write(line: string, failure?: RunFailure, item?: vscode.TestItem): void {
    const text = `${this.redact(line)}\r\n`;
    this.output += text;
    this.run.appendOutput(text, failure?.location ? toLocation(failure.location) : undefined, item);
  }

  runStart(tests: readonly PlannedTest[]): void {
    for (const test of tests) {
      const item = this.tree.itemOfPlannedTest(test.id);
      if (item) this.run.enqueued(item);
    }
  }

  testStart(test: PlannedTest): void {
    const item = this.tree.itemOfPlannedTest(test.id);
    if (item) this.run.started(item);
  }

  /** Told that a test waits between attempts (`retry`): said in the output, so a long wait does not look stuck. */
  onWait?: (test: PlannedTest) => void;

  testWait(test: PlannedTest, attempt: number, of: number, waitMs: number): void {
    const item = this.tree.itemOfPlannedTest(test.id);
    this.write(`… ${shownName(test)}: attempt ${attempt} of ${of} sent; waiting ${engine().duration(waitMs)} before the next`, undefined, item);
    this.onWait?.(test);
  }

  testEnd(result: TestResult): void {
    const { test } = result;
    const item = this.tree.itemOfPlannedTest(test.id);
    const cutShort = result.status === 'failed' && this.cancelled.aborted;
    const status = cutShort ? 'skipped' : result.status;
    const skipReason = cutShort ? 'cancelled' : result.skipReason;
    const differs = result.snapshot?.status === 'differs';
    const messages =
      status === 'failed'
        ? result.failures.map((f) => {
            const message = testMessage(likeWithLike(f), test.location, this.redact);
            if (differs && f.kind === 'snapshot') message.contextValue = SNAPSHOT_MESSAGE;
            return message;
          })
        : [];
    if (result.snapshot && !cutShort) this.snapshots?.record(item?.id, result.snapshot);
    if (item) {
      if (status === 'passed') this.run.passed(item, result.durationMs);
      else if (status === 'failed') this.run.failed(item, messages.length ? messages : [new vscode.TestMessage('failed')], result.durationMs);
      else this.run.skipped(item);
    }
    this.log(result, status, skipReason, item);
    this.tests.push({
      id: test.id,
      file: test.file,
      name: test.name,
      status,
      durationMs: result.durationMs,
      listed: !!item,
      ...(skipReason ? { skipReason } : {}),
      ...(result.attempts?.length ? { attempts: result.attempts.length + 1, ...(status === 'passed' ? { flaky: true } : {}) } : {}),
      ...(result.untilAttempts ? { waited: waitedOf(result.untilAttempts) } : {}),
      messages: messages.map((m, i) => ({
        kind: result.failures[i].kind,
        message: typeof m.message === 'string' ? m.message : m.message.value,
        ...(m.expectedOutput !== undefined ? { expected: m.expectedOutput } : {}),
        ...(m.actualOutput !== undefined ? { actual: m.actualOutput } : {}),
        ...(m.location ? { file: m.location.uri.fsPath, line: m.location.range.start.line + 1 } : {}),
        ...(m.contextValue ? { contextValue: m.contextValue } : {}),
      })),
    });
  }

  private log(result: TestResult, status: ReportedTest['status'], skipReason: string | undefined, item: vscode.TestItem | undefined): void {
    const name = shownName(result.test);
    const until = result.untilAttempts;
    const waited = until ? `  ${engine().waitedText(until)}` : '';
    if (status === 'skipped') {
      // Cut short while it waited: which attempt it was on.
      this.write(`○ ${name}  skipped: ${skipReason ?? 'not run'}${waited}`, undefined, item);
      return;
    }
    const facts = [result.environment, result.reply?.status !== undefined ? `HTTP ${result.reply.status}` : undefined, `${Math.round(result.durationMs)} ms`]
      .filter(Boolean)
      .join(', ');
    const attempts = result.attempts ?? [];
    const flaky = status === 'passed' && attempts.length > 0;
    const retried = flaky
      ? `  flaky: failed ${attempts.length} time${attempts.length === 1 ? '' : 's'}, then passed`
      : attempts.length
        ? `  failed all ${attempts.length + 1} attempts`
        : '';
    this.write(`${status === 'passed' ? (flaky ? '⚠' : '✓') : '✗'} ${name}  (${facts})${waited}${retried}`, undefined, item);
    if (until) for (const line of engine().waitedLines(until)) this.write(`    ${line}`, undefined, item);
    attempts.forEach((a, i) => {
      for (const f of a.failures) this.write(`    attempt ${i + 1}: ${where(f)}${f.message}`, f, item);
    });
    if (status === 'failed') for (const f of result.failures) this.write(`    ${where(f)}${f.message}`, f, item);
    if (result.notRetried) this.write(`    ${result.notRetried}`, undefined, item);
    const snapshot = result.snapshot;
    if (snapshot?.status === 'written' || snapshot?.status === 'updated') {
      this.write(`    Snapshot ${snapshot.status}: ${vscode.workspace.asRelativePath(snapshot.file)}`, undefined, item);
    } else if (snapshot?.status === 'differs') {
      this.write(`    Snapshot differs: ${vscode.workspace.asRelativePath(snapshot.file)} — Carrier: Show Snapshot Diff`, undefined, item);
    }
    const captured = Object.entries(result.captured);
    if (captured.length) this.write(`    captured ${captured.map(([k, v]) => `${k}=${v}`).join(', ')}`, undefined, item);
  }

  runEnd(report: RunReport): void {
    const s = report.summary;
    this.write(
      `${s.total} test${s.total === 1 ? '' : 's'}: ${s.passed} passed${s.flaky ? ` (${s.flaky} flaky)` : ''}, ${s.failed} failed, ${s.skipped} skipped in ${(s.durationMs / 1000).toFixed(2)} s`,
    );
  }
}

function waitedOf(w: NonNullable<TestResult['untilAttempts']>): NonNullable<ReportedTest['waited']> {
  return { sends: w.each.length, max: w.max, ...(w.heldAt !== undefined ? { heldAt: w.heldAt } : {}), ...(w.cancelled ? { cancelled: true } : {}) };
}
