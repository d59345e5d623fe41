/**
 * A run's transcripts kept in a file instead of the heap (core's TranscriptStore): a run of 10,000
 * tests with the JSON or HTML report on would otherwise hold every request and reply until the
 * reports are written. Each transcript is appended as JSON and read back by offset when a report
 * writes it. The file is the run's own — a private folder, readable by its owner only — holds
 * transcripts already redacted (src/core/runner/transcript.ts), and is removed by `close()`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ExchangeTranscript, TranscriptStore } from '../core';

/** Appends are gathered up to this many bytes before they are written: one write per many tests. */
const FLUSH_BYTES = 256 * 1024;

export class TranscriptSpill implements TranscriptStore {
  private readonly folder: string;
  private fd: number | undefined;
  /** Bytes written to the file so far, and those gathered but not yet written. */
  private written = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(parent = os.tmpdir()) {
    this.folder = fs.mkdtempSync(path.join(parent, 'carrier-run-'));
    this.fd = fs.openSync(path.join(this.folder, 'transcripts.jsonl'), 'w+', 0o600);
  }

  keep(transcript: ExchangeTranscript): () => ExchangeTranscript {
    const bytes = Buffer.from(`${JSON.stringify(transcript)}\n`, 'utf8');
    const at = this.written + this.pendingBytes;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    const length = bytes.length - 1;
    return () => this.read(at, length);
  }

  private read(at: number, length: number): ExchangeTranscript {
    if (at + length > this.written) this.flush();
    if (this.fd === undefined) throw new Error("the run's transcripts were read after the run closed them");
    const bytes = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = fs.readSync(this.fd, bytes, got, length - got, at + got);
      if (n === 0) throw new Error(`the run's transcript file ended at ${at + got} bytes, before ${at + length}`);
      got += n;
    }
    return JSON.parse(bytes.toString('utf8')) as ExchangeTranscript;
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

  /** Removes the file: every report that needed the transcripts is written. */
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    this.pending = [];
    this.pendingBytes = 0;
    fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
