/**
 * The hot path: one client connection, relayed byte for byte to a connection of its own to the
 * target. Only request heads are rewritten (Host, the path prefix); everything else — bodies in
 * both directions, replies whole — passes as it comes, never buffered. Alongside, a light framer
 * finds where each message starts and ends, so every exchange gets its times, its headers and a
 * capped copy of each body; the catalog's reading of it comes later, off this path.
 *
 * A connection is held only while it is used: one that waits between requests, takes too long to
 * send a head, or stalls in a body (either way) is closed by the server's sweep (sweep()); a
 * `Connection: close` from either side ends it after that exchange.
 */
import type * as net from 'node:net';
import { performance } from 'node:perf_hooks';
import { BodyCapture, MAX_INTERIM, type ByteBudget, type Capture, type CaptureError } from './capture';
import { bodyFramer, type BodyFramer } from './wire/body';
import { framingOf, FramingError, HeadReader, HeadTooLarge, headerOf, parseHead, requestCloses, requestHeadProblem, type Head } from './wire/head';
import { forwardedHead, parseRequestLine, parseStatusLine, RequestLineError } from './wire/rewrite';
import type { Target } from './target';

export interface RelayHooks {
  readonly target: Target;
  readonly maxBodyBytes: number;
  /** Shared by every connection: body copies are kept only while it lasts. */
  readonly budget: ByteBudget;
  nextSeq(): number;
  /** A request refused before it began (not recorded as an exchange), or a connection cut for time. */
  note(line: string): void;
  /** A request has begun (the reading of exchanges waits while any is in flight). */
  begin(): void;
  /** The exchange is over, one way or another: hand it over for reading. */
  done(capture: Capture): void;
}

interface Live {
  readonly capture: Capture;
  readonly t0: number;
  finished: boolean;
  /** Date.now() when the request's last byte went on: the target's silence counts from there. */
  t0Wall: number;
  /** The client asked to close the connection after this exchange. */
  readonly lastRequest: boolean;
  /** Its reply, the connection's last, is over; the connection closes once the request is all sent. */
  closeWhenSent?: boolean;
}

/** How long a connection may wait, in milliseconds (the server checks every relay now and then). */
export interface Timeouts {
  /** No exchange under way: before the first request or between two. */
  readonly idleMs: number;
  /** From the first byte of a request head to its blank line. */
  readonly headersMs: number;
  /** The longest silence inside an exchange: a request body stalled, a target that does not answer or stalls in its reply, a client that does not read it. */
  readonly bodyMs: number;
}

function classify(err: NodeJS.ErrnoException, target: string, connected: boolean): CaptureError {
  const code = err.code ?? '';
  if (!connected && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT)$/.test(code)) {
    return { kind: 'connect', message: `Could not connect to ${target}: ${err.message}` };
  }
  if (/CERT|SSL|TLS|ERR_SSL/.test(code) || /certificate|TLS|SSL/i.test(err.message))
    return { kind: 'tls', message: `TLS with ${target} failed: ${err.message}` };
  if (code === 'ECONNRESET' || code === 'EPIPE') return { kind: 'reset', message: `The connection to ${target} was reset: ${err.message}` };
  return { kind: 'upstream', message: `${target}: ${err.message}` };
}

/** How long a connection being closed by the inspector still reads (and drops) what the client sends. */
const LINGER_MS = 2000;

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

/**
 * Why the inspector answers a client itself, in the `X-Carrier-Inspect` header of its reply, so a
 * program (or a person reading its log) can tell the inspector's reply from the target's.
 */
export type OwnReply = 'refused' | 'client-timeout' | 'target-unreachable' | 'target-timeout';

function plainReply(status: string, text: string, why: OwnReply): Buffer {
  const body = Buffer.from(`${text}\n`, 'utf8');
  return Buffer.concat([
    Buffer.from(
      `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nX-Carrier-Inspect: ${why}\r\nConnection: close\r\n\r\n`,
      'latin1',
    ),
    body,
  ]);
}

/** `502 Bad Gateway` → the status and its reason, as an exchange records them. */
function statusOf(status: string): { status: number; statusText: string } {
  return { status: Number(status.slice(0, 3)), statusText: status.slice(4) };
}

