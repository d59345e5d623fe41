/**
 * A run's scratch store: bytes appended as a run goes, read back when its reports are written.
 * Held in memory up to a budget; past it, everything goes to a file, so a run of thousands of
 * tests keeps what its reports need outside the heap. The file is the run's own — a private
 * folder, readable by its owner only — and `close()` removes it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Bytes held in memory before the store moves to a file: a run of a few thousand tests never writes one. */
const MEMORY_BYTES = 16 * 1024 * 1024;
/** Appends to the file are gathered up to this many bytes before they are written: one write per many tests. */
const FLUSH_BYTES = 256 * 1024;
/**
 * Reads from the file go by windows of this many bytes: reports ask for what was kept in plan
 * order, near the order it was kept in, so most reads are in the window the last one brought in.
 */
const READ_WINDOW = 1024 * 1024;

/** Where appended bytes are: offset, length, and their index among those held in memory (-1: in the file). */
export type Spilled = readonly [number, number, number];

export interface SpillFileOptions {
  /** Where the private folder is made; the system's temporary folder when not given. */
  readonly parent?: string;
  readonly memoryBytes?: number;
}

export class SpillFile {
  private readonly memoryBytes: number;
  /** What was appended, while it fits the memory budget; undefined once the store is a file. */
  private held: Buffer[] | undefined = [];
  private total = 0;
  private folder: string | undefined;
  private fd: number | undefined;
  /** Bytes written to the file so far, and those gathered but not yet written. */
  private written = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of the file from windowAt, read last; a new window is a new buffer, so what was handed out stays valid. */
  private window: Buffer | undefined;
  private windowAt = 0;
  private closed = false;

  constructor(
    private readonly name: string,
    options: SpillFileOptions = {},
  ) {
    this.memoryBytes = options.memoryBytes ?? MEMORY_BYTES;
    this.parent = options.parent ?? os.tmpdir();
  }

  private readonly parent: string;

  append(bytes: Buffer): Spilled {
    if (this.closed) throw new Error("the run's scratch store was written after the run closed it");
    const at = this.total;
    this.total += bytes.length;
    if (this.held) {
      if (this.total <= this.memoryBytes) return [at, bytes.length, this.held.push(bytes) - 1];
      // Past the budget: what was held goes to the file first, and everything after it.
      this.open();
      this.pending = this.held;
      this.pendingBytes = at;
      this.held = undefined;
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    return [at, bytes.length, -1];
  }

  /** The bytes appended at `spilled`: a view, valid as long as the caller keeps it. */
  read([at, length, index]: Spilled): Buffer {
    if (this.closed) throw new Error("the run's scratch store was read after the run closed it");
    if (this.held) return this.held[index];
    if (at + length > this.written) this.flush();
    const w = this.window;
    if (w && at >= this.windowAt && at + length <= this.windowAt + w.length) return w.subarray(at - this.windowAt, at - this.windowAt + length);
    const size = Math.min(Math.max(length, READ_WINDOW), this.written - at);
    const bytes = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = fs.readSync(this.fd!, bytes, got, size - got, at + got);
      if (n === 0) throw new Error(`the run's scratch file ended at ${at + got} bytes, before ${at + size}`);
      got += n;
    }
    this.window = bytes;
    this.windowAt = at;
    return bytes.subarray(0, length);
  }

  private open(): void {
    this.folder = fs.mkdtempSync(path.join(this.parent, 'carrier-run-'));
    this.fd = fs.openSync(path.join(this.folder, this.name), 'w+', 0o600);
  }

  private flush(): void {
    if (!this.pendingBytes || this.fd === undefined) return;
    const all = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    let done = 0;
    while (done < all.length) done += fs.writeSync(this.fd, all, done, all.length - done, this.written + done);
    this.written += all.length;
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Lets go of everything and removes the file, if there is one: every report that needed it is written. */
  close(): void {
    this.closed = true;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    this.held = undefined;
    this.pending = [];
    this.pendingBytes = 0;
    this.window = undefined;
    if (this.folder) fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
