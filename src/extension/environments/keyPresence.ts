import type * as vscode from 'vscode';
import type { KeyDestination } from '../../core';

/**
 * What the environment status bar and picker ask of the stored API keys: whether one is there.
 * src/extension/secrets/apiKeys.ts answers it; it stands above the environments, whose store its
 * commands read, so this side names only the questions.
 */
export interface KeyPresence {
  /** Fires with the environment name whose key was set or cleared. */
  readonly onDidChange: vscode.Event<string>;
  has(environment: string): Promise<boolean>;
  hasFor(environment: string, to: KeyDestination): Promise<boolean>;
}
