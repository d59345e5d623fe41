/**
 * A run's scratch store: bytes appended as a run goes, read back when its reports are written.
 * Held in memory up to a budget; past it, everything goes to a file, so a run of thousands of
 * tests keeps what its reports need outside the heap. The file is the run's own — a private
 * folder, readable by its owner only — and `close()` removes it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Bytes held in memory before the store moves to a file: a run of a few hundred tests writes
 * none. Past that the bytes are the page cache's, not the process's: held in memory, 2,000
 * tests' report parts were 12 MB of its peak RSS and 10,000 tests' 16 MB.
 */
const MEMORY_BYTES = 1024 * 1024;
/**
 * Appended bytes are copied (or encoded) into blocks of this many: no buffer of its own for each
 * append. Held, while the store is in memory; past the budget, the one block gathers appends until
 * it is full and is then written: one write per many tests, and the same block used again.
 */
const BLOCK_BYTES = 256 * 1024;
/**
 * Reads from the file go by windows of this many bytes: reports ask for what was kept in plan
 * order, near the order it was kept in, so most reads are in the window the last one brought in.
 */
const READ_WINDOW = 1024 * 1024;

/** Where appended bytes are: offset, length, and their block among those held in memory (-1: in the file). */
export type Spilled = readonly [number, number, number];

export interface SpillFileOptions {
  /** Where the private folder is made; the system's temporary folder when not given. */
  readonly parent?: string;
  readonly memoryBytes?: number;
}

export class SpillFile {
  private readonly memoryBytes: number;
  private readonly parent: string;
  /** The blocks of what was appended, while it fits the memory budget; undefined once the store is a file. */
  private blocks: Buffer[] | undefined = [];
  /** Where each held block starts among the bytes appended. */
  private starts: number[] = [];
  /** The block appends go to: the last held one, or, once the store is a file, the bytes not yet written. */
  private block = Buffer.alloc(0);
  private used = 0;
  private total = 0;
  private folder: string | undefined;
  private fd: number | undefined;
  /** Bytes written to the file so far. */
  private written = 0;
  /** Bytes of the file from windowAt, read last: one buffer, read into again by the next window. */
  private window: Buffer | undefined;
  private windowAt = 0;
  /** How many bytes of the window are the file's (a reused buffer may be longer). */
  private windowBytes = 0;
  private closed = false;

  constructor(
    private readonly name: string,
    options: SpillFileOptions = {},
  ) {
    this.memoryBytes = options.memoryBytes ?? MEMORY_BYTES;
    this.parent = options.parent ?? os.tmpdir();
  }

  append(bytes: Buffer): Spilled {
    this.room(bytes.length);
    bytes.copy(this.block, this.used);
    return this.took(bytes.length);
  }

  /** Appends `text` as UTF-8, encoded straight into the block: no buffer of its own, no second pass to count its bytes. */
  appendText(text: string): Spilled {
    // A UTF-16 unit is at most 3 bytes of UTF-8 (a pair of them 4): the exact count only near a block's end.
    const most = text.length * 3;
    this.room(most <= this.block.length - this.used ? most : Buffer.byteLength(text));
    return this.took(this.block.write(text, this.used));
  }

  /**
   * The bytes appended at `spilled`: a view, valid until the next read (a store in a file reads
   * each window into the same buffer; a new one for each would leave a report's worth of them to
   * the garbage collector at the end of a run, the peak of its memory).
   */
  read([at, length, index]: Spilled): Buffer {
    if (this.closed) throw new Error("the run's scratch store was read after the run closed it");
    // An empty append may have come before there was any block.
    if (!length) return Buffer.alloc(0);
    if (this.blocks) return this.blocks[index].subarray(at - this.starts[index], at - this.starts[index] + length);
    if (at + length > this.written) this.flush();
    const w = this.window;
    if (w && at >= this.windowAt && at + length <= this.windowAt + this.windowBytes) return w.subarray(at - this.windowAt, at - this.windowAt + length);
    const size = Math.min(Math.max(length, READ_WINDOW), this.written - at);
    const bytes = w && w.length >= size ? w : Buffer.allocUnsafe(Math.max(size, READ_WINDOW));
    let got = 0;
    while (got < size) {
      const n = fs.readSync(this.fd!, bytes, got, size - got, at + got);
      if (n === 0) throw new Error(`the run's scratch file ended at ${at + got} bytes, before ${at + size}`);
      got += n;
    }
    this.window = bytes;
    this.windowAt = at;
    this.windowBytes = size;
    return bytes.subarray(0, length);
  }

  /** Room in the block for `bytes` more. */
  private room(bytes: number): void {
    if (this.closed) throw new Error("the run's scratch store was written after the run closed it");
    if (this.blocks && this.total + bytes > this.memoryBytes) this.toFile();
    if (bytes <= this.block.length - this.used) return;
    if (this.blocks) {
      this.block = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, bytes));
      this.used = 0;
      this.blocks.push(this.block);
      this.starts.push(this.total);
      return;
    }
    this.flush();
    if (bytes > this.block.length) this.block = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, bytes));
  }

  private took(length: number): Spilled {
    const at = this.total;
    this.used += length;
    this.total += length;
    return [at, length, this.blocks ? this.blocks.length - 1 : -1];
  }

  /** Past the budget: what was held goes to the file, and appends to a block of the file's own (reads may hold views of the held ones). */
  private toFile(): void {
    const blocks = this.blocks!;
    this.folder = fs.mkdtempSync(path.join(this.parent, 'carrier-run-'));
    this.fd = fs.openSync(path.join(this.folder, this.name), 'w+', 0o600);
    for (let i = 0; i < blocks.length; i++) this.write(blocks[i].subarray(0, (i + 1 < blocks.length ? this.starts[i + 1] : this.total) - this.starts[i]));
    this.blocks = undefined;
    this.starts = [];
    this.block = Buffer.allocUnsafe(BLOCK_BYTES);
    this.used = 0;
  }

  /** Writes what the block gathered; the block is then used again (one grown for a large append goes back to the usual size). */
  private flush(): void {
    if (!this.used || this.fd === undefined) return;
    this.write(this.block.subarray(0, this.used));
    this.used = 0;
    if (this.block.length > BLOCK_BYTES) this.block = Buffer.allocUnsafe(BLOCK_BYTES);
  }

  private write(bytes: Buffer): void {
    let done = 0;
    while (done < bytes.length) done += fs.writeSync(this.fd!, bytes, done, bytes.length - done, this.written + done);
    this.written += bytes.length;
  }

  /** Lets go of everything and removes the file, if there is one: every report that needed it is written. */
  close(): void {
    this.closed = true;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    this.blocks = undefined;
    this.starts = [];
    this.block = Buffer.alloc(0);
    this.used = 0;
    this.window = undefined;
    if (this.folder) fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
