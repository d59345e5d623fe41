/** Carrier: Select Environment — a quick pick that also shows whether each has an API key. */
import * as vscode from 'vscode';
import type { KeyPresence } from './keyPresence';
import { guarded } from '../errors';
import type { Log } from '../log';
import { keyDestination } from '../coreLight';
import { activeFolder, type EnvironmentStore } from './environmentStore';

interface EnvironmentItem extends vscode.QuickPickItem {
  readonly name: string;
}

export function registerSelectEnvironment(environments: EnvironmentStore, keys: KeyPresence, log: Log): vscode.Disposable {
  return vscode.commands.registerCommand(
    'carrier.selectEnvironment',
    guarded(log, 'Select Environment', async () => {
      const current = environments.selected().name;
      const defined = new Map(environments.definitions(activeFolder()).environments.map((e) => [e.name, e]));
      const keyState = async (name: string, embedded: boolean | undefined): Promise<string> => {
        if (embedded) return 'no API key needed';
        const env = defined.get(name);
        if (env && (await keys.hasFor(name, keyDestination(env)))) return '$(key) API key stored';
        return (await keys.has(name)) ? '$(warning) API key stored for another address' : '$(circle-slash) no API key';
      };
      const items: EnvironmentItem[] = await Promise.all(
        environments.all().map(async (e) => ({
          name: e.name,
          label: `${e.name === current ? '$(check) ' : ''}${e.name}`,
          description: e.baseUrl ?? (e.embeddedSandbox ? 'not running' : undefined),
          detail: [e.description, await keyState(e.name, e.embeddedSandbox)].filter(Boolean).join('  ·  '),
        })),
      );
      const pick = await vscode.window.showQuickPick(items, {
        title: 'Carrier: Select Environment',
        placeHolder: `Current: ${current}`,
        matchOnDescription: true,
      });
      if (!pick) return;
      await environments.select(pick.name);
      log.info(`environment "${pick.name}" selected`);
    }),
  );
}