export class Relay {
  private upstream: net.Socket | undefined;
  private upstreamConnected = false;
  /** Exchanges whose request went (or is going) to the target, oldest first, awaiting their replies. */
  private readonly pending: Live[] = [];
  private readonly reqHead = new HeadReader();
  private reqBody: BodyFramer | undefined;
  private reqLive: Live | undefined;
  private resHead = new HeadReader();
  private resBody: BodyFramer | undefined;
  private resHeadAt: number | undefined;
  /** After a 101 (or a request body that cannot be framed), client bytes just pass. */
  private reqTunnel = false;
  /** After a 101 or a reply that cannot be read, target bytes just pass; nothing more is framed. */
  private resTunnel = false;
  private clientEnded = false;
  private lastReplyCloses = false;
  private closed = false;
  /** The connection's last request has been relayed whole (it asked to close, or a reply closed): what the client sends next is not relayed. */
  private clientDone = false;
  private closeWhenFlushed: Live | undefined;
  private readonly clientAddress: string | undefined;
  /** Date.now() of the last byte from each side, the start of the head being read, and when forwarding last had to wait for a reader. */
  private clientAt = Date.now();
  private upstreamAt = 0;
  private headAt = 0;
  /** performance.now() of the first byte of the request head being read: the exchange's time starts there. */
  private headStart = 0;
  private pausedAt = 0;
  /** Date.now() after which a connection being shut is destroyed, whatever the client does. */
  private lingerUntil = 0;

  constructor(
    private readonly client: net.Socket,
    private readonly hooks: RelayHooks,
  ) {
    client.setNoDelay(true);
    this.clientAddress = client.remoteAddress ? `${client.remoteAddress}:${client.remotePort}` : undefined;
    client.on('data', (chunk: Buffer) => {
      this.clientAt = Date.now();
      this.fromClient(chunk);
    });
    client.on('end', () => this.onClientEnd());
    client.on('error', () => undefined);
    client.on('close', () => this.onClientClose());
  }

  /** True when no exchange is under way: closing now loses nothing. */
  get idle(): boolean {
    return this.pending.length === 0 && !this.reqHead.started && !this.reqBody;
  }

  /**
   * Closes what has waited too long. A stalled request body gets a 408 and a silent target a 504
   * when nothing of the reply has reached the client yet; otherwise the connection is cut, as
   * the client would see from a service that gave up. Each such exchange is recorded as a timeout.
   */
  sweep(now: number, t: Timeouts): void {
    if (this.closed) {
      if (this.lingerUntil && now > this.lingerUntil) this.client.destroy();
      return;
    }
    if (this.idle) {
      if (now - Math.max(this.clientAt, this.upstreamAt) > t.idleMs) {
        this.closed = true;
        this.client.destroySoon();
        this.upstream?.destroy();
      }
      return;
    }
    if (this.reqHead.started && !this.reqBody) {
      if (now - this.headAt > t.headersMs) {
        this.hooks.note(`closed a connection from ${this.clientAddress ?? 'a client'}: its request head took longer than ${seconds(t.headersMs)}`);
        this.refuse('408 Request Timeout', `Carrier inspector: the request head was not complete within ${seconds(t.headersMs)}`, 'client-timeout');
        this.upstream?.destroy();
      }
      return;
    }
    const paused = this.pausedAt > 0 && (this.client.isPaused() || (this.upstream?.isPaused() ?? false));
    if (paused) {
      if (now - this.pausedAt > t.bodyMs) this.timeOut(`a side did not read for ${seconds(t.bodyMs)}`, false);
      return;
    }
    if (this.reqBody && this.reqLive && now - this.clientAt > t.bodyMs) {
      this.timeOut(`the client sent nothing of its request body for ${seconds(t.bodyMs)}`, true);
      return;
    }
    const first = this.pending[0];
    if (first && first.capture.requestSentAt !== undefined && now - Math.max(this.upstreamAt, first.t0Wall) > t.bodyMs) {
      this.timeOut(`${this.hooks.target.display} sent nothing for ${seconds(t.bodyMs)}`, false);
    }
  }

