import * as vscode from 'vscode';

export const EXTENSION_ID = 'carrier-workbench.carrier-workbench';

/** The throwaway copy of test/vscode/workspace that the runner opened. */
export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the suite needs the test workspace open');
  return folder.uri;
}

export async function openWorkspaceFile(relative: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), relative));
  await vscode.window.showTextDocument(doc);
  return doc;
}
