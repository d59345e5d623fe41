/**
 * The Traffic Inspector view: one row per recorded exchange, newest first — operation, binding,
 * status, duration and time, with an icon for a fault, an error, an in-body error or a request
 * the catalog does not know. A click opens the exchange in the results panel.
 */
import * as vscode from 'vscode';
import { BINDING_LABELS } from '../../core/catalog/types';
import type { RecordedExchange } from '../core-adapter';
import type { InspectorController } from './inspectorController';

type Look = 'ok' | 'fault' | 'in-body' | 'http' | 'error' | 'unknown';

const ICONS: Record<Look, vscode.ThemeIcon> = {
  ok: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  fault: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  'in-body': new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  http: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  error: new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('testing.iconErrored')),
  unknown: new vscode.ThemeIcon('question'),
};

export function lookOf(r: RecordedExchange): Look {
  const x = r.exchange;
  if (x.error) return 'error';
  if (x.fault) return 'fault';
  if (r.recognition.kind === 'unknown') return 'unknown';
  if (x.findings.some((f) => f.severity === 'error' && f.kind === 'in-body')) return 'in-body';
  if (x.reply && (x.reply.status < 200 || x.reply.status >= 300)) return 'http';
  return 'ok';
}

/** `METHOD /path` for what the catalog does not know; the query is left out (it can be long). */
export function titleOf(r: RecordedExchange): string {
  const x = r.exchange;
  if (x.operation) return `${x.operation} ${x.version ?? ''}`.trim();
  return `${x.request.method} ${x.request.url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\?.*$/, '')}`;
}

/** HH:MM:SS local time (toLocaleTimeString writes midnight as 24:… in some locales). */
function time(iso: string): string | undefined {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return undefined;
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

export function rowOf(r: RecordedExchange): vscode.TreeItem {
  const x = r.exchange;
  const look = lookOf(r);
  // The operation leads: a narrow side bar cuts the end of a row, and the time matters least.
  const item = new vscode.TreeItem(titleOf(r), vscode.TreeItemCollapsibleState.None);
  item.id = x.id;
  item.iconPath = ICONS[look];
  const status = x.error ? x.error.kind : x.reply ? String(x.reply.status) : 'no reply';
  item.description = [x.binding ? BINDING_LABELS[x.binding] : undefined, x.fault ? `${status} fault` : status, x.timing ? `${Math.round(x.timing.totalMs)} ms` : undefined, time(x.startedAt)]
    .filter((p) => p !== undefined)
    .join(' · ');
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**#${r.seq} ${titleOf(r)}**\n\n`);
  md.appendText(`${new Date(x.startedAt).toLocaleString()}\n`);
  md.appendText(`${x.request.method} ${x.request.url}\n`);
  if (r.recognition.kind === 'unknown') md.appendText(`Not a call of the catalog: ${r.recognition.reason}\n`);
  if (x.fault) md.appendText(`Fault ${x.fault.code}: ${x.fault.reason}\n`);
  if (x.error) md.appendText(`${x.error.message}\n`);
  item.tooltip = md;
  // Only a call of the catalog can become a request file.
  item.contextValue = r.recognition.kind === 'operation' ? 'inspectorExchange.known' : 'inspectorExchange.unknown';
  item.command = { command: 'carrier.inspector.open', title: 'Open in Results Panel', arguments: [r] };
  item.accessibilityInformation = { label: `${titleOf(r)}, ${status}${x.binding ? `, ${BINDING_LABELS[x.binding]}` : ''}` };
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
