/**
 * The History view: one row per exchange, newest first; a click opens it in the results panel.
 * Each row shows the judgement kept with it (its verdict, the request file's expectations as
 * judged when it was sent).
 */
import * as vscode from 'vscode';
import { type VerdictKind } from '../../core';
import { verdictIcon, verdictPhrase } from '../verdictLook';
import { expectationsLine, type HistoryEntry } from './historyEntry';
import type { HistoryStore } from './historyStore';

/** Entries kept before core's verdict existed carry an `outcome` of their own words. */
const LEGACY: Record<string, VerdictKind> = { ok: 'success', fault: 'fault', 'in-body': 'in-body-error', http: 'http-error', error: 'transport-error' };

function verdictOf(entry: HistoryEntry): VerdictKind {
  return entry.verdict ?? LEGACY[(entry as { outcome?: string }).outcome ?? ''] ?? 'not-read';
}

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
    item.iconPath = verdictIcon(verdictOf(entry));
    // The judgement made when it was sent: the verdict as the panel's header says it, and the file's expectations.
    item.description = [
      entry.environment,
      entry.label ?? entry.status,
      entry.expectations && expectationsMark(entry.expectations),
      entry.totalMs !== undefined ? `${Math.round(entry.totalMs)} ms` : undefined,
      relativeTime(entry.startedAt),
    ]
      .filter((p) => p !== undefined && p !== '')
      .join(' · ');
    item.tooltip = tooltip(entry);
    item.contextValue = entry.source ? 'exchange.resendable' : 'exchange';
    item.command = { command: 'carrier.history.open', title: 'Open in Results Panel', arguments: [entry] };
    item.accessibilityInformation = {
      label: `${entry.title}, ${verdictPhrase(verdictOf(entry))}${entry.expectations ? `, ${expectationsLine(entry.expectations)}${entry.expectations.passed ? '' : ', failed'}` : ''}${entry.environment ? `, ${entry.environment}` : ''}`,
    };
    return item;
  }
}

/** `✓ 3/3 expectations held`: whether the file's expect passed, what every request expects included. */
function expectationsMark(e: NonNullable<HistoryEntry['expectations']>): string {
  return `${e.passed ? '✓' : '✗'} ${expectationsLine(e)}`;
}

function tooltip(entry: HistoryEntry): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${entry.title}** — ${verdictPhrase(verdictOf(entry))}\n\n`);
  if (entry.reason) md.appendText(`${entry.reason}\n`);
  const e = entry.expectations;
  if (e) {
    md.appendText(`\n${expectationsLine(e)}${e.passed ? '' : ' — the test fails'} (the request file's expect, as sent)\n`);
    for (const f of e.failures) md.appendText(`  ✗ ${f}\n`);
    md.appendText('\n');
  }
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
