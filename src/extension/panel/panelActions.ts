/** What the results webview asks the extension to do that a sandboxed page cannot. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Exchange } from '../../core';
import type { HistoryStore } from '../history/historyStore';
import type { Log } from '../log';
import { bodyUri } from './bodyDocuments';
import { sourceUri } from './requestSource';

export async function copyText(text: string, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(`$(copy) Copied ${what}`, 2500);
}

/** Opens the whole reply body (not the capped copy the webview has) in an untitled editor. */
export async function openFullBody(history: HistoryStore, exchangeId: string): Promise<void> {
  const loaded = await history.get(exchangeId);
  const reply = loaded?.exchange.reply;
  const body = await history.fullBody(exchangeId);
  if (!reply || !body) {
    void vscode.window.showWarningMessage('Carrier: this reply body is no longer available.');
    return;
  }
  if (!body.whole) void vscode.window.showWarningMessage('Carrier: only the first part of this body was kept in history.');
  const doc = await vscode.workspace.openTextDocument(bodyUri(exchangeId, extensionOf(reply.headers)));
  await vscode.window.showTextDocument(doc, { preview: false });
}

export async function saveDocument(history: HistoryStore, exchangeId: string, index: number, log: Log): Promise<void> {
  const loaded = await history.get(exchangeId);
  const doc = loaded?.exchange.documents[index];
  if (!doc || doc.base64 === '') {
    void vscode.window.showWarningMessage('Carrier: this document is no longer available (large documents are not kept in history).');
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const fileName = safeFileName(doc.name, doc.mediaType === 'application/pdf' ? '.pdf' : '.bin');
  const target = await vscode.window.showSaveDialog({
    title: 'Save Document',
    saveLabel: 'Save',
    defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
    filters: doc.mediaType === 'application/pdf' ? { 'PDF documents': ['pdf'] } : { 'All files': ['*'] },
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, Buffer.from(doc.base64, 'base64'));
  log.info(`saved ${doc.path} (${doc.size} bytes) to ${target.toString(true)}`);
  const choice = await vscode.window.showInformationMessage(`Carrier: saved ${path.basename(target.path)}.`, 'Open');
  if (choice === 'Open') await vscode.commands.executeCommand('vscode.open', target);
}

/** Opens the request file (at an expectation's line when given), in a group other than the panel's. */
export async function openSource(exchange: Exchange | undefined, line?: number, column?: number, panelColumn?: vscode.ViewColumn): Promise<void> {
  const uri = exchange && sourceUri(exchange);
  if (!uri) return;
  const at = line !== undefined ? new vscode.Position(Math.max(0, line - 1), Math.max(0, (column ?? 1) - 1)) : undefined;
  const other =
    vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString() && e.viewColumn !== panelColumn)?.viewColumn ??
    vscode.window.visibleTextEditors.find((e) => e.viewColumn !== undefined && e.viewColumn !== panelColumn)?.viewColumn;
  await vscode.window.showTextDocument(uri, {
    viewColumn: other ?? (panelColumn !== undefined && panelColumn > vscode.ViewColumn.One ? panelColumn - 1 : vscode.ViewColumn.Beside),
    ...(at ? { selection: new vscode.Range(at, at) } : {}),
  });
}

/** The file extension picks the editor's language for the virtual document. */
function extensionOf(headers: ReadonlyArray<readonly [string, string]>): string {
  const type = headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  if (/json/i.test(type)) return 'json';
  if (/html/i.test(type)) return 'html';
  if (/xml/i.test(type)) return 'xml';
  return 'txt';
}

// The name comes from the reply; it must not be able to point the dialog anywhere else.
function safeFileName(name: string, extension: string): string {
  const base =
    path
      .basename(name)
      .replace(/[^\w.\- ]+/g, '_')
      .slice(0, 100) || 'document';
  return base.toLowerCase().endsWith(extension) ? base : `${base}${extension}`;
}
