/**
 * The "Carrier" log channel. Only redacted material goes here: exchanges are redacted by core,
 * and API keys are never passed to it (callers log the environment name, not the key).
 */
import * as vscode from 'vscode';

export type Log = vscode.LogOutputChannel;

export function createLog(): Log {
  return vscode.window.createOutputChannel('Carrier', { log: true });
}
