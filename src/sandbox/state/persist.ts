/**
 * One JSON file written atomically: the new content goes to a temporary file that is flushed to
 * disk (fsync) and then renamed over the old one, and the folder is flushed so the rename itself
 * survives a crash. A kill at any moment leaves either the old file or the new one, never half
 * of either. Saves are serialised and coalesced: many changes while one write runs become one
 * more write, and every caller's promise resolves only when its change is on disk.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export class AtomicJsonFile {
  private writing: Promise<void> = Promise.resolve();
  private pending: Promise<void> | undefined;
  private readonly temp: string;

  constructor(readonly file: string, private readonly snapshot: () => unknown) {
    this.temp = `${file}.${process.pid}.tmp`;
  }

  /** The parsed content, or undefined when there is none yet. A file that does not parse is moved aside, not lost. */
  load(log: (line: string) => void): unknown {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    this.removeStaleTemps();
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    try {
      return JSON.parse(text);
    } catch {
      const aside = `${this.file}.unreadable-${Date.now()}`;
      fs.renameSync(this.file, aside);
      log(`state file ${this.file} did not parse; moved to ${aside} and starting empty`);
      return undefined;
    }
  }

  /** Temporary files of writers that were killed mid-write; never the state itself. */
  private removeStaleTemps(): void {
    const dir = path.dirname(this.file);
    const base = path.basename(this.file);
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(`${base}.`) && name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
    }
  }

  /** Resolves once the state as it is now (or later) is on disk. */
  save(): Promise<void> {
    if (this.pending) return this.pending;
    const next = this.writing.catch(() => undefined).then(() => {
      // From here on, a further change needs a further write.
      this.pending = undefined;
      return this.writeNow(JSON.stringify(this.snapshot()));
    });
    this.pending = next;
    this.writing = next;
    return next;
  }

  private async writeNow(text: string): Promise<void> {
    const handle = await fs.promises.open(this.temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(this.temp, this.file);
    await syncDir(path.dirname(this.file));
  }

  /** Waits for the writes already asked for. */
  async flush(): Promise<void> {
    await this.writing.catch(() => undefined);
  }
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
