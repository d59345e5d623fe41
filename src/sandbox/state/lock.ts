/**
 * One sandbox per data folder. Two sandboxes writing one folder would each believe its own
 * picture of the state and overwrite the other's bills of lading, so the running sandbox holds a
 * lock file, `sandbox.lock`, created exclusively (O_EXCL) and holding its pid and address; a
 * second sandbox refuses to start and names them.
 *
 * A lock left by a process that no longer runs (killed, or the machine restarted) is stale and is
 * taken over. Liveness is the pid (signal 0) and the boot the lock was taken in: an O_EXCL file
 * needs no library and no native code, and tells a dead holder at once, where an mtime-refreshed
 * lock (proper-lockfile's kind) makes the next start wait out its staleness period after every
 * crash. Taking over is itself guarded by an O_EXCL file, so two sandboxes starting on one stale
 * lock cannot both win.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const LOCK_FILE = 'sandbox.lock';

interface LockContent {
  readonly pid: number;
  /** The sandbox's address once it listens; absent while it starts. */
  readonly url?: string;
  /** When the machine booted (ms since the epoch, rounded): a lock from an earlier boot is stale. */
  readonly boot: number;
  readonly startedAt: string;
  /** Tells this process's lock from another's taken by the same pid after a restart. */
  readonly token: string;
}

export class SandboxLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
    readonly holderUrl: string | undefined,
  ) {
    super(
      `The data folder ${dataDir} is in use by another sandbox (pid ${holderPid}, ${holderUrl ?? 'still starting'}). Stop that sandbox first, or give this one another data folder.`,
    );
    this.name = 'SandboxLockedError';
  }
}

/** Boot time, to the 10 s: uptime and the clock are read at slightly different instants. */
function bootTime(): number {
  return Math.round((Date.now() - os.uptime() * 1000) / 10_000) * 10_000;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockContent | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
  try {
    const v = JSON.parse(text) as Partial<LockContent>;
    return typeof v.pid === 'number' && typeof v.boot === 'number' && typeof v.token === 'string' ? (v as LockContent) : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** A lock whose holder is gone. The boot check allows 60 s of clock adjustment. */
function isStale(lock: LockContent): boolean {
  return Math.abs(lock.boot - bootTime()) > 60_000 || !alive(lock.pid);
}

/** How long an unreadable lock (its holder between creating and writing it) counts as held. */
const UNREADABLE_GRACE_MS = 5_000;
const TAKEOVER_GRACE_MS = 10_000;

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export class DataDirLock {
  private released = false;

  private constructor(
    readonly file: string,
    private content: LockContent,
  ) {}

  /** Takes the folder's lock, or throws SandboxLockedError naming the sandbox that holds it. */
  static acquire(dataDir: string, log: (line: string) => void): DataDirLock {
    fs.mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, LOCK_FILE);
    const content: LockContent = {
      pid: process.pid,
      boot: bootTime(),
      startedAt: new Date().toISOString(),
      token: `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    };
    for (let attempt = 0; attempt < 300; attempt++) {
      if (tryCreate(file, content)) return new DataDirLock(file, content);
      const held = readLock(file);
      if (held === 'missing') continue;
      if (held === 'unreadable') {
        // Its holder is between creating and writing it, or died there.
        if (ageMs(file) < UNREADABLE_GRACE_MS) sleepSync(20);
        else takeOver(file, undefined, log);
        continue;
      }
      if (!isStale(held)) throw new SandboxLockedError(dataDir, held.pid, held.url);
      takeOver(file, held, log);
    }
    throw new Error(`could not lock the data folder ${dataDir}: its lock file keeps changing`);
  }

  /** Records the address, so a second sandbox can say which one holds the folder. */
  setUrl(url: string): void {
    this.content = { ...this.content, url };
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(this.content));
    fs.renameSync(temp, this.file);
  }

  /** Removes the lock if it is still this sandbox's. */
  release(): void {
    if (this.released) return;
    this.released = true;
    const held = readLock(this.file);
    if (typeof held === 'object' && held.token === this.content.token) fs.rmSync(this.file, { force: true });
  }
}

function tryCreate(file: string, content: LockContent): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    fs.writeSync(fd, JSON.stringify(content));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Removes a stale lock, once: under the takeover guard, and only if the lock is still the one
 * found stale (another starter may have taken it over and written its own meanwhile).
 */
function takeOver(file: string, stale: LockContent | undefined, log: (line: string) => void): void {
  const guard = `${file}.takeover`;
  let fd: number | undefined;
  for (let i = 0; i < 40 && fd === undefined; i++) {
    try {
      fd = fs.openSync(guard, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A guard left by a starter that died while taking over.
      if (ageMs(guard) > TAKEOVER_GRACE_MS) fs.rmSync(guard, { force: true });
      else sleepSync(25);
    }
  }
  if (fd === undefined) return;
  try {
    const now = readLock(file);
    const same = stale ? typeof now === 'object' && now.token === stale.token : now === 'unreadable';
    if (same) {
      fs.rmSync(file, { force: true });
      log(stale ? `state: took over the lock of pid ${stale.pid}, which no longer runs` : 'state: removed an unreadable lock file');
    }
  } finally {
    fs.closeSync(fd);
    fs.rmSync(guard, { force: true });
  }
}