  /** Ends the exchanges under way with a timeout: a 408 or 504 if the client has had nothing of a reply yet. */
  private timeOut(why: string, clientSide: boolean): void {
    const first = this.pending[0];
    const untouched = first !== undefined && first.capture.status === undefined && !this.resHead.started;
    const error: CaptureError = { kind: 'timeout', message: `Timed out: ${why}` };
    if (untouched && this.client.writable) {
      const status = clientSide ? '408 Request Timeout' : '504 Gateway Timeout';
      const text = clientSide ? `Carrier inspector: ${why}` : `Carrier inspector: this ${status} is the inspector's reply, not the target's: ${why}`;
      this.shut(plainReply(status, text, clientSide ? 'client-timeout' : 'target-timeout'));
      first.capture.answered = statusOf(status);
    } else {
      this.closed = true;
      this.client.destroy();
    }
    this.upstream?.destroy();
    this.upstream = undefined;
    for (const live of [...this.pending]) this.finish(live, error);
  }

  destroy(): void {
    this.client.destroy();
  }

  // ---- client → target ----

  private fromClient(chunk: Buffer): void {
    if (this.closed || this.clientDone) return;
    if (this.reqTunnel) {
      this.toUpstream(chunk);
      return;
    }
    let i = 0;
    const out: Buffer[] = [];
    while (i < chunk.length) {
      if (!this.reqBody) {
        if (!this.reqHead.started) {
          // A stray CRLF between messages is allowed before a request line (RFC 9112 §2.2).
          while (i < chunk.length && (chunk[i] === 13 || chunk[i] === 10)) i++;
          if (i >= chunk.length) break;
        }
        if (!this.reqHead.started) {
          this.headAt = Date.now();
          this.headStart = performance.now();
        }
        let end: number;
        try {
          end = this.reqHead.push(chunk, i);
        } catch (e) {
          if (e instanceof HeadTooLarge) return this.refuse('431 Request Header Fields Too Large', `Carrier inspector: ${e.message}`, 'refused');
          throw e;
        }
        if (end < 0) break;
        i = end;
        const head = this.startRequest(this.reqHead.take());
        if (!head) return;
        out.push(head);
        if (this.clientDone) break;
        continue;
      }
      const live = this.reqLive!;
      const start = i;
      try {
        i = this.reqBody.feed(chunk, i, (payload) => live.capture.requestBody.add(payload));
      } catch (e) {
        if (!(e instanceof FramingError)) throw e;
        live.capture.error ??= { kind: 'client', message: `The request body cannot be read: ${e.message}` };
        this.flush(out);
        this.toUpstream(chunk.subarray(start));
        this.reqTunnel = true;
        return;
      }
      out.push(start === 0 && i === chunk.length ? chunk : chunk.subarray(start, i));
      if (this.reqBody.done) this.requestComplete(live);
      // Nothing after a request that closes the connection is relayed (RFC 9112 §9.6).
      if (this.clientDone) break;
      if (this.reqTunnel) {
        if (i < chunk.length) out.push(chunk.subarray(i));
        break;
      }
    }
    this.flush(out);
  }

  private flush(out: Buffer[]): void {
    if (out.length) this.toUpstream(out.length === 1 ? out[0] : Buffer.concat(out));
    const last = this.closeWhenFlushed;
    if (last) {
      this.closeWhenFlushed = undefined;
      this.closeAfterReply(last);
    }
  }

