/**
 * The state's files in a data folder (persist.ts writes them), and moving them aside into a
 * backup folder of their own when the sandbox is to start empty: nothing is deleted.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const STATE_FILE = 'sandbox-state.json';
export const JOURNAL = /^sandbox-state\.(\d+)\.journal$/;
export const journalName = (generation: number): string => `sandbox-state.${generation}.journal`;

/** The snapshot and the journals: what makes up the state (not the lock, not earlier backups). */
function stateFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name === STATE_FILE || JOURNAL.test(name));
}

/**
 * Moves the snapshot and journals of `dir` into `dir/sandbox-state.backup-<UTC time>/` (a new
 * folder; `-2`, `-3`… when one of that name exists) and returns it; undefined when there was
 * nothing to move. The caller holds the folder's lock.
 */
export function setStateAside(dir: string, at: Date = new Date()): string | undefined {
  const names = stateFiles(dir);
  if (!names.length) return undefined;
  const stamp = at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
  let backup = path.join(dir, `sandbox-state.backup-${stamp}`);
  for (let n = 2; ; n++) {
    try {
      fs.mkdirSync(backup);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      backup = path.join(dir, `sandbox-state.backup-${stamp}-${n}`);
    }
  }
  for (const name of names) fs.renameSync(path.join(dir, name), path.join(backup, name));
  return backup;
}
