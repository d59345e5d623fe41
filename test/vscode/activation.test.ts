import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestingState } from '../../src/extension/testing/testHooks';
import type { TestNode } from '../../src/extension/testing/testTree';
import { hasBrowserHost, screenshot, workbench } from './support/control';
import { executeTestCommand, TESTING_STATE_COMMAND } from './support/testCommands';
import { waitFor } from './support/wait';
import { EXTENSION_ID, openWorkspaceFile } from './support/workspace';

const all = (nodes: readonly TestNode[]): TestNode[] => nodes.flatMap((n) => [n, ...all(n.children)]);

describe('activation', () => {
  // First of the suites: the window is as fresh as a clone of a repository of collections.
  it('activates in a workspace that holds request files before any is opened, and the Testing view lists its collections', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is loaded`);
    await waitFor(() => ext.isActive, 'activation by workspaceContains', 60_000);
    const opened = vscode.workspace.textDocuments.filter(
      (d) => d.languageId === 'carrier-request' || d.fileName.endsWith('.carrier.json') || d.fileName.endsWith('collection.json'),
    );
    assert.deepEqual(
      opened.map((d) => d.fileName),
      [],
      'no request or collection file was opened',
    );

    // What a QA user does first: open the Testing view. Its tree asks the controller for its items.
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    if (hasBrowserHost()) {
      // The first folder of the workspace, then its collections inside it, as a person unfolds them.
      await workbench({ action: 'click', selector: '.test-explorer .monaco-list-row', hasText: 'workspace', timeoutMs: 30_000 });
      const row = await workbench({ action: 'text', selector: '.test-explorer .monaco-list-row', hasText: 'collections' });
      assert.match(row.text ?? '', /collections/);
      await screenshot('testing-view-fresh-window');
    }
    const state = await executeTestCommand<TestingState>(TESTING_STATE_COMMAND);
    const ids = all(state.tree).map((n) => n.label);
    assert.ok(ids.includes('01-create-bill-of-lading.carrier.json'), JSON.stringify(ids));
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.languageId === 'carrier-request').length, 0, 'listing opened no file either');
  });

  it('opens a .carrier.json file as the carrier-request language', async () => {
    const doc = await openWorkspaceFile('requests/terminal.carrier.json');
    assert.equal(doc.languageId, 'carrier-request');
  });

  it('declares the activation events that make it so', () => {
    const events: string[] = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.activationEvents;
    for (const e of ['onLanguage:carrier-request', 'workspaceContains:**/*.carrier.json', 'workspaceContains:**/collection.json'])
      assert.ok(events.includes(e), `${e} in ${events.join(', ')}`);
  });

  it('registers every contributed command', async () => {
    const contributed: Array<{ command: string }> = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.commands;
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });
});
