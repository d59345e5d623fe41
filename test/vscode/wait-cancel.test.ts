/**
 * A test that waits (`retry`, docs/request-files.md#retry) in the Test Explorer: the output says
 * it is waiting between attempts, and Cancel ends the wait at once — the run finishes (within
 * mocha's timeout, never the ten minutes the file would wait), the test is reported cancelled
 * after its one send, not failed.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../src/extension/testing/runReporter';
import type { TestingState } from '../../src/extension/testing/testHooks';
import type { TestNode } from '../../src/extension/testing/testTree';
import { carrierApi } from './support/extension';
import { executeTestCommand, TESTING_CANCEL_COMMAND, TESTING_RUN_COMMAND, TESTING_STATE_COMMAND } from './support/testCommands';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

const state = () => executeTestCommand<TestingState>(TESTING_STATE_COMMAND);
const folder = () => path.join(workspaceRoot().fsPath, 'waiting');
const file = () => path.join(folder(), 'terminal-waits.carrier.json');

// The sandbox's terminal is never called this: `until` never holds, and each wait is ten minutes.
const WAITS = `{
  "operation": "GetTerminalInformation",
  "version": "1.0.2",
  "params": { "ZipCode": "68507", "CountryCode": "USA" },
  "retry": {
    "until": { "reply": { "Result[0].TerminalDetails.TerminalName": "Never Such A Terminal" } },
    "attempts": 50,
    "delayMs": 600000
  },
  "expect": { "status": 200 }
}
`;

function all(nodes: readonly TestNode[]): TestNode[] {
  return nodes.flatMap((n) => [n, ...all(n.children)]);
}

describe('test explorer: a test that waits', () => {
  before(async () => {
    await carrierApi();
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file()), new TextEncoder().encode(WAITS));
  });

  after(async () => {
    await vscode.workspace.fs.delete(vscode.Uri.file(folder()), { recursive: true }).then(undefined, () => undefined);
  });

  it('says it is waiting, and Cancel ends the wait at once: cancelled after one send, not failed', async () => {
    await waitFor(async () => all((await state()).tree).some((n) => n.id === file()), 'the waiting test listed', 30_000);
    const waitsBefore = (await state()).waits;
    const running = executeTestCommand<RunOutcome>(TESTING_RUN_COMMAND, [file()]);
    await waitFor(async () => (await state()).waits > waitsBefore, 'the test to wait after its first attempt', 30_000);
    await executeTestCommand(TESTING_CANCEL_COMMAND);
    // Ten minutes' wait ahead: only a cancel that ends it lets the run finish within mocha's timeout.
    const outcome = await running;
    const test = outcome.tests.find((t) => t.file === file());
    assert.ok(test, JSON.stringify(outcome.tests));
    assert.equal(test.status, 'skipped', JSON.stringify(test));
    assert.equal(test.skipReason, 'cancelled');
    assert.equal(test.waited?.sends, 1, 'one send, then the wait that was cancelled');
    assert.equal(test.waited?.cancelled, true);
    assert.match(outcome.output, /attempt 1 of 50 sent; waiting 10 min 0 s before the next/);
    assert.match(outcome.output, /attempt 1 of 50, cancelled/);
  });
});
