/**
 * The Test Explorer: request files with an `expect` in collections/ are listed as tests under
 * their folders, run through VS Code's own testing.runAll against the embedded sandbox, and a
 * failing expectation is reported at its line with expected and actual.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
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

const CREATE = '01-create-bill-of-lading.carrier.json';
const PDF = '02-bill-of-lading-pdf.carrier.json';
const WRONG = '03-wrong-page-count.carrier.json';
const WRONG_TEXT = `{
  // Expects two documents where the sandbox sends one: fails on the "count" line.
  "operation": "GetBillOfLadingPdf",
  "version": "sandbox",
  "params": { "billOfLadingId": "{{bolId}}" },
  "expect": {
    "status": 200,
    "documents": {
      "type": "pdf",
      "count": 2
    }
  }
}
`;

const MOVED_TEXT = `{
  "operation": "GetTerminalInformation",
  "version": "1.0.2",
  "params": { "ZipCode": "68507", "CountryCode": "USA" },
  "expect": { "status": 200 }
}
`;

const state = () => executeTestCommand<TestingState>(TESTING_STATE_COMMAND);
const collection = () => path.join(workspaceRoot().fsPath, 'collections', 'bill-of-lading');

function all(nodes: readonly TestNode[]): TestNode[] {
  return nodes.flatMap((n) => [n, ...all(n.children)]);
}

function node(tree: readonly TestNode[], id: string): TestNode {
  const found = all(tree).find((n) => n.id === id);
  assert.ok(found, `${id} is listed; the tree: ${JSON.stringify(all(tree).map((n) => n.id))}`);
  return found;
}

function result(outcome: RunOutcome, name: string) {
  const found = outcome.tests.find((t) => path.basename(t.file) === name);
  assert.ok(found, `${name} ran; the output:\n${outcome.output}`);
  return found;
}

describe('test explorer', () => {
  const wrong = () => vscode.Uri.file(path.join(collection(), WRONG));

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Runs open the Test Results panel and the Testing view: leave the window as later suites expect.
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('workbench.view.explorer');
    await vscode.workspace.fs.delete(wrong()).then(undefined, () => undefined);
  });

  it('lists request files with an expect as tests, under their folders, at the request', async () => {
    await carrierApi();
    const { tree } = await state();
    const collections = node(tree, `folder:${path.dirname(collection())}`);
    assert.deepEqual(
      collections.children.map((c) => c.label),
      ['bill-of-lading'],
    );
    const suite = node(tree, `folder:${collection()}`);
    assert.deepEqual(
      suite.children.map((c) => c.label),
      [CREATE, PDF],
      'in run order',
    );
    const create = suite.children[0];
    assert.equal(create.file, path.join(collection(), CREATE));
    assert.equal(create.description, 'CreateBillOfLading 1.0.1');
    assert.equal(create.line, 1, 'the range is the request object');
    assert.equal(create.error, undefined);
    // Other suites may save request files of their own; these never have an expect.
    const withoutExpect = ['terminal', 'bol-pdf', 'broken', 'wrong-value'].map((n) => path.join(workspaceRoot().fsPath, 'requests', `${n}.carrier.json`));
    assert.deepEqual(
      all(tree)
        .filter((n) => withoutExpect.includes(n.file ?? ''))
        .map((n) => n.id),
      [],
      'files without expect are not tests',
    );
  });

  it('runs every test through testing.runAll against the embedded sandbox', async () => {
    const before = (await state()).runs;
    await vscode.commands.executeCommand('testing.runAll');
    await waitFor(async () => (await state()).runs > before, 'the run to finish', 60_000);
    const outcome = (await state()).lastRun!;
    for (const name of [CREATE, PDF]) {
      const r = result(outcome, name);
      assert.equal(r.status, 'passed', `${name}: ${JSON.stringify(r.messages)}`);
      assert.equal(r.listed, true);
    }
    // The runner names files relative to the workspace; in a multi-root window that starts with the folder's name.
    assert.match(outcome.output, /✓ (workspace\/)?collections\/bill-of-lading\/01-create-bill-of-lading\.carrier\.json \[soap11\] {2}\(sandbox, HTTP 200/);
    assert.match(outcome.output, /captured bolId=\d+/);
    assert.deepEqual(
      outcome.tests.filter((t) => t.status !== 'passed').map((t) => t.file),
      [],
      outcome.output,
    );
  });

  it('reports a failing expectation at its line with expected and actual, after the file it depends on', async () => {
    await vscode.workspace.fs.writeFile(wrong(), new TextEncoder().encode(WRONG_TEXT));
    await waitFor(async () => all((await state()).tree).some((n) => n.id === wrong().fsPath), 'the new file in the explorer');

    const outcome = await executeTestCommand<RunOutcome>(TESTING_RUN_COMMAND, [wrong().fsPath]);
    assert.deepEqual(
      outcome.tests.map((t) => [path.basename(t.file), t.status]),
      [
        [CREATE, 'passed'],
        [WRONG, 'failed'],
      ],
      'the producer of {{bolId}} ran first; nothing else ran',
    );
    const [message, ...more] = result(outcome, WRONG).messages;
    assert.equal(more.length, 0, JSON.stringify(more));
    assert.equal(message.message, 'documents: expected count = 2, got 1');
    assert.equal(message.expected, 'count = 2');
    assert.equal(message.actual, '1');
    assert.equal(message.file, wrong().fsPath);
    assert.equal(message.line, WRONG_TEXT.split('\n').findIndex((l) => l.includes('"count": 2')) + 1);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wrong()));
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    await screenshot('testing-failure');
    assert.match(outcome.output, /03-wrong-page-count\.carrier\.json:10:7 {2}documents: expected count = 2, got 1/);
  });

  it('lists the tests of a folder moved into the workspace, which the watcher reports as the folder alone', async () => {
    await state(); // listed already, and so following the watcher rather than searching for the first time
    // Built beside the workspace, then renamed in: one event, for the folder, as a checkout or `mv` makes.
    const outside = fs.mkdtempSync(path.join(path.dirname(workspaceRoot().fsPath), 'moved-'));
    fs.writeFileSync(path.join(outside, 'terminal.carrier.json'), MOVED_TEXT);
    const inside = path.join(workspaceRoot().fsPath, 'moved-in');
    fs.renameSync(outside, inside);
    try {
      const moved = path.join(inside, 'terminal.carrier.json');
      await waitFor(async () => all((await state()).tree).some((n) => n.id === moved), "the moved folder's test in the explorer");
    } finally {
      fs.rmSync(inside, { recursive: true, force: true });
    }
    await waitFor(async () => !all((await state()).tree).some((n) => n.id.startsWith(inside)), 'the removed folder gone from the explorer');
  });

  it('runs what the editor shows, unsaved edits included', async () => {
    const doc = await vscode.workspace.openTextDocument(wrong());
    await vscode.window.showTextDocument(doc);
    const line = doc.lineAt(WRONG_TEXT.split('\n').findIndex((l) => l.includes('"count": 2')));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, line.range, line.text.replace('2', '1'));
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);

    const outcome = await executeTestCommand<RunOutcome>(TESTING_RUN_COMMAND, [wrong().fsPath]);
    assert.equal(result(outcome, WRONG).status, 'passed', outcome.output);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
