/**
 * The "Carrier" test controller: request files with an `expect` in VS Code's Test Explorer,
 * run by the engine `carrier run` uses. Wiring only: discovery, the item tree, running each and
 * the snapshots that differ (Show Snapshot Diff, Accept) live in their own module.
 */
import * as vscode from 'vscode';
import type { EnvironmentStore } from '../environments/environmentStore';
import type { Log } from '../log';
import type { SandboxController } from '../sandbox/sandboxController';
import type { ApiKeys } from '../secrets/apiKeys';
import { TestDiscovery } from './discovery';
import type { RunOutcome } from './runReporter';
import { runTests, type RunContext } from './runTests';
import { SnapshotDiffs } from './snapshotDiffs';
import { createTestHooks, type TestHooks } from './testHooks';
import { TestTree } from './testTree';

/** The controller, to dispose with the extension, and the hooks the extension-host tests read it by. */
export interface TestExplorer extends vscode.Disposable {
  readonly hooks: TestHooks;
}

export function registerTestExplorer(environments: EnvironmentStore, keys: ApiKeys, sandbox: SandboxController, log: Log): TestExplorer {
  const controller = vscode.tests.createTestController('carrier', 'Carrier');
  const tree = new TestTree(controller);
  const discovery = new TestDiscovery(log, (plans) => tree.update(plans));
  const snapshots = new SnapshotDiffs(log);
  let waits = 0;
  const ctx: RunContext = { controller, discovery, tree, log, environments, keys, sandbox, onWait: () => waits++, snapshots };
  let runs = 0;
  let lastRun: RunOutcome | undefined;
  const run = async (request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<RunOutcome> => {
    const outcome = await runTests(ctx, request, token);
    runs++;
    lastRun = outcome;
    return outcome;
  };

  // Opening the Test Explorer asks for the root items: the first reason to search the workspace.
  controller.resolveHandler = async (item) => {
    if (!item) await discovery.current();
  };
  controller.refreshHandler = async () => {
    await discovery.refresh();
  };
  const profile = controller.createRunProfile(
    'Run',
    vscode.TestRunProfileKind.Run,
    async (request, token) => {
      await run(request, token);
    },
    true,
  );

  const hooks = createTestHooks({ discovery, tree, profile, run, state: () => ({ runs, waits, ...(lastRun ? { lastRun } : {}) }) });
  return Object.assign(vscode.Disposable.from(controller, discovery, snapshots), { hooks });
}