  /** Parses and rewrites one request head; undefined when the request was refused. */
  private startRequest(text: string): Buffer | undefined {
    const head = parseHead(text);
    let line;
    let framing;
    try {
      line = parseRequestLine(head.startLine);
      const problem = requestHeadProblem(head);
      if (problem) throw new FramingError(problem);
      framing = framingOf(head, 'none');
    } catch (e) {
      if (e instanceof RequestLineError || e instanceof FramingError) {
        this.hooks.note(`refused a request from ${this.clientAddress ?? 'a client'} with 400: ${e.message}`);
        this.refuse('400 Bad Request', `Carrier inspector: ${e.message}`, 'refused');
        return undefined;
      }
      throw e;
    }
    if (line.method === 'CONNECT') {
      // A client set up to use the inspector as its HTTPS proxy: say so where the developer looks.
      const own = `http://${this.client.localAddress?.includes(':') ? `[${this.client.localAddress}]` : this.client.localAddress}:${this.client.localPort}`;
      const how = `the inspector is not an HTTPS proxy: set the client's endpoint to ${own} plus the service path (${own}/1.0.3/RateQuoteService.asmx), with the service as --target, instead of a proxy setting`;
      this.hooks.note(`refused CONNECT ${line.path.slice(0, 80)} from ${this.clientAddress ?? 'a client'} with 501: ${how}`);
      this.refuse('501 Not Implemented', `Carrier inspector: ${how}`, 'refused');
      return undefined;
    }
    const { target, maxBodyBytes } = this.hooks;
    const lastRequest = requestCloses(head, line.version);
    const forwarded = forwardedHead(head, line, target.prefix, target.host, lastRequest);
    const t0 = this.headStart;
    const capture: Capture = {
      seq: this.hooks.nextSeq(),
      startedAtMs: performance.timeOrigin + t0,
      ...(this.clientAddress ? { client: this.clientAddress } : {}),
      method: line.method,
      url: line.path,
      requestHeaders: forwarded.headers,
      requestBody: new BodyCapture(maxBodyBytes, this.hooks.budget),
      forwardedUrl: `${target.display}${line.path}`,
      replyBody: new BodyCapture(maxBodyBytes, this.hooks.budget),
    };
    const live: Live = { capture, t0, t0Wall: Date.now(), finished: false, lastRequest };
    this.hooks.begin();
    this.pending.push(live);
    this.ensureUpstream(live);
    this.reqBody = bodyFramer(framing);
    this.reqLive = live;
    const bytes = Buffer.from(forwarded.text, 'latin1');
    if (this.reqBody.done) this.requestComplete(live);
    return bytes;
  }

  private requestComplete(live: Live): void {
    live.capture.requestSentAt = performance.now() - live.t0;
    if (this.reqBody?.trailers?.length) live.capture.requestTrailers = this.reqBody.trailers;
    live.t0Wall = Date.now();
    if (live.lastRequest) this.clientDone = true;
    // Closed once fromClient has passed these last bytes on.
    if (live.closeWhenSent) this.closeWhenFlushed = live;
    this.reqBody = undefined;
    this.reqLive = undefined;
  }

  private toUpstream(bytes: Buffer): void {
    const up = this.upstream;
    if (!up || up.destroyed) return;
    if (!up.write(bytes) && !this.client.isPaused()) {
      this.client.pause();
      this.pausedAt = Date.now();
      up.once('drain', () => {
        this.pausedAt = 0;
        this.client.resume();
      });
    }
  }

  private ensureUpstream(live: Live): void {
    if (this.upstream && !this.upstream.destroyed) return;
    const started = performance.now();
    const up = this.hooks.target.connect();
    this.upstream = up;
    this.upstreamConnected = false;
    // Whatever half a reply the last connection left behind belongs to no exchange now.
    this.resHead = new HeadReader();
    this.resBody = undefined;
    this.resHeadAt = undefined;
    up.setNoDelay(true);
    up.once(this.hooks.target.secure ? 'secureConnect' : 'connect', () => {
      this.upstreamConnected = true;
      const now = performance.now();
      live.capture.connectMs = now - started;
      // A request written while connecting waited in the socket: it went on only now.
      for (const p of this.pending) {
        if (p.capture.requestSentAt !== undefined) p.capture.requestSentAt = Math.max(p.capture.requestSentAt, now - p.t0);
      }
    });
    up.on('data', (chunk: Buffer) => {
      this.upstreamAt = Date.now();
      this.fromUpstream(chunk);
    });
    up.on('end', () => this.onUpstreamEnd(up));
    up.on('error', (err: NodeJS.ErrnoException) => this.onUpstreamError(up, err));
    up.on('close', () => this.onUpstreamEnd(up));
  }

  // ---- target → client ----

