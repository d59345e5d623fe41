/**
 * One Test Explorer run. The selected items (a file, a folder, everything) become the engine's
 * `only`, so the tests whose captures they use run first; each workspace folder's plan then runs
 * through executePlan, the engine `carrier run` uses, with the editor's environment, keys and
 * sandbox. Each test with a kept snapshot (or a `snapshot` key) is held to it, and a missing one is
 * written, as `carrier run` does (docs/collections.md#snapshots); a difference is offered to
 * accept (snapshotDiffs.ts). Cancelling the run aborts the engine: sends in flight stop, the rest
 * are skipped.
 */
import * as vscode from 'vscode';
import { readSettings } from '../config';
import { executePlan, redactFinalText, runSnapshots, type PlannedRun, type RunFailure } from '../core-adapter';
import type { Log } from '../log';
import type { TestDiscovery } from './discovery';
import { editorBackend, type BackendSources } from './editorBackend';
import { RunReporter, type RunOutcome } from './runReporter';
import type { SnapshotDiffs } from './snapshotDiffs';
import type { TestTree } from './testTree';

export interface RunContext extends BackendSources {
  readonly controller: vscode.TestController;
  readonly discovery: TestDiscovery;
  readonly tree: TestTree;
  readonly log: Log;
  /** A test began a wait between attempts (`retry`). */
  readonly onWait?: () => void;
  /** Where differing snapshots are kept to show and accept. */
  readonly snapshots?: SnapshotDiffs;
}

/** Problems of the run as a whole (a bad collection.json): those of a file fail its test instead. */
function runProblems(plan: PlannedRun): RunFailure[] {
  const ofFiles = new Set([...plan.files.values()].flatMap((f) => f.problems));
  return plan.problems.filter((p) => !ofFiles.has(p));
}

export async function runTests(ctx: RunContext, request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<RunOutcome> {
  // Edits made within the debounce pause count: run what the editor shows.
  const plans = await ctx.discovery.current();
  const selected = ctx.tree.select(request.include, request.exclude);
  const run = ctx.controller.createTestRun(request, 'Carrier', true);
  const abort = new AbortController();
  const onCancel = token.onCancellationRequested(() => abort.abort());
  const secrets = new Set<string>();
  const reporter = new RunReporter(run, ctx.tree, (text) => redactFinalText(text, secrets), abort.signal, ctx.snapshots);
  if (ctx.onWait) reporter.onWait = ctx.onWait;
  try {
    for (const { folder, plan } of plans) {
      const only = plan.tests.filter((t) => selected.has(t.id)).map((t) => t.id);
      if (!only.length || abort.signal.aborted) continue;
      const backend = await editorBackend(folder.uri.fsPath, ctx, secrets, [...new Set(plan.tests.map((t) => t.collection.folder))]);
      for (const p of [...backend.problems, ...runProblems(plan)]) reporter.write(`! ${p.message}`, p);
      try {
        await executePlan(plan, { backend, only, signal: abort.signal, timeoutMs: readSettings(folder.uri).timeoutMs, snapshots: runSnapshots() }, reporter);
      } finally {
        await backend.close();
      }
    }
  } catch (e) {
    reporter.write(`The run stopped: ${(e as Error).message}`);
    ctx.log.error(`test run stopped: ${(e as Error).message}`);
  } finally {
    onCancel.dispose();
    run.end();
  }
  return reporter.outcome;
}
