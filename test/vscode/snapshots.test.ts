/**
 * Reply snapshots in the Test Explorer (docs/collections.md#snapshots): a first run writes the
 * missing snapshot and says so; a kept snapshot that no longer matches the reply fails the test
 * with a `snapshot` message that offers Show Snapshot Diff and Accept; the diff opens the kept
 * snapshot against the reply's, Accept writes the reply's over it and closes the diff, and the
 * next run passes. GetTerminalInformation on the embedded sandbox: no key, the same reply each time.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../src/extension/testing/runReporter';
import type { TestingState } from '../../src/extension/testing/testHooks';
import type { TestNode } from '../../src/extension/testing/testTree';
import { screenshot } from './support/control';
import { carrierApi } from './support/extension';
import { executeTestCommand, TESTING_RUN_COMMAND, TESTING_STATE_COMMAND } from './support/testCommands';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

const state = () => executeTestCommand<TestingState>(TESTING_STATE_COMMAND);
const folder = () => path.join(workspaceRoot().fsPath, 'snapshotted');
const file = () => path.join(folder(), 'terminal.carrier.json');
const snap = () => path.join(folder(), '__snapshots__', 'terminal.carrier.json.soap11.snap');

const REQUEST = `{
  "operation": "GetTerminalInformation",
  "version": "1.0.2",
  "params": { "ZipCode": "68507", "CountryCode": "USA" },
  "snapshot": true,
  "expect": { "status": 200 }
}
`;
const EDITED = '"Not The Terminal It Was"';

function all(nodes: readonly TestNode[]): TestNode[] {
  return nodes.flatMap((n) => [n, ...all(n.children)]);
}

async function readText(at: string): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(at)));
}

async function run(): Promise<{ outcome: RunOutcome; test: RunOutcome['tests'][number] }> {
  const outcome = await executeTestCommand<RunOutcome>(TESTING_RUN_COMMAND, [file()]);
  const test = outcome.tests.find((t) => t.file === file());
  assert.ok(test, JSON.stringify(outcome.tests));
  return { outcome, test };
}

function snapshotDiffTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'carrier-snapshot');
}

describe('test explorer: reply snapshots', () => {
  before(async () => {
    await carrierApi();
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file()), new TextEncoder().encode(REQUEST));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(vscode.Uri.file(folder()), { recursive: true }).then(undefined, () => undefined);
  });

  it('writes a missing snapshot, fails on a changed one with a diff to show, and Accept writes the reply over it', async () => {
    await waitFor(async () => all((await state()).tree).some((n) => n.id === file()), 'the snapshotted test listed', 30_000);

    // First run: no snapshot yet, so it is written and said.
    const first = await run();
    assert.equal(first.test.status, 'passed', JSON.stringify(first.test));
    assert.match(first.outcome.output, /Snapshot written: .*__snapshots__\/terminal\.carrier\.json\.soap11\.snap/);
    const kept = await readText(snap());
    const line = kept.split('\n').find((l) => /\.TerminalName = "/.test(l));
    assert.ok(line, kept);

    // One value edited in the kept snapshot: the reply no longer matches it.
    const [at] = line.split(' = ');
    await vscode.workspace.fs.writeFile(vscode.Uri.file(snap()), new TextEncoder().encode(kept.replace(line, `${at} = ${EDITED}`)));
    const second = await run();
    assert.equal(second.test.status, 'failed', JSON.stringify(second.test));
    const message = second.test.messages.find((m) => m.kind === 'snapshot');
    assert.ok(message, JSON.stringify(second.test.messages));
    assert.ok(message.message.startsWith(`${at}: snapshot ${EDITED}, reply "`), message.message);
    assert.equal(message.expected, EDITED, 'the peek view diffs the kept value against the reply');
    assert.equal(message.contextValue, 'carrierSnapshot', 'its menu offers Show Snapshot Diff and Accept');
    assert.match(second.outcome.output, /Snapshot differs: .*terminal\.carrier\.json\.soap11\.snap — Carrier: Show Snapshot Diff/);

    // Show Snapshot Diff, as the test message's menu calls it: the kept snapshot against the reply's.
    const shown = await vscode.commands.executeCommand<string | undefined>('carrier.showSnapshotDiff', { test: { id: file() } });
    assert.equal(shown, snap());
    await waitFor(async () => snapshotDiffTab() !== undefined, 'the snapshot diff tab', 10_000);
    const input = snapshotDiffTab()!.input as vscode.TabInputTextDiff;
    assert.equal(input.original.fsPath, snap());
    assert.equal(snapshotDiffTab()!.label, 'terminal.carrier.json.soap11.snap: kept ↔ this reply');
    const reply = (await vscode.workspace.openTextDocument(input.modified)).getText();
    assert.ok(reply.includes(`${at} = "`) && !reply.includes(EDITED), reply);
    await screenshot('snapshot-diff');

    // Accept, as the diff editor's title button calls it (with the modified side's resource).
    const accepted = await vscode.commands.executeCommand<string | undefined>('carrier.acceptSnapshot', input.modified);
    assert.equal(accepted, snap());
    assert.equal(await readText(snap()), reply, 'the reply is the kept snapshot now');
    await waitFor(async () => snapshotDiffTab() === undefined, 'the diff tab closed', 10_000);

    const third = await run();
    assert.equal(third.test.status, 'passed', JSON.stringify(third.test));
    assert.doesNotMatch(third.outcome.output, /Snapshot (written|differs)/);
  });
});
