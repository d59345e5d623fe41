import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './support/wait';
import { EXTENSION_ID, openWorkspaceFile } from './support/workspace';

describe('activation', () => {
  it('activates when a .carrier.json file is opened, as the carrier-request language', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is loaded`);
    assert.equal(ext.isActive, false, 'nothing but a request file activates the extension');
    const doc = await openWorkspaceFile('requests/terminal.carrier.json');
    assert.equal(doc.languageId, 'carrier-request');
    await waitFor(() => ext.isActive, 'extension active');
  });

  it('registers every contributed command', async () => {
    const contributed: Array<{ command: string }> = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.commands;
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });
});