  private fromUpstream(chunk: Buffer): void {
    // Forward first: the reply reaches the client before anything looks at it.
    if (this.client.writable && !this.client.write(chunk) && this.upstream && !this.upstream.isPaused()) {
      const up = this.upstream;
      up.pause();
      this.pausedAt = Date.now();
      this.client.once('drain', () => {
        this.pausedAt = 0;
        up.resume();
      });
    }
    if (this.resTunnel) return;
    let i = 0;
    while (i < chunk.length) {
      const live = this.pending[0];
      if (!live) return;
      if (!this.resBody) {
        if (!this.resHead.started) this.resHeadAt = performance.now();
        let end: number;
        try {
          end = this.resHead.push(chunk, i);
        } catch (e) {
          if (!(e instanceof HeadTooLarge)) throw e;
          return this.unreadableReply(live, e.message);
        }
        if (end < 0) return;
        i = end;
        const head = parseHead(this.resHead.take());
        const status = parseStatusLine(head.startLine);
        if (!status) return this.unreadableReply(live, `"${head.startLine.slice(0, 60)}" is not an HTTP status line`);
        const c = live.capture;
        // 100 Continue, 102 Processing, 103 Early Hints: relayed as they came, the final reply still to come.
        if (status.status < 200 && status.status !== 101) {
          if ((c.interim ??= []).length < MAX_INTERIM) c.interim.push({ status: status.status, statusText: status.statusText, headers: head.headers });
          continue;
        }
        c.responseAt = (this.resHeadAt ?? performance.now()) - live.t0;
        c.status = status.status;
        c.statusText = status.statusText;
        c.replyHeaders = head.headers;
        this.lastReplyCloses = closesAfter(head);
        // Upgrade is not passed on, so a 101 is a service's own doing: from here on bytes just pass.
        if (status.status === 101) {
          this.resTunnel = true;
          this.reqTunnel = true;
          this.finish(live);
          return;
        }
        const bodiless = c.method === 'HEAD' || status.status === 204 || status.status === 304;
        try {
          this.resBody = bodyFramer(bodiless ? { kind: 'none' } : framingOf(head, 'close'));
        } catch (e) {
          if (!(e instanceof FramingError)) throw e;
          return this.unreadableReply(live, e.message);
        }
      }
      try {
        i = this.resBody.feed(chunk, i, (payload) => live.capture.replyBody.add(payload));
      } catch (e) {
        if (!(e instanceof FramingError)) throw e;
        return this.unreadableReply(live, e.message);
      }
      if (this.resBody.done) {
        if (this.resBody.trailers?.length) live.capture.replyTrailers = this.resBody.trailers;
        this.resBody = undefined;
        this.finish(live);
      }
    }
  }

  /** A reply that cannot be framed still goes to the client as it is; it is just no longer followed. */
  private unreadableReply(live: Live, why: string): void {
    live.capture.error ??= { kind: 'upstream', message: `The reply cannot be read as HTTP: ${why}` };
    this.resTunnel = true;
    this.resBody = undefined;
    this.finish(live);
  }

  private finish(live: Live, error?: CaptureError): void {
    if (live.finished) return;
    live.finished = true;
    if (error) live.capture.error ??= error;
    live.capture.endedAt = performance.now() - live.t0;
    const at = this.pending.indexOf(live);
    if (at >= 0) this.pending.splice(at, 1);
    // A reply may come before the request is all sent (a service refusing early): the rest of the
    // request still streams on. Only a broken exchange stops following it.
    if (this.reqLive === live && error) {
      this.reqLive = undefined;
      this.reqBody = undefined;
    }
    this.hooks.done(live.capture);
    if (!error && (live.lastRequest || (this.lastReplyCloses && live.capture.status !== undefined))) {
      // A reply that came before its request was all sent: the rest of the request goes on first.
      if (this.reqLive === live) live.closeWhenSent = true;
      else return this.closeAfterReply(live);
    }
    if (this.clientEnded && this.pending.length === 0 && this.client.writable) this.client.end();
  }

