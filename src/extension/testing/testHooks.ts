/**
 * Commands for the extension-host tests only (not contributed, so not in the palette): what the
 * Test Explorer lists and what the last run reported, and a run of chosen items through the real
 * run handler. Tests cannot reach a TestController's items any other way.
 */
import * as vscode from 'vscode';
import type { TestDiscovery } from './discovery';
import type { RunOutcome } from './runReporter';
import type { TestNode, TestTree } from './testTree';

export const TESTING_STATE_COMMAND = 'carrier.testing.state';
export const TESTING_RUN_COMMAND = 'carrier.testing.run';

export interface TestingState {
  readonly tree: readonly TestNode[];
  /** Runs finished since activation, whoever started them (the explorer, testing.runAll, a hook). */
  readonly runs: number;
  readonly lastRun?: RunOutcome;
}

export interface TestHookSources {
  readonly discovery: TestDiscovery;
  readonly tree: TestTree;
  readonly profile: vscode.TestRunProfile;
  readonly state: () => Omit<TestingState, 'tree'>;
  readonly run: (request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<RunOutcome>;
}

export function registerTestHooks(s: TestHookSources): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(TESTING_STATE_COMMAND, async (): Promise<TestingState> => {
      await s.discovery.current();
      return { tree: s.tree.snapshot(), ...s.state() };
    }),
    /** Item ids (file paths, `folder:<path>`); none runs everything. */
    vscode.commands.registerCommand(TESTING_RUN_COMMAND, async (ids?: readonly string[]): Promise<RunOutcome> => {
      await s.discovery.current();
      const include = ids?.map((id) => {
        const item = s.tree.itemById(id);
        if (!item) throw new Error(`no test item ${id}`);
        return item;
      });
      const cancel = new vscode.CancellationTokenSource();
      try {
        return await s.run(new vscode.TestRunRequest(include, undefined, s.profile), cancel.token);
      } finally {
        cancel.dispose();
      }
    }),
  ];
}
