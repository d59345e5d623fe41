/**
 * Sends one HTTP request over the pooled dispatcher and reports what happened, never throwing
 * for a network outcome: the request headers as sent; status, headers and the raw body bytes as
 * received (partial when the exchange was cut short), timing phases, and a classified error.
 * Redirects are reported, never followed. The body is read chunk by chunk and reading stops at the size limit.
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { HttpRequestSpec, Timing } from '../exchange';
import { classifyError } from './classify';
import { listen, stopListening } from './listening';
import { headersAsSent } from './sentHeaders';
import type { SocketStamp, SocketWaiter } from '../context';
import type { HttpOutcome, Phase, TransportError } from './types';

export interface HttpSendOptions {
  readonly dispatcher: Dispatcher;
  /** Told as the request starts, to learn its socket's connect and TLS times (CoreHttp.expectSocket). */
  readonly expectSocket?: (waiter: SocketWaiter) => void;
  /** The whole exchange, connect to last byte. */
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  /** Waiting for the reply headers; defaults to timeoutMs. */
  readonly headersTimeoutMs?: number;
  /** Longest pause between two body chunks; defaults to timeoutMs. */
  readonly bodyTimeoutMs?: number;
  readonly maxReplyBytes: number;
  readonly signal?: AbortSignal;
  readonly onPhase?: (phase: Phase) => void;
  /** The URL as messages may show it (redacted); defaults to spec.url. */
  readonly displayUrl?: string;
  /**
   * Only what judging the reply reads (a load run's exchange, judged and dropped): the reply's
   * headers are its Content-Type alone, and the request headers as sent are not worked out
   * (`sentHeaders` is empty). Status, body, timing and errors are as ever.
   */
  readonly judgedOnly?: boolean;
}

class Stop extends Error {
  constructor(readonly transport: TransportError) {
    super(transport.message);
  }
}

export function sendHttp(spec: HttpRequestSpec, options: HttpSendOptions): Promise<HttpOutcome> {
  return new Promise<HttpOutcome>((resolve) => new HttpCall(spec, options, resolve).start());
}

function flatten(headers: ReadonlyArray<readonly [string, string]>): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i++) out.push(headers[i][0], headers[i][1]);
  return out;
}

/** What undici is handed for a request: derived from the spec alone, and the same for every send of it. */
interface WireForm {
  readonly origin: string;
  readonly path: string;
  readonly headers: readonly string[];
  readonly body: Buffer | undefined;
}

/**
 * Wire forms by spec. A prepared request (the runner sends one file's spec again and again) is
 * encoded and its URL parsed once; specs are never changed after they are made (Exchange is
 * read-only throughout), and undici only reads the body it is given.
 */
const wireForms = new WeakMap<HttpRequestSpec, WireForm | null>();

interface Target {
  readonly origin: string;
  readonly path: string;
}

/**
 * Origin and path by URL: a fresh spec is made for every single send, but a SOAP or POST URL is
 * one of the few an environment's shapes have, and parsing it cost more than the rest of the wire
 * form. A URL with a query (a GET's, which carries its parameters and the key) is parsed each
 * time and never kept. Emptied when full, so a run over many URLs holds at most this many.
 */
const targets = new Map<string, Target | null>();
const MAX_TARGETS = 256;

function targetOf(url: string): Target | null {
  const keep = !url.includes('?') && !url.includes('#');
  let target = keep ? targets.get(url) : undefined;
  if (target === undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      /* reported by the caller */
    }
    target = parsed ? { origin: parsed.origin, path: parsed.pathname + parsed.search } : null;
    if (keep) {
      if (targets.size >= MAX_TARGETS) targets.clear();
      targets.set(url, target);
    }
  }
  return target;
}

/** null: the spec's URL is not one. */
function wireFormOf(spec: HttpRequestSpec): WireForm | null {
  let form = wireForms.get(spec);
  if (form === undefined) {
    const target = targetOf(spec.url);
    form = target
      ? { origin: target.origin, path: target.path, headers: flatten(spec.headers), body: spec.method === 'POST' ? Buffer.from(spec.body, 'utf8') : undefined }
      : null;
    wireForms.set(spec, form);
  }
  return form;
}

function pairs(raw: Buffer[] | null | undefined): [string, string][] {
  const out: [string, string][] = [];
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i].toString('latin1'), raw[i + 1].toString('latin1')]);
  return out;
}

/** The headers HttpCall itself reads (header()), and Content-Type, which judging reads: by name length, then name. */
const READ_HEADERS: ReadonlyMap<number, string> = new Map([
  [12, 'content-type'],
  [14, 'content-length'],
  [8, 'location'],
]);

