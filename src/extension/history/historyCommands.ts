/** History view commands: open, send again, remove, clear. */
import * as vscode from 'vscode';
import { guarded } from '../errors';
import type { Log } from '../log';
import type { HistoryEntry } from './historyEntry';
import type { HistoryStore } from './historyStore';

/** What History asks of the results panel (src/extension/panel/resultsPanel.ts, which stands above History and reads its store). */
export interface EntryViewer {
  showById(id: string): Promise<unknown>;
  /** Brings the panel forward if it is open; false when there is none. */
  reveal(): Promise<boolean>;
}

export function registerHistoryCommands(history: HistoryStore, panel: EntryViewer, log: Log): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      'carrier.history.open',
      guarded(log, 'Open History Entry', async (entry?: HistoryEntry) => {
        if (entry?.id) await panel.showById(entry.id);
      }),
    ),
    // Sending again re-reads the request file as it is now, with the current key and settings:
    // that is what a tester means by "again", and it never needs a stored secret.
    vscode.commands.registerCommand(
      'carrier.history.resend',
      guarded(log, 'Send Again', async (entry?: HistoryEntry) => {
        if (!entry?.source) return;
        await vscode.commands.executeCommand('carrier.send', vscode.Uri.parse(entry.source));
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.history.remove',
      guarded(log, 'Remove from History', async (entry?: HistoryEntry) => {
        if (entry?.id) await history.remove(entry.id);
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.history.clear',
      guarded(log, 'Clear History', async () => {
        if (history.entries().length === 0) return;
        const ok = await vscode.window.showWarningMessage('Clear the Carrier history of this workspace?', { modal: true }, 'Clear');
        if (ok === 'Clear') await history.clear();
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.showResults',
      guarded(log, 'Show Results Panel', async () => {
        if (await panel.reveal()) return;
        const latest = history.entries()[0];
        if (latest) await panel.showById(latest.id);
        else void vscode.window.showInformationMessage('Carrier: nothing sent yet in this workspace.');
      }),
    ),
  ];
}
