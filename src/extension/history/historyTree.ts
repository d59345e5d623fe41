/**
 * The History view: one row per exchange, newest first; a click opens it in the results panel.
 * Each row says what historyRow.ts makes of its entry: the call, where it came from and the
 * judgement kept with it (its verdict, the request file's expectations as judged when it was sent).
 */
import * as vscode from 'vscode';
import { verdictIcon } from '../verdictLook';
import { expectationsLine, type HistoryEntry } from './historyEntry';
import { historyRow, type HistoryRow } from './historyRow';
import type { HistoryStore } from './historyStore';

export class HistoryTreeProvider implements vscode.TreeDataProvider<HistoryEntry> {
  readonly onDidChangeTreeData: vscode.Event<void>;

  constructor(private readonly store: HistoryStore) {
    this.onDidChangeTreeData = store.onDidChange;
  }

  getChildren(element?: HistoryEntry): HistoryEntry[] {
    return element ? [] : [...this.store.entries()];
  }

  getTreeItem(entry: HistoryEntry): vscode.TreeItem {
    const row = historyRow(entry);
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = entry.id;
    item.iconPath = verdictIcon(row.verdict);
    item.description = row.description;
    item.tooltip = tooltip(entry, row);
    item.contextValue = row.contextValue;
    item.command = { command: 'carrier.history.open', title: 'Open in Results Panel', arguments: [entry] };
    item.accessibilityInformation = { label: row.accessibility };
    return item;
  }
}

function tooltip(entry: HistoryEntry, row: HistoryRow): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown('**');
  md.appendText(row.label);
  md.appendMarkdown('**');
  md.appendText(` — ${row.phrase}\n\n`);
  if (row.reason) md.appendText(`${row.reason}\n`);
  const e = entry.expectations;
  if (e) {
    md.appendText(`\n${expectationsLine(e)}${e.passed ? '' : ' — the test fails'} (the request file's expect, as sent)\n`);
    for (const f of e.failures) md.appendText(`  ✗ ${f}\n`);
  }
  md.appendText('\n');
  for (const [k, v] of row.details) md.appendText(`${k}: ${v}\n`);
  return md;
}
