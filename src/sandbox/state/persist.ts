/**
 * The data folder's files: a snapshot (`sandbox-state.json`, written atomically) and a journal
 * (`sandbox-state.<generation>.journal`, one JSON line per change, appended and flushed to disk
 * before the change's reply goes out). A change costs one short append whatever the state's
 * size; the snapshot is rewritten only when the journal has grown as large as it, so rewriting
 * costs each change a constant share on average.
 *
 * Appends are batched: changes that arrive while one write and fsync run go out together in the
 * next, and each caller's promise resolves once its own line is on disk.
 *
 * Compaction starts a new journal generation, then writes the snapshot of everything committed
 * so far, naming the first generation it does not hold; older journals are removed only after
 * the snapshot's rename is on disk. A kill at any moment leaves a snapshot plus the journals after
 * it. Replaying an entry the snapshot already holds changes nothing (entries are keyed by id), so
 * the order of those steps needs no further care.
 *
 * A journal's last line may be cut short by a kill mid-append; that change was never acknowledged
 * (its fsync had not returned) and is dropped. Anything else that does not read — a snapshot that
 * is not a sandbox state, a line in the middle of a journal, a file that cannot be read — stops
 * the start with SandboxStateUnreadableError (unreadable.ts): nothing is moved or rewritten, and
 * the person chooses between mending the file and starting empty with the old files kept aside.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { entryProblem, snapshotProblem } from './check';
import { laterCounters } from './counters';
import { JOURNAL, journalName, STATE_FILE } from './names';
import type { CreatedBol, CreatedPickup, JournalEntry, PersistedState } from './records';
import { SandboxStateUnreadableError } from './unreadable';

export { STATE_FILE } from './names';

/** Journals smaller than this are never compacted: a short replay costs less than a rewrite. */
const MIN_COMPACT_BYTES = 4 * 1024 * 1024;

export interface LoadedState {
  /** The counters as the files state them: unchecked, see counters.ts's safeCounters. */
  readonly next?: unknown;
  readonly bols: readonly CreatedBol[];
  readonly pickups: readonly CreatedPickup[];
}

interface Waiter {
  readonly text: string;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

export class StateFiles {
  private handle: fs.promises.FileHandle | undefined;
  private journalBytes = 0;
  private snapshotBytes = 0;
  private queue: Waiter[] = [];
  private writing: Promise<void> | undefined;
  private compacting: Promise<void> | undefined;
  private closed = false;

  private constructor(
    readonly dir: string,
    private generation: number,
    private readonly log: (line: string) => void,
  ) {}

  get file(): string {
    return path.join(this.dir, STATE_FILE);
  }

  /** Reads the snapshot and replays the journals after it; SandboxStateUnreadableError when one does not read. */
  static open(dir: string, log: (line: string) => void): { files: StateFiles; state: LoadedState } {
    fs.mkdirSync(dir, { recursive: true });
    removeStaleTemps(dir);
    const snapshot = readSnapshot(dir);
    // Format 1 (before journals) is a snapshot with no journal after it.
    const from = snapshot?.format === 2 ? snapshot.journal : 0;
    const bols = new Map<number, CreatedBol>();
    const pickups = new Map<number, CreatedPickup>();
    let next: unknown = snapshot?.next;
    for (const b of snapshot?.bols ?? []) bols.set(b.bolId, b);
    for (const p of snapshot?.pickups ?? []) pickups.set(p.id, p);
    let last = from;
    for (const g of journalGenerations(dir)) {
      if (g < from) continue;
      last = Math.max(last, g);
      for (const entry of readJournal(dir, path.join(dir, journalName(g)), log)) {
        if (entry.bol) bols.set(entry.bol.bolId, entry.bol);
        if (entry.pickup) pickups.set(entry.pickup.id, entry.pickup);
        next = laterCounters(next, entry.next);
      }
    }
    const files = new StateFiles(dir, last, log);
    return { files, state: { ...(next ? { next } : {}), bols: [...bols.values()], pickups: [...pickups.values()] } };
  }

