/** What the transport reports about one HTTP exchange. */
import type { Timing } from '../exchange';

export type TransportErrorKind = 'timeout' | 'cancelled' | 'connect' | 'dns' | 'reset' | 'too-large' | 'tls' | 'redirect' | 'proxy' | 'network';

export interface TransportError {
  readonly kind: TransportErrorKind;
  /** Readable, naming the URL (as given for display: redacted). */
  readonly message: string;
  /** The underlying error code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, …), when there was one. */
  readonly code?: string;
}

export type Phase = 'connecting' | 'waiting' | 'receiving' | 'parsing' | 'done';

export interface HttpOutcome {
  /** Present once the reply's status line arrived. */
  readonly status?: number;
  readonly statusText?: string;
  /** Reply headers as received: names as sent by the server, in order. */
  readonly headers?: ReadonlyArray<readonly [string, string]>;
  /** The reply body bytes as received; partial when `complete` is false. */
  readonly body?: Buffer;
  /** True when the whole reply body arrived. */
  readonly complete: boolean;
  readonly timing: Timing;
  readonly requestBytes: number;
  /**
   * The request headers as they went: those the HTTP client adds (Host, Connection,
   * Content-Length) with the request's own, in the order written (sentHeaders.ts). Not redacted.
   */
  readonly sentHeaders: ReadonlyArray<readonly [string, string]>;
  readonly error?: TransportError;
}
