/** How a command failure reaches the user: one message, details in the log. */
import * as vscode from 'vscode';
import { isEngineError } from './engineBundle';
import type { Log } from './log';

export async function reportError(log: Log, action: string, err: unknown): Promise<void> {
  if (isEngineError(err, 'request-file')) {
    // The findings are already in the Problems panel, located; no need to repeat them here.
    log.warn(`${action}: ${err.message}`);
    const choice = await vscode.window.showErrorMessage(`Carrier: the request file has errors, so nothing was sent.`, 'Show Problems');
    if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
    return;
  }
  const message = err instanceof Error ? err.message : String(err);
  log.error(`${action} failed: ${err instanceof Error && err.stack ? err.stack : message}`);
  const choice = await vscode.window.showErrorMessage(`Carrier: ${action} failed: ${message}`, 'Show Log');
  if (choice === 'Show Log') log.show(true);
}

/** Wraps a command body so a thrown error becomes a message instead of a silent rejection. */
export function guarded<A extends unknown[]>(log: Log, action: string, fn: (...args: A) => unknown): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      await reportError(log, action, err);
    }
  };
}
