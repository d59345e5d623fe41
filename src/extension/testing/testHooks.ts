/**
 * What the extension-host tests need from the Test Explorer and cannot reach any other way (a
 * TestController's items cannot be read back): the items listed and what the last run reported,
 * and a run of chosen items through the real run handler. Handed out through the extension's API
 * (api.ts), never as commands: test/vscode registers its own over it.
 */
import * as vscode from 'vscode';
import type { TestDiscovery } from './discovery';
import type { RunOutcome } from './runReporter';
import type { TestNode, TestTree } from './testTree';

export interface TestingState {
  readonly tree: readonly TestNode[];
  /** Runs finished since activation, whoever started them (the explorer, testing.runAll, a hook). */
  readonly runs: number;
  /** Waits between attempts (`retry`) begun since activation. */
  readonly waits: number;
  readonly lastRun?: RunOutcome;
}

export interface TestHooks {
  state(): Promise<TestingState>;
  /** Item ids (file paths, `folder:<path>`); none runs everything. */
  run(ids?: readonly string[]): Promise<RunOutcome>;
  /** Cancels the run `run` started, as the Test Explorer's Cancel does. */
  cancel(): void;
}

export interface TestHookSources {
  readonly discovery: TestDiscovery;
  readonly tree: TestTree;
  readonly profile: vscode.TestRunProfile;
  readonly state: () => Omit<TestingState, 'tree'>;
  readonly run: (request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<RunOutcome>;
}

export function createTestHooks(s: TestHookSources): TestHooks {
  let running: vscode.CancellationTokenSource | undefined;
  return {
    async state() {
      await s.discovery.current();
      return { tree: s.tree.snapshot(), ...s.state() };
    },
    async run(ids) {
      await s.discovery.current();
      const include = ids?.map((id) => {
        const item = s.tree.itemById(id);
        if (!item) throw new Error(`no test item ${id}`);
        return item;
      });
      const cancel = (running = new vscode.CancellationTokenSource());
      try {
        return await s.run(new vscode.TestRunRequest(include, undefined, s.profile), cancel.token);
      } finally {
        if (running === cancel) running = undefined;
        cancel.dispose();
      }
    },
    cancel() {
      running?.cancel();
    },
  };
}
