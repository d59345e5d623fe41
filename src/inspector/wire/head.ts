/**
 * HTTP/1.1 message heads on a byte stream: gathered until the blank line, then split into the
 * start line and header lines, kept as the bytes were (latin1 maps each byte to one character, so
 * nothing is re-encoded). Lenient where llhttp is (a bare LF ends a line), strict about size.
 */

/** Larger heads are refused: no real SOAP client sends one, and a stream without a blank line is not HTTP. */
export const MAX_HEAD_BYTES = 64 * 1024;

export class HeadTooLarge extends Error {}

export interface Head {
  readonly startLine: string;
  /** Header lines as received (obs-folded continuations joined onto their line). */
  readonly lines: readonly string[];
  /** name → value pairs, names as sent, values trimmed. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

/** Collects one head; `push` returns the offset in the chunk just past the head once it is whole. */
export class HeadReader {
  private parts: Buffer[] = [];
  private size = 0;

  /** -1 while the head is still incomplete (the chunk was taken whole). */
  push(chunk: Buffer, from: number): number {
    const piece = from === 0 ? chunk : chunk.subarray(from);
    // Look from a little before the new piece: the blank line may straddle two chunks.
    const prev = this.size ? this.tail(3) : Buffer.alloc(0);
    const scan = prev.length ? Buffer.concat([prev, piece]) : piece;
    const end = blankLineEnd(scan);
    if (end < 0) {
      this.parts.push(piece);
      this.size += piece.length;
      if (this.size > MAX_HEAD_BYTES) throw new HeadTooLarge(`the message head is larger than ${MAX_HEAD_BYTES} bytes`);
      return -1;
    }
    const used = end - prev.length;
    this.parts.push(piece.subarray(0, used));
    this.size += used;
    return from + used;
  }

  /** The whole head (blank line included) as latin1 text; resets the reader. */
  take(): string {
    const text = (this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size)).toString('latin1');
    this.parts = [];
    this.size = 0;
    return text;
  }

  get started(): boolean {
    return this.size > 0;
  }

  private tail(n: number): Buffer {
    const last = Buffer.concat(this.parts.slice(-2));
    return last.subarray(Math.max(0, last.length - n));
  }
}

/** Offset just past the first CRLFCRLF or LFLF (also LF CRLF), or -1. */
function blankLineEnd(b: Buffer): number {
  let i = b.indexOf(10);
  while (i >= 0) {
    if (b[i + 1] === 10) return i + 2;
    if (b[i + 1] === 13 && b[i + 2] === 10) return i + 3;
    i = b.indexOf(10, i + 1);
  }
  return -1;
}

export function parseHead(text: string): Head {
  // A plain loop: this runs for every message on the hot path.
  const lines: string[] = [];
  const headers: Array<readonly [string, string]> = [];
  let startLine: string | undefined;
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(at, end - 1) : text.slice(at, end);
    at = end + 1;
    if (startLine === undefined) {
      startLine = line;
      continue;
    }
    if (line === '') continue;
    const first = line.charCodeAt(0);
    if ((first === 32 || first === 9) && lines.length) {
      // obs-fold: a continuation of the line before.
      lines[lines.length - 1] += ` ${line.trim()}`;
      const [name, value] = headers[headers.length - 1];
      headers[headers.length - 1] = [name, `${value} ${line.trim()}`];
      continue;
    }
    lines.push(line);
    const colon = line.indexOf(':');
    if (colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return { startLine: startLine ?? '', lines, headers };
}

export function headerOf(head: Head, name: string): string | undefined {
  const lower = name.toLowerCase();
  let value: string | undefined;
  for (const [n, v] of head.headers) {
    if (n.length === lower.length && n.toLowerCase() === lower) value = value === undefined ? v : `${value}, ${v}`;
  }
  return value;
}

/** How a message's body is delimited (RFC 9112 §6.3), once the head says which. */
export type Framing =
  { readonly kind: 'none' } | { readonly kind: 'length'; readonly length: number } | { readonly kind: 'chunked' } | { readonly kind: 'close' };

export class FramingError extends Error {}

/** Transfer-Encoding ending in chunked, else Content-Length, else `otherwise`. */
export function framingOf(head: Head, otherwise: 'none' | 'close'): Framing {
  let te: string | undefined;
  let cl: string | undefined;
  for (const [name, value] of head.headers) {
    if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') te = te === undefined ? value : `${te}, ${value}`;
    else if (name.length === 14 && name.toLowerCase() === 'content-length') cl = cl === undefined ? value : `${cl}, ${value}`;
  }
  if (te !== undefined) {
    const codings = te
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter(Boolean);
    if (codings[codings.length - 1] === 'chunked') return { kind: 'chunked' };
    if (otherwise === 'none') throw new FramingError(`a request with Transfer-Encoding "${te}" has no length`);
    return { kind: 'close' };
  }
  if (cl !== undefined) {
    const value = cl.includes(',') ? [...new Set(cl.split(',').map((v) => v.trim()))] : [cl];
    if (value.length !== 1 || !/^\d+$/.test(value[0])) throw new FramingError(`Content-Length "${cl}" is not a length`);
    const length = Number(value[0]);
    return length === 0 ? { kind: 'none' } : { kind: 'length', length };
  }
  return { kind: otherwise };
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Why a request head must be refused rather than relayed, or undefined. Each case is one where
 * the inspector and the service could disagree about where the request ends — the gap request
 * smuggling uses (RFC 9112 §6.1, §5.1): Content-Length beside Transfer-Encoding, a header name
 * with whitespace before its colon, a line that is no header at all.
 */
export function requestHeadProblem(head: Head): string | undefined {
  let length = false;
  let chunked = false;
  for (const line of head.lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `the header line "${line.slice(0, 40)}" has no name`;
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return `the header name "${name.slice(0, 40)}" is not a token (whitespace before the colon?)`;
    const lower = name.toLowerCase();
    if (lower === 'content-length') length = true;
    else if (lower === 'transfer-encoding') chunked = true;
  }
  if (length && chunked)
    return 'the request has both Content-Length and Transfer-Encoding, which a service and a proxy may read as different requests (request smuggling)';
  return undefined;
}

/** The client wants the connection closed after this request (RFC 9112 §9.3, §9.6). */
export function requestCloses(head: Head, version: string): boolean {
  const connection = (headerOf(head, 'connection') ?? '').toLowerCase();
  if (/(^|[\s,])close([\s,]|$)/.test(connection)) return true;
  return version === 'HTTP/1.0' && !/(^|[\s,])keep-alive([\s,]|$)/.test(connection);
}
