/**
 * Restricted Mode, decided in one place (docs/architecture.md#the-engine-door): the embedded
 * sandbox is always reachable; an address a workspace file defines (and the key and TLS files it
 * names) only once the workspace is trusted. Sends, the Test Explorer, the contract check, the
 * comparison and the traffic inspector all ask `mayReach`, and nothing else in the extension reads
 * `vscode.workspace.isTrusted`.
 */
import * as vscode from 'vscode';

/** Whether requests may go to `env` now: its `embedded` (an Environment) or `embeddedSandbox` (an EnvironmentDef) flag, or trust. */
export function mayReach(env: { readonly embedded?: boolean; readonly embeddedSandbox?: boolean }): boolean {
  return Boolean(env.embedded ?? env.embeddedSandbox) || vscode.workspace.isTrusted;
}

/** Says why nothing was sent (`message`) and offers to manage Workspace Trust. */
export async function explainRestricted(message: string): Promise<void> {
  const choice = await vscode.window.showWarningMessage(message, 'Manage Workspace Trust');
  if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
}
