/** Carrier: Set API Key / Clear API Key, for the selected environment or one passed by a menu. */
import * as vscode from 'vscode';
import type { KeyDestination } from '../../core';
import { keyDestination } from '../coreLight';
import { activeFolder, type EnvironmentStore } from '../environments/environmentStore';
import { guarded } from '../errors';
import type { Log } from '../log';
import type { ApiKeys } from './apiKeys';

export function registerApiKeyCommands(keys: ApiKeys, environments: EnvironmentStore, log: Log): vscode.Disposable[] {
  return [
    // The key is bound to where the environment points now (as the active editor's folder defines
    // it), or to the destination a caller passes: it will not be sent anywhere else unasked.
    vscode.commands.registerCommand(
      'carrier.setApiKey',
      guarded(log, 'Set API Key', async (environment?: unknown, destination?: unknown) => {
        const env = typeof environment === 'string' ? environment : environments.selected().name;
        const defined = environments.definitions(activeFolder()).environments.find((e) => e.name === env);
        const to = isDestination(destination) ? destination : defined ? keyDestination(defined) : undefined;
        if (!to) throw new Error(`there is no environment named "${env}" here (carrier.environments.json)`);
        const had = await keys.hasFor(env, to);
        const value = await vscode.window.showInputBox({
          title: `Carrier: API key for "${env}" (${to.label})`,
          prompt: had
            ? 'Replaces the stored key. Kept in the OS keychain (SecretStorage), never in files.'
            : 'Kept in the OS keychain (SecretStorage), never in files.',
          password: true,
          ignoreFocusOut: true,
          placeHolder: 'API key',
          validateInput: (v) => (v.trim() === '' ? 'Enter a key, or press Escape to cancel.' : /\s/.test(v.trim()) ? 'An API key has no spaces.' : undefined),
        });
        if (value === undefined) return;
        await keys.set(env, to, value.trim());
        log.info(`API key ${had ? 'replaced' : 'set'} for environment "${env}"`);
        void vscode.window.showInformationMessage(`Carrier: API key stored for "${env}".`);
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.clearApiKey',
      guarded(log, 'Clear API Key', async (environment?: unknown) => {
        const env = typeof environment === 'string' ? environment : environments.selected().name;
        if (!(await keys.has(env))) {
          void vscode.window.showInformationMessage(`Carrier: no API key is stored for "${env}".`);
          return;
        }
        await keys.clear(env);
        log.info(`API key cleared for environment "${env}"`);
        void vscode.window.showInformationMessage(`Carrier: API key for "${env}" cleared.`);
      }),
    ),
  ];
}

function isDestination(value: unknown): value is KeyDestination {
  return typeof value === 'object' && value !== null && typeof (value as KeyDestination).id === 'string' && typeof (value as KeyDestination).label === 'string';
}