  /**
   * The exchange that was to be the connection's last is over: the client asked for that, or the
   * target's reply said `Connection: close` (which the client has read too). Requests the client
   * sent after it were never answered; the connection is closed once the reply is written.
   */
  private closeAfterReply(last: Live): void {
    this.clientDone = true;
    const target = this.hooks.target.display;
    for (const live of [...this.pending]) {
      this.finish(live, {
        kind: 'upstream',
        message: last.lastRequest
          ? 'The client had asked to close the connection after an earlier request'
          : `${target} closed the connection after the reply before this one`,
      });
    }
    this.upstream?.end();
    this.shut();
  }

  /**
   * Ends the client's connection after what is written: the client reads it, then sees the end.
   * Whatever it still sends is read and dropped for a moment (a close with unread bytes would be
   * a reset that can overtake the reply), then the connection goes (sweep()).
   */
  private shut(last?: Buffer): void {
    this.closed = true;
    if (this.client.writable) {
      if (last) this.client.end(last);
      else this.client.end();
    }
    this.lingerUntil = Date.now() + LINGER_MS;
  }

  private onUpstreamEnd(up: net.Socket): void {
    if (up !== this.upstream) return;
    this.upstream = undefined;
    // A reply delimited by the end of the connection is complete now.
    if (this.resBody?.kind === 'close' && this.pending[0]) {
      this.resBody = undefined;
      this.finish(this.pending[0]);
    }
    this.resBody = undefined;
    const broken = this.pending.length > 0;
    for (const live of [...this.pending]) {
      const c = live.capture;
      const target = this.hooks.target.display;
      // A client that closed its side first is what made most services give up.
      this.finish(
        live,
        this.clientEnded
          ? { kind: 'client-aborted', message: `The client closed its side of the connection before the reply was complete; ${target} closed too` }
          : c.status !== undefined
            ? { kind: 'reset', message: `${target} closed the connection before the reply was complete` }
            : { kind: 'upstream', message: `${target} closed the connection without replying` },
      );
    }
    // The client learns of the break the way it would from the service itself.
    if (broken) this.client.destroy();
    else if (this.resTunnel || this.reqTunnel || this.lastReplyCloses || this.clientEnded) this.client.end();
    // Otherwise the client keeps its connection; its next request opens a new one to the target.
  }

  private onUpstreamError(up: net.Socket, err: NodeJS.ErrnoException): void {
    if (up !== this.upstream) return;
    const error = classify(err, this.hooks.target.display, this.upstreamConnected);
    this.upstream = undefined;
    up.destroy();
    const first = this.pending[0];
    if (first && first.capture.status === undefined && !this.resHead.started && this.client.writable) {
      // Nothing of a reply has reached the client: tell it why, as a gateway does, and that the
      // reply is the inspector's — without the inspector the client would have had the error itself.
      const status = '502 Bad Gateway';
      this.shut(plainReply(status, `Carrier inspector: this ${status} is the inspector's reply, not the target's: ${error.message}`, 'target-unreachable'));
      first.capture.answered = statusOf(status);
    } else {
      this.client.destroy();
    }
    for (const live of [...this.pending]) this.finish(live, error);
  }

  private onClientEnd(): void {
    this.clientEnded = true;
    if (this.pending.length === 0) {
      this.upstream?.end();
      if (this.client.writable) this.client.end();
    } else {
      // Half-closed: the replies still to come are sent before the connection is closed.
      this.upstream?.end();
    }
  }

  private onClientClose(): void {
    this.closed = true;
    for (const live of [...this.pending]) {
      this.finish(live, { kind: 'client-aborted', message: 'The client closed the connection before the exchange was over' });
    }
    this.upstream?.destroy();
    this.upstream = undefined;
  }

  private refuse(status: string, text: string, why: OwnReply): void {
    this.shut(plainReply(status, text, why));
  }
}

/** The service will close the connection after this reply (RFC 9112 §9.3). */
function closesAfter(head: Head): boolean {
  const connection = (headerOf(head, 'connection') ?? '').toLowerCase();
  if (/\bclose\b/.test(connection)) return true;
  return head.startLine.startsWith('HTTP/1.0') && !/\bkeep-alive\b/.test(connection);
}
