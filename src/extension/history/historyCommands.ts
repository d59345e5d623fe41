/** History view commands: open, send again, save as a request file, copy as curl, remove, clear. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Exchange, Namespaces } from '../../core';
import { findEnvironment, loadEnvironmentsFrom, SANDBOX_ENVIRONMENT } from '../coreLight';
import { guarded, reportError } from '../errors';
import { saveRequestFile } from '../saveRequestFile';
import type { Log } from '../log';
import { curlWithKeyVariable } from '../curl';
import type { HistoryEntry } from './historyEntry';
import { historyRequestFile } from './historyRequestFile';
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
    // Returns the file written, so a caller (a test) can read it; `target` skips the dialog.
    vscode.commands.registerCommand(
      'carrier.history.saveAsRequestFile',
      async (arg?: HistoryEntry | string, target?: vscode.Uri): Promise<vscode.Uri | undefined> => {
        try {
          const exchange = await exchangeOf(history, arg);
          if (!exchange) return undefined;
          const made = historyRequestFile(exchange, namespacesFor(exchange));
          if ('problem' in made) {
            void vscode.window.showWarningMessage(`Carrier: this exchange cannot become a request file: ${made.problem}.`);
            return undefined;
          }
          const uri = await saveRequestFile(made.text, `${made.name}.carrier.json`, target);
          if (uri) log.info(`saved history entry ${exchange.id} as ${uri.toString(true)}`);
          return uri;
        } catch (err) {
          await reportError(log, 'Save as Request File', err);
          return undefined;
        }
      },
    ),
    // The request as kept (redacted): the masked key becomes $CARRIER_API_KEY, never the key itself.
    vscode.commands.registerCommand('carrier.history.copyAsCurl', async (arg?: HistoryEntry | string): Promise<string | undefined> => {
      try {
        const exchange = await exchangeOf(history, arg);
        if (!exchange) return undefined;
        const curl = curlWithKeyVariable(exchange.request);
        await vscode.env.clipboard.writeText(curl);
        vscode.window.setStatusBarMessage('$(copy) Copied the request as curl (the key as $CARRIER_API_KEY)', 3000);
        return curl;
      } catch (err) {
        await reportError(log, 'Copy as curl', err);
        return undefined;
      }
    }),
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

async function exchangeOf(history: HistoryStore, arg: HistoryEntry | string | undefined): Promise<Exchange | undefined> {
  const id = typeof arg === 'string' ? arg : arg?.id;
  if (!id) return undefined;
  const loaded = await history.get(id);
  if (!loaded) void vscode.window.showWarningMessage('Carrier: this History entry is no longer kept.');
  return loaded?.exchange;
}

/** The namespaces of the environment the exchange went to, as the folder of its file (or the workspace) defines it. */
function namespacesFor(exchange: Exchange): Namespaces {
  const source = exchange.source && (/^file:/i.test(exchange.source) ? vscode.Uri.parse(exchange.source).fsPath : exchange.source);
  const starts = source && path.isAbsolute(source) ? [path.dirname(source)] : (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const loaded = loadEnvironmentsFrom(starts);
  return (findEnvironment(loaded, exchange.environment) ?? findEnvironment(loaded, SANDBOX_ENVIRONMENT) ?? loaded.environments[0]).namespaces;
}
