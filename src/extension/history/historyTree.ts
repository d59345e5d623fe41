/** The History view: one row per exchange, newest first; a click opens it in the results panel. */
import * as vscode from 'vscode';
import type { HistoryEntry, Outcome } from './historyEntry';
import type { HistoryStore } from './historyStore';

const ICONS: Record<Outcome, vscode.ThemeIcon> = {
  ok: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  fault: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  'in-body': new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  http: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  error: new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('testing.iconErrored')),
};

const OUTCOME_TEXT: Record<Outcome, string> = {
  ok: 'succeeded',
  fault: 'SOAP fault',
  'in-body': 'error in the reply body',
  http: 'HTTP error',
  error: 'failed',
};

export class HistoryTreeProvider implements vscode.TreeDataProvider<HistoryEntry> {
  readonly onDidChangeTreeData: vscode.Event<void>;

  constructor(private readonly store: HistoryStore) {
    this.onDidChangeTreeData = store.onDidChange;
  }

  getChildren(element?: HistoryEntry): HistoryEntry[] {
    return element ? [] : [...this.store.entries()];
  }

  getTreeItem(entry: HistoryEntry): vscode.TreeItem {
    const item = new vscode.TreeItem(entry.title, vscode.TreeItemCollapsibleState.None);
    item.id = entry.id;
    item.iconPath = ICONS[entry.outcome];
    item.description = [entry.environment, entry.status, entry.totalMs !== undefined ? `${Math.round(entry.totalMs)} ms` : undefined, relativeTime(entry.startedAt)]
      .filter((p) => p !== undefined && p !== '')
      .join(' · ');
    item.tooltip = tooltip(entry);
    item.contextValue = entry.source ? 'exchange.resendable' : 'exchange';
    item.command = { command: 'carrier.history.open', title: 'Open in Results Panel', arguments: [entry] };
    item.accessibilityInformation = { label: `${entry.title}, ${OUTCOME_TEXT[entry.outcome]}${entry.environment ? `, ${entry.environment}` : ''}` };
    return item;
  }
}

function tooltip(entry: HistoryEntry): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${entry.title}** — ${OUTCOME_TEXT[entry.outcome]}\n\n`);
  const rows: Array<[string, string | number | undefined]> = [
    ['Environment', entry.environment],
    ['Endpoint', entry.endpoint],
    ['Binding', entry.binding],
    ['HTTP status', entry.status],
    ['Time', entry.totalMs !== undefined ? `${Math.round(entry.totalMs)} ms` : undefined],
    ['Size', entry.size !== undefined ? `${entry.size} bytes` : undefined],
    ['Started', new Date(entry.startedAt).toLocaleString()],
  ];
  for (const [k, v] of rows) if (v !== undefined) md.appendText(`${k}: ${v}\n`);
  return md;
}

function relativeTime(iso: string): string {
  const seconds = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}
