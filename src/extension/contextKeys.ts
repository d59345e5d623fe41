/** The when-clause context keys that package.json menus and keybindings read. */
import * as vscode from 'vscode';

export type ContextKey =
  'carrier.sending' | 'carrier.sandboxRunning' | 'carrier.inspectorRunning' | 'carrier.replaying' | 'carrier.snapshotDiffers' | 'carrier.probing';

export function setContext(key: ContextKey, value: boolean): void {
  void vscode.commands.executeCommand('setContext', key, value);
}