  /** Resolves once `entry` is on disk. */
  append(entry: JournalEntry): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the sandbox state is closed'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ text: `${JSON.stringify(entry)}\n`, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue;
        this.queue = [];
        const data = Buffer.from(batch.map((w) => w.text).join(''), 'utf8');
        try {
          const handle = await this.journal();
          await writeAll(handle, data);
          await handle.datasync();
          this.journalBytes += data.length;
          for (const w of batch) w.resolve();
        } catch (e) {
          for (const w of batch) w.reject(e);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async journal(): Promise<fs.promises.FileHandle> {
    if (this.handle) return this.handle;
    const handle = await fs.promises.open(path.join(this.dir, journalName(this.generation)), 'a');
    // The new file's name must survive a crash too, before anything in it is acknowledged.
    await syncDir(this.dir);
    this.handle = handle;
    return handle;
  }

  /** True when the journal has grown as large as a rewrite of the snapshot would be. */
  get dueForCompaction(): boolean {
    return !this.compacting && this.journalBytes > Math.max(MIN_COMPACT_BYTES, this.snapshotBytes);
  }

  /**
   * Writes a snapshot and drops the journals it holds. `snapshot` is called once, synchronously,
   * right after the switch to the new journal: it must give everything committed by then.
   */
  compact(snapshot: (journal: number) => PersistedState): Promise<void> {
    this.compacting ??= (async () => {
      try {
        // Let the batch in flight land in the old journal, then switch: later batches go to the new one.
        while (this.writing) await this.writing;
        const old = this.handle;
        this.handle = undefined;
        this.generation++;
        this.journalBytes = 0;
        const text = JSON.stringify(snapshot(this.generation));
        await old?.close();
        await writeAtomic(this.file, text);
        this.snapshotBytes = Buffer.byteLength(text, 'utf8');
        for (const g of journalGenerations(this.dir)) {
          if (g < this.generation) await fs.promises.rm(path.join(this.dir, journalName(g)), { force: true });
        }
      } catch (e) {
        this.log(`state: compaction failed (${e instanceof Error ? e.message : String(e)}); the journal is kept`);
      } finally {
        this.compacting = undefined;
      }
    })();
    return this.compacting;
  }

  /** Waits for every append asked for and any compaction under way, then closes the journal. */
  async close(finalSnapshot?: (journal: number) => PersistedState): Promise<void> {
    while (this.writing || this.compacting) await (this.writing ?? this.compacting);
    if (finalSnapshot && this.journalBytes > 0) await this.compact(finalSnapshot);
    this.closed = true;
    await this.handle?.close();
    this.handle = undefined;
  }
}

function journalGenerations(dir: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync(dir)) {
    const m = JOURNAL.exec(name);
    if (m) out.push(Number(m[1]));
  }
  return out.sort((a, b) => a - b);
}

/** What a file holds as text; SandboxStateUnreadableError when it cannot be read (undefined when absent). */
function readState(dir: string, file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SandboxStateUnreadableError(dir, file, `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function readSnapshot(dir: string): PersistedState | undefined {
  const file = path.join(dir, STATE_FILE);
  const text = readState(dir, file);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SandboxStateUnreadableError(dir, file, text.trim() ? 'not JSON: cut short or damaged' : 'empty');
  }
  const problem = snapshotProblem(value);
  if (problem) throw new SandboxStateUnreadableError(dir, file, `not a sandbox state: ${problem}`);
  return value as PersistedState;
}

function readJournal(dir: string, file: string, log: (line: string) => void): JournalEntry[] {
  const lines = (readState(dir, file) ?? '').split('\n');
  const out: JournalEntry[] = [];
  lines.forEach((line, i) => {
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Only the last line, with no newline after it, can be an append a kill cut short.
      if (i === lines.length - 1) {
        log(`state: the last entry of ${path.basename(file)} was cut short by a stop mid-write (never acknowledged); dropped`);
        return;
      }
      throw new SandboxStateUnreadableError(dir, file, `line ${i + 1} is not JSON`);
    }
    const problem = entryProblem(value);
    if (problem) throw new SandboxStateUnreadableError(dir, file, `line ${i + 1} is not a change of the sandbox: ${problem}`);
    out.push(value as JournalEntry);
  });
  return out;
}

/** Temporary files of snapshot writers that were killed mid-write; never the state itself. */
function removeStaleTemps(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(`${STATE_FILE}.`) && name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
  }
}

async function writeAll(handle: fs.promises.FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

/**
 * The new content goes to a temporary file that is flushed to disk and then renamed over the
 * old one, and the folder is flushed so the rename itself survives a crash: a kill at any moment
 * leaves the old file or the new one, never half of either.
 */
export async function writeAtomic(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await fs.promises.open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(temp, file);
  await syncDir(path.dirname(file));
}

async function syncDir(dir: string): Promise<void> {
  // Windows cannot open a folder for fsync; there the rename is as durable as it gets.
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch {
    /* best effort */
  } finally {
    await handle?.close();
  }
}
