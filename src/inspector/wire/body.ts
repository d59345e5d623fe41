/**
 * Where a message body ends on a byte stream, for each framing: a fixed length, chunked transfer
 * coding, or the end of the connection. The bytes themselves pass through untouched; the framer
 * only says how many of them belong to this message, and hands over the payload (de-chunked) for
 * the recorded copy.
 */
import { FramingError, type Framing } from './head';

export interface BodyFramer {
  readonly kind: Framing['kind'];
  /** Takes what belongs to this message from `chunk` at `from`; returns the offset after it. */
  feed(chunk: Buffer, from: number, onData: (payload: Buffer) => void): number;
  readonly done: boolean;
  /** Trailer fields after a chunked body (the first MAX_TRAILER_BYTES of them); all of them are relayed. */
  readonly trailers?: ReadonlyArray<readonly [string, string]>;
}

class NoBody implements BodyFramer {
  readonly kind = 'none';
  readonly done = true;
  feed(_chunk: Buffer, from: number): number {
    return from;
  }
}

class FixedBody implements BodyFramer {
  readonly kind = 'length';
  constructor(private remaining: number) {}
  get done(): boolean {
    return this.remaining === 0;
  }
  feed(chunk: Buffer, from: number, onData: (payload: Buffer) => void): number {
    const take = Math.min(this.remaining, chunk.length - from);
    if (take > 0) onData(from === 0 && take === chunk.length ? chunk : chunk.subarray(from, from + take));
    this.remaining -= take;
    return from + take;
  }
}

class UntilClose implements BodyFramer {
  readonly kind = 'close';
  readonly done = false;
  feed(chunk: Buffer, from: number, onData: (payload: Buffer) => void): number {
    if (from < chunk.length) onData(from === 0 ? chunk : chunk.subarray(from));
    return chunk.length;
  }
}

/** Longest chunk-size or trailer line accepted. */
const MAX_LINE = 8 * 1024;
/** Trailer text kept for the recording; a peer may send more, which still passes. */
const MAX_TRAILER_BYTES = 16 * 1024;

type ChunkState = 'size' | 'data' | 'data-end' | 'trailer' | 'done';

/** RFC 9112 §7.1: size line (hex, optional extensions), data, CRLF … a zero-size chunk, trailer lines, blank line. */
class ChunkedBody implements BodyFramer {
  readonly kind = 'chunked';
  private state: ChunkState = 'size';
  private line = '';
  private remaining = 0;
  private trailerBytes = 0;
  readonly trailers: Array<readonly [string, string]> = [];

  get done(): boolean {
    return this.state === 'done';
  }

  feed(chunk: Buffer, from: number, onData: (payload: Buffer) => void): number {
    let i = from;
    while (i < chunk.length && this.state !== 'done') {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, chunk.length - i);
        onData(chunk.subarray(i, i + take));
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      // Line-oriented states: read up to LF.
      const lf = chunk.indexOf(10, i);
      const end = lf < 0 ? chunk.length : lf + 1;
      this.line += chunk.toString('latin1', i, end);
      i = end;
      if (this.line.length > MAX_LINE) throw new FramingError('a chunk-size or trailer line is too long');
      if (lf < 0) break;
      const line = this.line.replace(/\r?\n$/, '');
      this.line = '';
      if (this.state === 'data-end') {
        if (line !== '') throw new FramingError('chunk data is not followed by CRLF');
        this.state = 'size';
      } else if (this.state === 'size') {
        const m = /^([0-9a-fA-F]+)[ \t]*(;.*)?$/.exec(line);
        if (!m) throw new FramingError(`"${line.slice(0, 40)}" is not a chunk size`);
        this.remaining = parseInt(m[1], 16);
        this.state = this.remaining === 0 ? 'trailer' : 'data';
      } else if (this.state === 'trailer') {
        if (line === '') this.state = 'done';
        else this.keepTrailer(line);
      }
    }
    return i;
  }

  private keepTrailer(line: string): void {
    const colon = line.indexOf(':');
    this.trailerBytes += line.length;
    if (colon <= 0 || this.trailerBytes > MAX_TRAILER_BYTES) return;
    this.trailers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
}

export function bodyFramer(framing: Framing): BodyFramer {
  switch (framing.kind) {
    case 'none':
      return new NoBody();
    case 'length':
      return new FixedBody(framing.length);
    case 'chunked':
      return new ChunkedBody();
    case 'close':
      return new UntilClose();
  }
}
