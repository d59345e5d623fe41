/**
 * The Traffic Inspector view: one row per recorded exchange, newest first — operation, binding,
 * status, duration and time, with an icon for a fault, an error, an in-body error or a request
 * the catalog does not know. A click opens the exchange in the results panel.
 */
import * as vscode from 'vscode';
import { classifyExchange, exchangeTitle } from '../coreLight';
import { engine } from '../engineBundle';
import type { RecordedExchange } from '../core-adapter';
import { verdictIcon, verdictPhrase } from '../verdictLook';
import type { InspectorController } from './inspectorController';

/** HH:MM:SS local time (toLocaleTimeString writes midnight as 24:… in some locales). */
function time(iso: string): string | undefined {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return undefined;
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

export function rowOf(r: RecordedExchange): vscode.TreeItem {
  const x = r.exchange;
  const verdict = classifyExchange(x);
  const title = exchangeTitle(x);
  // The operation leads: a narrow side bar cuts the end of a row, and the time matters least.
  const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.None);
  item.id = x.id;
  item.iconPath = verdictIcon(verdict.kind);
  const status = x.error ? x.error.kind : x.reply ? String(x.reply.status) : 'no reply';
  item.description = [
    x.binding ? engine().BINDING_LABELS[x.binding] : undefined,
    x.fault ? `${status} fault` : status,
    x.timing ? `${Math.round(x.timing.totalMs)} ms` : undefined,
    time(x.startedAt),
  ]
    .filter((p) => p !== undefined)
    .join(' · ');
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**#${r.seq} ${title}** — ${verdictPhrase(verdict.kind)}\n\n`);
  md.appendText(`${new Date(x.startedAt).toLocaleString()}\n`);
  md.appendText(`${x.request.method} ${x.request.url}\n`);
  if (!verdict.ok) md.appendText(`${verdict.reason}\n`);
  item.tooltip = md;
  // Only a call of the catalog can become a request file.
  item.contextValue = r.recognition.kind === 'operation' ? 'inspectorExchange.known' : 'inspectorExchange.unknown';
  item.command = { command: 'carrier.inspector.open', title: 'Open in Results Panel', arguments: [r] };
  item.accessibilityInformation = { label: `${title}, ${verdictPhrase(verdict.kind)}, ${status}${x.binding ? `, ${engine().BINDING_LABELS[x.binding]}` : ''}` };
  return item;
}

export class InspectorTreeProvider implements vscode.TreeDataProvider<RecordedExchange> {
  readonly onDidChangeTreeData: vscode.Event<void>;

  constructor(private readonly inspector: InspectorController) {
    this.onDidChangeTreeData = inspector.onDidChangeExchanges;
  }

  getChildren(element?: RecordedExchange): RecordedExchange[] {
    return element ? [] : [...this.inspector.exchanges()];
  }

  getTreeItem(r: RecordedExchange): vscode.TreeItem {
    return rowOf(r);
  }
}
