/** The when-clause context keys that package.json menus and keybindings read. */
import * as vscode from 'vscode';

export type ContextKey =
  | 'carrier.sending'
  | 'carrier.sandboxRunning'
  | 'carrier.inspectorRunning'
  | 'carrier.replaying'
  | 'carrier.snapshotDiffers'
  | 'carrier.probing'
  | 'carrier.loading';

export function setContext(key: ContextKey, value: boolean): void {
  void vscode.commands.executeCommand('setContext', key, value);
}

/** A list a menu's `in` operator reads: the folders that hold request files (load/requestFolders.ts). */
export function setContextList(key: 'carrier.requestFolders', value: readonly string[]): void {
  void vscode.commands.executeCommand('setContext', key, value);
}