/** Of the raw headers, those READ_HEADERS names only: the others are never turned into text. */
function pairsRead(raw: Buffer[] | null | undefined): [string, string][] {
  const out: [string, string][] = [];
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const wanted = READ_HEADERS.get(raw[i].length);
    if (wanted === undefined) continue;
    const name = raw[i].toString('latin1');
    if (name.toLowerCase() === wanted) out.push([name, raw[i + 1].toString('latin1')]);
  }
  return out;
}

const NO_HEADERS: ReadonlyArray<readonly [string, string]> = Object.freeze([]);

const ms = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : Math.max(0, Math.round((b - a) * 10) / 10));

/** One request in flight: the undici handler, the timers and what has arrived so far. */
class HttpCall {
  private readonly t0 = performance.now();
  private requestStartAt?: number;
  private firstByteAt?: number;
  private endAt?: number;
  private socket?: SocketStamp;
  /** The head the client wrote, when the dispatcher said (SocketWaiter.onSocket). */
  private sentHead?: string;
  /** The headers as sent, read from sentHead ahead of the reply (readSentHead). */
  private sent?: HttpOutcome['sentHeaders'];
  private controller?: Dispatcher.DispatchController;
  private pendingAbort?: Error;
  private settled = false;
  private timer?: NodeJS.Timeout;
  private status?: number;
  private statusText?: string;
  private headers?: [string, string][];
  private chunks: Buffer[] = [];
  private prealloc?: Buffer;
  private size = 0;
  private readonly url: string;
  private readonly wire: WireForm | null;
  /** @internal Called once the send's signal aborts (listening.ts). */
  readonly onAbort = () => this.stop({ kind: 'cancelled', message: `Cancelled: the request to ${this.url} was stopped` });

  constructor(
    private readonly spec: HttpRequestSpec,
    private readonly o: HttpSendOptions,
    private readonly done: (outcome: HttpOutcome) => void,
  ) {
    this.url = o.displayUrl ?? spec.url;
    this.wire = wireFormOf(spec);
  }

  start(): void {
    if (this.o.signal?.aborted) return this.onAbort();
    if (this.o.signal) listen(this.o.signal, this);
    this.timer = setTimeout(
      () => this.stop({ kind: 'timeout', message: `No complete reply from ${this.url} within ${this.o.timeoutMs} ms` }),
      this.o.timeoutMs,
    );
    const wire = this.wire;
    if (!wire) return this.finish({ kind: 'network', message: `Not a valid URL: ${this.url}` });
    this.o.onPhase?.('connecting');
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- undici calls the handler's methods with the handler as `this`
    const self = this;
    const handler: Dispatcher.DispatchHandler & { onResponseStarted(): void } = {
      onRequestStart(controller) {
        self.controller = controller;
        if (self.pendingAbort) return controller.abort(self.pendingAbort);
        self.requestStartAt = performance.now();
        self.o.expectSocket?.({
          origin: wire.origin,
          path: wire.path,
          method: self.spec.method,
          onSocket: (s, head) => {
            self.socket = s;
            self.sentHead = head;
          },
        });
        self.o.onPhase?.('waiting');
      },
      onResponseStarted() {
        self.firstByteAt ??= performance.now();
      },
      onResponseStart(controller, statusCode, _headers, statusMessage) {
        self.firstByteAt ??= performance.now();
        self.status = statusCode;
        self.statusText = statusMessage ?? '';
        self.headers = (self.o.judgedOnly ? pairsRead : pairs)(controller.rawHeaders as Buffer[] | undefined);
        self.o.onPhase?.('receiving');
        const length = Number(self.header('content-length'));
        if (Number.isFinite(length) && length > self.o.maxReplyBytes) {
          // Refuse before reading a byte: the server said how much is coming.
          controller.abort(new Stop(self.tooLarge(length)));
          return;
        }
        if (Number.isFinite(length) && length > 0) self.prealloc = Buffer.allocUnsafe(length);
      },
      onResponseData(controller, chunk) {
        const room = self.o.maxReplyBytes - self.size;
        if (chunk.length > room) {
          self.append(chunk.subarray(0, room));
          controller.abort(new Stop(self.tooLarge()));
          return;
        }
        self.append(chunk);
      },
      onResponseEnd() {
        self.endAt = performance.now();
        self.finish(self.redirect());
      },
      onResponseError(_controller, err) {
        if (err instanceof Stop) return self.finish(err.transport);
        self.finish(classifyError(err, { url: self.url, timeoutMs: self.o.timeoutMs, connectTimeoutMs: self.o.connectTimeoutMs }));
      },
    };
    try {
      this.o.dispatcher.dispatch(
        {
          origin: wire.origin,
          path: wire.path,
          method: this.spec.method,
          headers: wire.headers as string[],
          body: wire.body,
          headersTimeout: this.o.headersTimeoutMs ?? this.o.timeoutMs,
          bodyTimeout: this.o.bodyTimeoutMs ?? this.o.timeoutMs,
        },
        handler,
      );
    } catch (err) {
      this.finish(classifyError(err, { url: this.url, timeoutMs: this.o.timeoutMs, connectTimeoutMs: this.o.connectTimeoutMs }));
    }
    // The head as written is read while the server works, once the caller's own turn is over (a
    // dispatcher that writes a request alone at once has written it by then).
    if (!this.settled && !this.o.judgedOnly) queueMicrotask(this.readSentHead);
  }

