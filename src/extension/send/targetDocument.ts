/** Which request file a command acts on: the one a menu or CodeLens passed, else the active editor's. */
import * as vscode from 'vscode';

export const REQUEST_LANGUAGE = 'carrier-request';

export async function targetDocument(arg: unknown): Promise<vscode.TextDocument | undefined> {
  if (arg instanceof vscode.Uri) return vscode.workspace.openTextDocument(arg);
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId === REQUEST_LANGUAGE) return editor.document;
  void vscode.window.showInformationMessage('Carrier: open a request file (*.carrier.json) first.');
  return undefined;
}
