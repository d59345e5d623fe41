import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { carrierApi } from './support/extension';
import { hasBrowserHost, typeIntoWorkbench } from './support/control';
import { nextEvent, waitFor } from './support/wait';
import { openWorkspaceFile, workspaceRoot } from './support/workspace';

describe('API keys', () => {
  // Looks like a real key (50 mixed-case letters and digits) and is unique to this run.
  const key = `Tk${Date.now().toString(36)}${'Zq9x'.repeat(12)}`.slice(0, 50);

  it('are set through a password input box and kept only in SecretStorage', async function () {
    if (!hasBrowserHost()) this.skip(); // typing into the input box needs the browser host
    const api = await carrierApi();
    assert.equal(await api.hasApiKey('sandbox'), false);

    const done = vscode.commands.executeCommand('carrier.setApiKey');
    assert.ok(await typeIntoWorkbench(key), 'typed the key into the input box');
    await done;
    await waitFor(() => api.hasApiKey('sandbox'), 'the key to be stored');

    // A real send with the key: it is on the wire, and must be nowhere in history, state or logs.
    await openWorkspaceFile('requests/terminal.carrier.json');
    const shown = nextEvent(api.onDidRenderResults, (r) => r.summary.title === 'GetTerminalInformation 1.0.2', 'the send with the key');
    await vscode.commands.executeCommand('carrier.send');
    await shown;

    // Give state and logs a moment to flush before looking for the key on disk.
    await new Promise((r) => setTimeout(r, 1500));
    const leaks = findInFiles(searchRoots(api.storage), key);
    assert.deepEqual(leaks, [], 'the key appears in no file');
  });

  it('are cleared by Clear API Key', async function () {
    if (!hasBrowserHost()) this.skip();
    const api = await carrierApi();
    await vscode.commands.executeCommand('carrier.clearApiKey');
    await waitFor(async () => !(await api.hasApiKey('sandbox')), 'the key to be cleared');
    assert.deepEqual(findInFiles(searchRoots(api.storage), key), []);
  });
});

/** The workspace, the extension's storage and logs, and the whole user-data folder above them. */
function searchRoots(storage: { workspace?: vscode.Uri; global: vscode.Uri; log: vscode.Uri }): string[] {
  const roots = [workspaceRoot().fsPath, storage.global.fsPath, storage.log.fsPath];
  if (storage.workspace) roots.push(storage.workspace.fsPath);
  // <user-data>/User/globalStorage/<extension id>
  roots.push(path.resolve(storage.global.fsPath, '..', '..', '..'));
  return roots;
}

function findInFiles(roots: readonly string[], needle: string): string[] {
  const hits = new Set<string>();
  const seen = new Set<string>();
  const visit = (p: string): void => {
    if (seen.has(p)) return;
    seen.add(p);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    } else if (stat.isFile() && stat.size < 50_000_000) {
      const bytes = fs.readFileSync(p);
      if (bytes.includes(needle) || bytes.includes(Buffer.from(needle, 'utf16le'))) hits.add(p);
    }
  };
  roots.forEach(visit);
  return [...hits];
}
