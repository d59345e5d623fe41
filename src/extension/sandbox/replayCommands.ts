/**
 * Carrier: Use Recordings as Environment / Stop Replaying Recordings (docs/sandbox.md#in-vs-code).
 * Each command takes its answers as arguments too (the folder, the fallback, the name), so tests
 * and other commands can run it without a picker; it returns what it started or stopped.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { reportError } from '../errors';
import type { Log } from '../log';
import { isReplayLoadFailure, type Replay, type ReplayController, type ReplayFallback } from './replayController';

/** How the inspector names a recorded exchange (EXCHANGE_SUFFIX, src/inspector/recordings.ts); activation loads no inspector. */
const EXCHANGE_SUFFIX = '.exchange.json';

interface FolderItem extends vscode.QuickPickItem {
  readonly folder?: vscode.Uri;
}
interface FallbackItem extends vscode.QuickPickItem {
  readonly fallback: ReplayFallback;
}

export function registerReplayCommands(replays: ReplayController, log: Log): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('carrier.useRecordingsAsEnvironment', async (uri?: vscode.Uri, given?: ReplayFallback): Promise<Replay | undefined> => {
      try {
        const folder = uri instanceof vscode.Uri ? uri : await pickFolder();
        if (!folder) return undefined;
        const fallback = given === 'emulate' || given === 'fault' ? given : await pickFallback();
        if (!fallback) return undefined;
        const started = await replays.start(folder.fsPath, fallback);
        vscode.window.setStatusBarMessage(`$(history) Carrier: "${started.name}" selected, replaying on ${started.url}`, 5000);
        return started;
      } catch (err) {
        if (isReplayLoadFailure(err)) {
          // The sandbox's message starts with the recording's path (src/sandbox/replay/load.ts).
          log.warn(`Use Recordings as Environment: ${err.message}`);
          void vscode.window.showErrorMessage(`Carrier: the recording ${err.message}. Nothing was replayed; the environment is unchanged.`);
        } else void reportError(log, 'Use Recordings as Environment', err);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('carrier.stopReplayingRecordings', async (given?: string): Promise<string | undefined> => {
      try {
        const name = typeof given === 'string' ? given : await pickReplay(replays.replays());
        if (!name || !(await replays.stop(name))) return undefined;
        vscode.window.setStatusBarMessage(`$(debug-stop) Carrier: stopped replaying "${name}"`, 3000);
        return name;
      } catch (err) {
        void reportError(log, 'Stop Replaying Recordings', err);
        return undefined;
      }
    }),
  ];
}

/** Folders of the workspace that hold recordings first (the inspector's `NNN-….exchange.json`), then any folder. */
async function pickFolder(): Promise<vscode.Uri | undefined> {
  const found = await vscode.workspace.findFiles(`**/*${EXCHANGE_SUFFIX}`, '**/node_modules/**', 5_000);
  const counts = new Map<string, { uri: vscode.Uri; count: number }>();
  for (const file of found) {
    const dir = vscode.Uri.file(path.dirname(file.fsPath));
    const entry = counts.get(dir.fsPath) ?? { uri: dir, count: 0 };
    entry.count++;
    counts.set(dir.fsPath, entry);
  }
  const items: FolderItem[] = [...counts.values()]
    .sort((a, b) => a.uri.fsPath.localeCompare(b.uri.fsPath))
    .map(({ uri, count }) => ({
      label: `$(folder) ${vscode.workspace.asRelativePath(uri, true)}`,
      description: `${count} recording${count === 1 ? '' : 's'}`,
      folder: uri,
    }));
  items.push({ label: '$(folder-opened) Choose a folder…' });
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Carrier: Use Recordings as Environment',
    placeHolder: items.length > 1 ? 'A folder of recordings (carrier inspect --record)' : 'No recordings found in the workspace: choose a folder',
  });
  if (!pick) return undefined;
  if (pick.folder) return pick.folder;
  const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Replay' });
  return chosen?.[0];
}

async function pickFallback(): Promise<ReplayFallback | undefined> {
  const items: FallbackItem[] = [
    { label: 'Emulate', description: 'default', detail: 'A call no recording answers is answered by the sandbox, as without recordings', fallback: 'emulate' },
    { label: 'Fault', detail: 'A call no recording answers gets a fault naming the closest recording and how it differs', fallback: 'fault' },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'Carrier: calls that match no recording', placeHolder: 'Emulate (default) or fault' });
  return pick?.fallback;
}

async function pickReplay(running: readonly Replay[]): Promise<string | undefined> {
  if (running.length <= 1) {
    if (!running.length) void vscode.window.showInformationMessage('Carrier: no recordings are being replayed.');
    return running[0]?.name;
  }
  const pick = await vscode.window.showQuickPick(
    running.map((r) => ({ label: r.name, description: r.url, detail: r.folder })),
    { title: 'Carrier: Stop Replaying Recordings' },
  );
  return pick?.label;
}
