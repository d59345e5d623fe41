/**
 * The next request for a number a reply carries ("Trace this PRO", "Get this BOL's PDF"): a new,
 * untitled request file written from core's sample of the operation (the same one New Request…
 * writes) with the number filled in, opened beside the results panel, never over it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Exchange } from '../../core';
import { exchangeTitle } from '../coreLight';
import { engine, type Engine } from '../engineBundle';
import type { FollowUp } from '../../webview/protocol';
import { sourceUri } from './requestSource';

interface Written {
  readonly name: string;
  readonly text: string;
}

/** What a follow-up needs of core: the engine's, or (the host tests) core's own. */
export type FollowUpCore = Pick<Engine, 'findShape' | 'sampleRequestFile' | 'TEMPLATE'>;

/** The request file's text and a name for it. Exported for the host tests, which bring core's functions. */
export function followUpFile(exchange: Exchange, request: FollowUp, core: FollowUpCore = engine()): Written {
  const operation = request.kind === 'trace-pro' ? 'TraceShipment' : 'GetBillOfLadingPdf';
  const { findShape, sampleRequestFile, TEMPLATE } = core;
  const shape = findShape(operation);
  if (!shape) throw new Error(`${operation} has more than one version in the catalog; the follow-up needs one`);
  const binding = exchange.binding && shape.bindings.includes(exchange.binding) ? exchange.binding : undefined;
  const file = sampleRequestFile(shape, binding, TEMPLATE);
  const params = (file.params ?? {}) as Record<string, unknown>;
  let name: string;
  let description: string;
  if (request.kind === 'trace-pro') {
    const inner = (params.request ?? {}) as Record<string, unknown>;
    params.request = { ...inner, TraceNumbers: [request.pro], TraceType: 'PRO' };
    name = `trace-pro-${request.pro}`;
    description = `Trace PRO ${request.pro}`;
  } else {
    // billOfLadingId is an int; a BolID that is not one is kept as written, for validation to name.
    params.billOfLadingId = /^\d{1,15}$/.test(request.bolId) ? Number(request.bolId) : request.bolId;
    name = `bill-of-lading-${request.bolId}-pdf`;
    description = `The PDF of bill of lading ${request.bolId}`;
  }
  const content = {
    operation: file.operation,
    version: file.version,
    binding: file.binding,
    // The number exists in the environment that returned it, so the new request goes there too.
    ...(exchange.environment ? { environment: exchange.environment } : {}),
    description,
    params,
  };
  const lines = JSON.stringify(content, null, 2).split('\n');
  const note = `  // From the reply of ${exchangeTitle(exchange)}${exchange.source ? ` (${path.basename(sourceUri(exchange)?.path ?? exchange.source)})` : ''}, ${exchange.startedAt}.`;
  return { name: `${name.replace(/[^\w.-]+/g, '_').slice(0, 80)}.carrier.json`, text: `${[lines[0], note, ...lines.slice(1)].join('\n')}\n` };
}

export async function openFollowUp(exchange: Exchange, request: FollowUp, panelColumn: vscode.ViewColumn | undefined): Promise<vscode.TextEditor> {
  const { name, text } = followUpFile(exchange, request);
  const source = sourceUri(exchange);
  const folder =
    (source && source.scheme === 'file' && vscode.workspace.getWorkspaceFolder(source) ? vscode.Uri.joinPath(source, '..') : undefined) ??
    vscode.workspace.workspaceFolders?.[0]?.uri;
  const doc = folder
    ? await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, name).with({ scheme: 'untitled' }))
    : await vscode.workspace.openTextDocument({ language: 'carrier-request', content: text });
  // Filled before it is shown, so the editor never appears empty; the same follow-up twice
  // finds the untitled file it opened before and writes it afresh, not twice.
  if (folder && doc.getText() !== text) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
    await vscode.workspace.applyEdit(edit);
  }
  const shown = doc.languageId === 'carrier-request' ? doc : await vscode.languages.setTextDocumentLanguage(doc, 'carrier-request');
  return vscode.window.showTextDocument(shown, { preview: false, viewColumn: editorColumn(panelColumn) });
}

/** A group with a text editor that is not the panel's; else the one beside the panel. */
function editorColumn(panelColumn: vscode.ViewColumn | undefined): vscode.ViewColumn {
  const other = vscode.window.visibleTextEditors.find((e) => e.viewColumn !== undefined && e.viewColumn !== panelColumn && e.document.uri.scheme !== 'output');
  if (other?.viewColumn) return other.viewColumn;
  if (panelColumn !== undefined && panelColumn > vscode.ViewColumn.One) return panelColumn - 1;
  return vscode.ViewColumn.Beside;
}
