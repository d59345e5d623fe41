/**
 * The sandbox's saved state (its data folder) does not read: the sandbox does not start, and an
 * error notification says which file and offers "Start empty (keep old files aside)", which moves
 * the old state files into a backup folder beside them (src/sandbox/state/unreadable.ts) and starts
 * again — never a silent restart that would hand out ids the lost state had used.
 */
import * as vscode from 'vscode';
import type { Log } from '../log';

export const START_EMPTY = 'Start empty (keep old files aside)';

let offering = false;

/** What the sandbox's SandboxStateUnreadableError carries (the bundle is required at run time: told by its `code`, not its class or name). */
interface UnreadableState extends Error {
  readonly code: 'sandbox-state-unreadable';
  readonly file: string;
  setAside(log?: (line: string) => void): string | undefined;
}

export function isUnreadableState(err: unknown): err is UnreadableState {
  return (
    err instanceof Error &&
    (err as Partial<UnreadableState>).code === 'sandbox-state-unreadable' &&
    typeof (err as Partial<UnreadableState>).setAside === 'function'
  );
}

/**
 * Shows the error without waiting for an answer (the send that asked for the sandbox fails with
 * it meanwhile); the action sets the old files aside and calls `start`.
 */
export function offerStartEmpty(err: UnreadableState, start: () => Promise<unknown>, log: Log): void {
  log.error(`sandbox: ${err.message}`);
  // Each send that needs the sandbox fails with the error; one offer at a time is enough.
  if (offering) return;
  offering = true;
  void vscode.window.showErrorMessage(`Carrier: the sandbox did not start: ${err.message}. Nothing was changed.`, START_EMPTY).then(async (choice) => {
    offering = false;
    if (choice !== START_EMPTY) return;
    try {
      const backup = err.setAside((line) => log.trace(`sandbox: ${line}`));
      if (backup) log.info(`sandbox: the old state files were moved to ${backup}`);
      await start();
      void vscode.window.showInformationMessage(`Carrier: the sandbox started empty${backup ? `; the old state is kept in ${backup}` : ''}.`);
    } catch (e) {
      void vscode.window.showErrorMessage(`Carrier: the sandbox could not start empty: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
}
