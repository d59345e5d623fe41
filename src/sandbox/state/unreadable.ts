/**
 * A data folder whose saved state does not read: a snapshot that is not JSON or not a sandbox
 * state, a journal line in the middle that does not parse, a file that cannot be read. The
 * sandbox then does not start, rather than starting empty and handing out ids the lost state had
 * used; the person decides: mend or restore the file, or start empty with the old files kept
 * aside (`carrier sandbox --reset-data`, or the editor's "Start empty (keep old files aside)").
 */
import { DataDirLock } from './lock';
import { setStateAside } from './names';

/** The `code` of SandboxStateUnreadableError. */
export const SANDBOX_STATE_UNREADABLE = 'sandbox-state-unreadable';

export class SandboxStateUnreadableError extends Error {
  override readonly name = 'SandboxStateUnreadableError';
  /**
   * Said as data: the extension requires the sandbox's bundle at run time, so this class is not
   * the one it could test against (src/extension/sandbox/unreadableState.ts reads the code).
   */
  readonly code = SANDBOX_STATE_UNREADABLE;

  constructor(
    /** The data folder. */
    readonly dataDir: string,
    /** The file that does not read, as a full path. */
    readonly file: string,
    /** Why, in a few words (never the file's content). */
    readonly reason: string,
  ) {
    super(`the sandbox state in ${file} does not read (${reason})`);
  }

  /**
   * Moves the data folder's state files into a backup folder beside them (never deleting them),
   * under the folder's lock, so the next start is empty. Returns the backup folder.
   */
  setAside(log: (line: string) => void = () => undefined): string | undefined {
    const lock = DataDirLock.acquire(this.dataDir, log);
    try {
      return setStateAside(this.dataDir);
    } finally {
      lock.release();
    }
  }
}
