/**
 * Where a command's environments come from, decided once for every face: the nearest
 * carrier.environments.json at or above each starting folder, up to the repository root (the
 * folder holding `.git`) — so `carrier run suite/sub` finds the suite's environments whether it
 * is typed at the repository root, inside `sub` or from anywhere else by an absolute path.
 */
import * as path from 'node:path';
import type { CoreContext } from '../context';
import { ENVIRONMENTS_FILE, loadEnvironments, type LoadedEnvironments } from './load';

/** The folder holding the environments file for `start`, or undefined when there is none up to the repository root. */
export function environmentsFolderFrom(context: Pick<CoreContext, 'files'>, start: string): string | undefined {
  let at = path.resolve(start);
  for (;;) {
    if (context.files.exists(path.join(at, ENVIRONMENTS_FILE))) return at;
    const parent = path.dirname(at);
    if (parent === at || context.files.exists(path.join(at, '.git'))) return undefined;
    at = parent;
  }
}

/**
 * The environments for a command: searched from each starting folder in turn (the files or
 * folders it was given, then the working directory); only the built-in sandbox when none has one.
 */
export function loadEnvironmentsFrom(context: Pick<CoreContext, 'files'>, starts: readonly string[]): LoadedEnvironments {
  for (const start of starts) {
    const folder = environmentsFolderFrom(context, start);
    if (folder) return loadEnvironments(context, folder);
  }
  return loadEnvironments(context, undefined);
}
