/**
 * What the hot path keeps of one exchange: facts only (times, headers, the first part of each
 * body), so forwarding never waits for parsing. Chunks are kept by reference, not copied, and
 * every byte kept is taken from a budget shared by all exchanges not yet read: however many
 * connections send however much, the copies the inspector holds stay within it.
 */

/** Bytes of body copies held for exchanges under way or waiting to be read, shared by all connections. */
export class ByteBudget {
  used = 0;
  constructor(readonly limit: number) {}

  /** Takes up to `wanted` bytes; returns how many were granted. */
  take(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.limit - this.used));
    this.used += granted;
    return granted;
  }

  give(n: number): void {
    this.used = Math.max(0, this.used - n);
  }
}

const EMPTY = Buffer.alloc(0);

/** A kept piece this much smaller than the buffer it was cut from is copied, so the buffer can go. */
const COPY_BELOW_SHARE = 4;

export class BodyCapture {
  private chunks: Buffer[] = [];
  /** Bytes held in memory (at most the cap, and only what the budget granted). */
  kept = 0;
  /** Every byte that passed, kept or not. */
  total = 0;
  /** The shared budget ran out before the cap was reached. */
  starved = false;
  private released = false;

  constructor(
    private readonly cap: number,
    private readonly budget?: ByteBudget,
  ) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    // A request may still stream on after its exchange was read (a target that answered early).
    if (this.kept >= this.cap || this.starved || this.released) return;
    const wanted = Math.min(chunk.length, this.cap - this.kept);
    const granted = this.budget ? this.budget.take(wanted) : wanted;
    if (granted < wanted) this.starved = true;
    if (granted === 0) return;
    let piece = granted === chunk.length ? chunk : chunk.subarray(0, granted);
    // A few bytes cut from a large read would keep the whole read alive, outside the budget's count.
    if (piece.length * COPY_BELOW_SHARE < piece.buffer.byteLength) piece = Buffer.from(piece);
    this.chunks.push(piece);
    this.kept += piece.length;
  }

  get truncated(): boolean {
    return this.total > this.kept;
  }

  /** The copy in one piece; the pieces go, so the copy is held once. */
  bytes(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.kept)];
    return this.chunks[0] ?? EMPTY;
  }

  /** The copy is no longer needed: its bytes go back to the budget (once, however often this is called). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget?.give(this.kept);
    this.chunks = [];
  }
}

export interface CaptureError {
  /** connect, tls, reset, timeout, client-aborted, client (a request body that cannot be framed), upstream (any other failure of the target's side). */
  readonly kind: string;
  readonly message: string;
}

export interface Capture {
  readonly seq: number;
  /** Epoch milliseconds; turned into text only when the exchange is read, off the hot path. */
  readonly startedAtMs: number;
  readonly client?: string;
  readonly method: string;
  /** The request target as the client sent it (path and query). */
  readonly url: string;
  /** As they went to the target (Host naming it, hop-by-hop headers left on the client's hop). */
  readonly requestHeaders: ReadonlyArray<readonly [string, string]>;
  readonly requestBody: BodyCapture;
  /** The URL it went to. */
  readonly forwardedUrl: string;
  status?: number;
  statusText?: string;
  replyHeaders?: ReadonlyArray<readonly [string, string]>;
  readonly replyBody: BodyCapture;
  /** Milliseconds since the request's first byte arrived (performance.now() based). */
  connectMs?: number;
  requestSentAt?: number;
  responseAt?: number;
  endedAt?: number;
  error?: CaptureError;
  /** Interim (1xx) replies before the final one (the first MAX_INTERIM). */
  interim?: Array<{ readonly status: number; readonly statusText: string; readonly headers: ReadonlyArray<readonly [string, string]> }>;
  requestTrailers?: ReadonlyArray<readonly [string, string]>;
  replyTrailers?: ReadonlyArray<readonly [string, string]>;
  /** The inspector made the client's reply itself (a 502 for a target it could not reach, a 504 for one that did not answer…). */
  answered?: { readonly status: number; readonly statusText: string };
}

/** Interim replies kept per exchange: a target may send any number; they all still pass. */
export const MAX_INTERIM = 16;