  /** The headers as sent, from the head the client wrote, once it is known. */
  private readonly readSentHead = (): void => {
    if (!this.settled && this.sentHead !== undefined && this.sent === undefined)
      this.sent = headersAsSent(this.spec, this.sentHead, this.wire?.origin, this.wire?.body);
  };

  private header(name: string): string | undefined {
    return this.headers?.find((h) => h[0].toLowerCase() === name)?.[1];
  }

  private append(chunk: Buffer): void {
    if (this.prealloc && this.size + chunk.length <= this.prealloc.length) chunk.copy(this.prealloc, this.size);
    else {
      // More than Content-Length announced (or none announced): fall back to collecting chunks.
      if (this.prealloc) {
        this.chunks.push(this.prealloc.subarray(0, this.size));
        this.prealloc = undefined;
      }
      this.chunks.push(Buffer.from(chunk));
    }
    this.size += chunk.length;
  }

  private bodyBytes(): Buffer {
    if (this.prealloc) return this.prealloc.subarray(0, this.size);
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
  }

  private tooLarge(announced?: number): TransportError {
    const limit = this.o.maxReplyBytes;
    return {
      kind: 'too-large',
      message:
        announced !== undefined
          ? `The reply from ${this.url} is ${announced} bytes, more than the limit of ${limit} bytes (maxReplyBytes); nothing of it was read`
          : `The reply from ${this.url} is larger than the limit of ${limit} bytes (maxReplyBytes); reading stopped there`,
    };
  }

  /** 3xx is reported, never followed: a redirect to another host could carry the key there. */
  private redirect(): TransportError | undefined {
    if (this.status === undefined || this.status < 300 || this.status >= 400 || this.status === 304) return undefined;
    const location = this.header('location');
    return {
      kind: 'redirect',
      message: `${this.url} answered ${this.status}${this.statusText ? ` ${this.statusText}` : ''}${location ? ` redirecting to ${location}` : ' (a redirect without a Location)'}; redirects are never followed — check the environment's baseUrl`,
    };
  }

  /** Our own cut-off (cancel, total timeout): settle now; undici is told to drop the request. */
  private stop(error: TransportError): void {
    if (this.settled) return;
    const reason = new Stop(error);
    if (this.controller) this.controller.abort(reason);
    else this.pendingAbort = reason;
    this.finish(error);
  }

  private finish(error?: TransportError): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.o.signal) stopListening(this.o.signal, this);
    const end = this.endAt ?? performance.now();
    // Connect and TLS count only when this request opened the connection itself.
    const fresh = this.socket && this.socket.startedAt >= this.t0 ? this.socket : undefined;
    // A phase that did not happen is absent, not zero.
    const phases: { -readonly [K in keyof Timing]?: Timing[K] } = {};
    const connectMs = ms(fresh?.startedAt, fresh?.tcpAt);
    if (connectMs !== undefined) phases.connectMs = connectMs;
    const tlsMs = ms(fresh?.tcpAt, fresh?.tlsAt);
    if (tlsMs !== undefined) phases.tlsMs = tlsMs;
    const firstByteMs = ms(this.requestStartAt, this.firstByteAt);
    if (firstByteMs !== undefined) phases.firstByteMs = firstByteMs;
    const downloadMs = this.endAt !== undefined ? ms(this.firstByteAt, this.endAt) : undefined;
    if (downloadMs !== undefined) phases.downloadMs = downloadMs;
    phases.totalMs = ms(this.t0, end) ?? 0;
    const timing = phases as Timing;
    const judgedOnly = this.o.judgedOnly === true;
    const outcome: HttpOutcome = {
      status: this.status,
      statusText: this.statusText,
      headers: judgedOnly ? this.headers?.filter((h) => h[0].length === 12 && h[0].toLowerCase() === 'content-type') : this.headers,
      body: this.status !== undefined ? this.bodyBytes() : undefined,
      complete: this.endAt !== undefined,
      timing,
      requestBytes: this.wire?.body?.length ?? 0,
      sentHeaders: judgedOnly ? NO_HEADERS : (this.sent ?? headersAsSent(this.spec, this.sentHead, this.wire?.origin, this.wire?.body)),
      error,
    };
    this.chunks = [];
    this.done(outcome);
  }
}
