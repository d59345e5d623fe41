/**
 * Tags in the Test Explorer: a request file's `tags` and its collection.json's are the test
 * item's TestTags (the explorer's `@carrier:smoke` filter); a tag added to the file appears without a reload.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestingState } from '../../src/extension/testing/testHooks';
import type { TestNode } from '../../src/extension/testing/testTree';
import { carrierApi } from './support/extension';
import { executeTestCommand, TESTING_STATE_COMMAND } from './support/testCommands';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

const state = () => executeTestCommand<TestingState>(TESTING_STATE_COMMAND);
const folder = () => path.join(workspaceRoot().fsPath, 'tagged');
const trace = () => path.join(folder(), 'terminal.carrier.json');

function traceText(tags: readonly string[]): string {
  return `{
  "operation": "GetTerminalInformation",
  "version": "1.0.2",
  "params": { "ZipCode": "68507", "CountryCode": "USA" },
  "tags": ${JSON.stringify(tags)},
  "expect": { "status": 200 }
}
`;
}

function all(nodes: readonly TestNode[]): TestNode[] {
  return nodes.flatMap((n) => [n, ...all(n.children)]);
}

const find = async (id: string) => all((await state()).tree).find((n) => n.id === id);

async function writeText(file: string, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(vscode.Uri.file(file), new TextEncoder().encode(text));
}

describe('test explorer: tags', () => {
  before(async () => {
    await carrierApi();
    await writeText(path.join(folder(), 'collection.json'), JSON.stringify({ name: 'Tagged', tags: ['tracing'] }, null, 2));
    await writeText(trace(), traceText(['smoke']));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(vscode.Uri.file(folder()), { recursive: true }).then(undefined, () => undefined);
  });

  it("gives a test item its collection's tags and its file's", async () => {
    await waitFor(async () => (await find(trace()))?.tags?.length === 2, 'the tagged test listed', 30_000);
    assert.deepEqual((await find(trace()))!.tags, ['tracing', 'smoke']);
    // The folder's item is a suite, not a test: the tags are its tests'.
    assert.equal((await find(`folder:${folder()}`))?.tags, undefined);
  });

  it('shows a tag added to the file without a reload', async () => {
    await writeText(trace(), traceText(['smoke', 'slow']));
    await waitFor(async () => (await find(trace()))?.tags?.length === 3, 'the new tag on the item', 30_000);
    assert.deepEqual((await find(trace()))!.tags, ['tracing', 'smoke', 'slow']);
  });
});
