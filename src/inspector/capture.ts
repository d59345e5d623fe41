/**
 * What the hot path keeps of one exchange: facts only (times, headers, the first part of each
 * body), so forwarding never waits for parsing. Chunks are kept by reference, not copied.
 */
export class BodyCapture {
  private readonly chunks: Buffer[] = [];
  /** Bytes held in memory (at most the cap). */
  kept = 0;
  /** Every byte that passed, kept or not. */
  total = 0;

  constructor(private readonly cap: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= this.cap) return;
    const room = this.cap - this.kept;
    const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(piece);
    this.kept += piece.length;
  }

  get truncated(): boolean {
    return this.total > this.kept;
  }

  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.kept);
  }
}

export interface CaptureError {
  /** connect, tls, reset, client-aborted, client (a request body that cannot be framed), upstream (any other failure of the target's side). */
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
  readonly requestHeaders: ReadonlyArray<readonly [string, string]>;
  readonly requestBody: BodyCapture;
  /** The URL it went to. */
  readonly forwardedUrl: string;
  status?: number;
  statusText?: string;
  replyHeaders?: ReadonlyArray<readonly [string, string]>;
  readonly replyBody: BodyCapture;
  /** Milliseconds since the request arrived (performance.now() based). */
  connectMs?: number;
  requestSentAt?: number;
  responseAt?: number;
  endedAt?: number;
  error?: CaptureError;
}
