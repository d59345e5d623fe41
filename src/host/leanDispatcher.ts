/**
 * A lean HTTP/1.1 dispatcher, every face's for plain `http:` (src/host/dispatchers.ts): the part
 * of undici's Dispatcher that core's `sendHttp`
 * (src/core/transport/http.ts) uses — `dispatch` with a handler of undici 7's
 * protocol (onRequestStart, onResponseStart, onResponseData, onResponseEnd, onResponseError) —
 * over plain `net` sockets, the request written with one `socket.write` and the reply framed by
 * http-parser-js, as autocannon does. Core does not know which dispatcher it got.
 *
 * Plain `http:` origins, GET and POST with a Buffer body (or none) and headers as a flat array
 * only; anything else (TLS, another method, a header undici treats itself such as Host or
 * Connection, an old-style handler) goes to the undici dispatcher it is given. Keep-alive sockets
 * per origin, one request in flight on each, no limit on their number (as undici's Agent). A
 * socket is reused only when its reply ended cleanly, did not say `Connection: close` and gave
 * more than undici's 2 s of `Keep-Alive`. One reused at once (a load run's next request, in the
 * same turn of the loop) is written on straight away; one that sat idle longer first waits for
 * the loop to poll for I/O once more, so that a close or reset already on its way is read and the
 * request goes on a fresh socket instead (undici waits one `setImmediate` likewise): a request is
 * not written on a socket the server closed while it was idle. A request written on a socket the
 * server then drops fails (a reset), never sent again, as undici does for a POST. Errors carry
 * undici's codes (UND_ERR_SOCKET, UND_ERR_CONNECT_TIMEOUT, UND_ERR_HEADERS_TIMEOUT,
 * UND_ERR_BODY_TIMEOUT…) or the socket's own (ECONNREFUSED, ECONNRESET…), which `classifyError`
 * reads.
 */
import * as net from 'node:net';
import { performance } from 'node:perf_hooks';
import { HTTPParser } from 'http-parser-js';
import { BAD_VALUE, LeanHttpError, StrictParser, TOKEN, lowerName, overflowError, type ParserInfo } from './strictParser';
import type { Dispatcher } from 'undici';
import type { SocketStamp, SocketWaiter } from '../core';

type Handler = Dispatcher.DispatchHandler;

/** undici's defaults (client.js): the idle keep-alive time, the waits for headers and body. */
const KEEP_ALIVE_MS = 4_000;
const KEEP_ALIVE_THRESHOLD_MS = 2_000;
const KEEP_ALIVE_MAX_MS = 600_000;
/** A socket released this long ago in the same turn of the loop is written on at once (a load run's next request). */
const FRESH_MS = 5;
const DEFAULT_TIMEOUT_MS = 300_000;
const NO_CONTEXT = Object.freeze({});
const NO_TRAILERS: readonly string[] = Object.freeze([]);

const socketError = (message: string) => new LeanHttpError('SocketError', message, 'UND_ERR_SOCKET');
const destroyedError = () => new LeanHttpError('ClientDestroyedError', 'The client is destroyed', 'UND_ERR_DESTROYED');

/** Header names undici handles itself (or refuses): a request with one goes to undici. */
const OWN_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']);
const BAD_PATH = /[^\u0021-\u00ff]/;

/** The bytes of one request as written: head and body in one buffer. */
interface Form {
  readonly origin: string;
  readonly method: string;
  readonly path: string;
  readonly body: Uint8Array | null;
  readonly head: string;
  readonly bytes: Buffer;
}

/**
 * Forms by headers array: sendHttp hands the same array (and body) for every send of a prepared
 * request, so its head is written into bytes once. Checked against the rest of the options.
 */
const forms = new WeakMap<readonly unknown[], Form>();

/**
 * Requests started in one turn of the loop are written together, after its poll phase (one
 * `socket.write` each): a server woken by the first finds the rest waiting, rather than being
 * woken again for each (each write that wakes a sleeping server cost the load run about 13 µs of
 * its own time in the kernel; written together, about 4 µs). A request with no other in flight
 * and none waiting to be written has nothing to be written with: it goes at once, rather than a
 * turn of the loop later (at concurrency 1 that turn was about 6 µs of every round trip).
 */
const writes: Array<net.Socket | Buffer> = [];
function queueWrite(socket: net.Socket, bytes: Buffer, alone: boolean): void {
  if (alone && writes.length === 0) {
    socket.write(bytes);
    return;
  }
  if (writes.length === 0) setImmediate(flushWrites);
  writes.push(socket, bytes);
}
function flushWrites(): void {
  for (let i = 0; i < writes.length; i += 2) {
    const socket = writes[i] as net.Socket;
    // One cancelled or failed meanwhile has had its socket closed.
    if (!socket.destroyed) socket.write(writes[i + 1] as Buffer);
  }
  writes.length = 0;
}

/** A new event-loop turn ends each mark: a socket released under the current mark has not waited for I/O since. */
let turn: object | undefined;
function currentTurn(): object {
  if (turn === undefined) {
    turn = {};
    setImmediate(endTurn);
  }
  return turn;
}
function endTurn(): void {
  turn = undefined;
}

export interface LeanDispatcherOptions {
  readonly connectTimeoutMs: number;
  /** Where what this dispatcher does not take goes: undici's, made on first need. */
  readonly fallback: () => Dispatcher;
  /**
   * CoreHttp.expectSocket for this dispatcher's requests: `begin()` just before a request's
   * onRequestStart, `end()` just after it, giving the waiter that handler set, if any (told its
   * socket and head here, where undici's channel would have told it).
   */
  readonly expecting?: { begin(): void; end(): SocketWaiter | undefined };
}

/** Per origin: the host to connect to, the Host header, the idle sockets (last released on top). */
class Origin {
  readonly idle: Conn[] = [];
  readonly hostname: string;
  readonly port: number;
  readonly host: string;
  constructor(readonly origin: string) {
    const url = new URL(origin);
    this.hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    this.port = url.port ? Number(url.port) : 80;
    this.host = url.host;
  }
}

export { LeanHttpError } from './strictParser';

export class LeanDispatcher {
  private readonly origins = new Map<string, Origin>();
  private readonly conns = new Set<Conn>();
  private fallbackDispatcher: Dispatcher | undefined;
  /** close() or destroy(): no new request is taken. */
  private closed = false;
  /** destroy(): not even one already taken is sent. */
  private destroyed = false;
  private busy = 0;
  private whenIdle: (() => void) | undefined;
  private idle: Promise<void> | undefined;

  constructor(private readonly options: LeanDispatcherOptions) {}

  dispatch(opts: Dispatcher.DispatchOptions, handler: Handler): boolean {
    const form = formOf(opts, handler);
    if (!form) return (this.fallbackDispatcher ??= this.options.fallback()).dispatch(opts, handler);
    if (this.closed) {
      handler.onResponseError!(undefined as never, destroyedError());
      return false;
    }
    let origin = this.origins.get(form.origin);
    if (!origin) this.origins.set(form.origin, (origin = new Origin(form.origin)));
    this.busy++;
    this.acquire(new LeanRequest(this, origin, form, handler, opts.headersTimeout ?? DEFAULT_TIMEOUT_MS, opts.bodyTimeout ?? DEFAULT_TIMEOUT_MS));
    return true;
  }

  /** @internal A socket for `req`: an idle one of its origin, or a new one. */
  acquire(req: LeanRequest): void {
    if (this.destroyed) return req.fail(destroyedError(), false);
    const origin = req.origin;
    const now = performance.now();
    let conn: Conn | undefined;
    while ((conn = origin.idle.pop())) {
      if (conn.usable(now)) break;
      conn.destroy();
    }
    if (!conn) {
      conn = new Conn(this, origin, this.options.connectTimeoutMs);
      this.conns.add(conn);
      conn.reserve(req);
      return;
    }
    conn.reserve(req);
    // Idle since an earlier turn of the loop, or for more than a moment (the loop held): a FIN or
    // reset may be waiting to be read. The loop polls for I/O once more first: the next turn's
    // check phase comes after its poll (this turn's may not, if it is past polling already).
    if (conn.releasedIn === turn && conn.idleFor(now) < FRESH_MS) conn.send();
    else setImmediate(afterPoll, conn);
  }

  /** @internal A socket whose reply ended cleanly: back on top of its origin's idle ones. */
  release(conn: Conn): void {
    conn.releasedIn = currentTurn();
    conn.origin.idle.push(conn);
  }

  /** @internal */
  forget(conn: Conn): void {
    this.conns.delete(conn);
    const idle = conn.origin.idle;
    const at = idle.indexOf(conn);
    if (at >= 0) idle.splice(at, 1);
  }

  /** @internal A request is over, however it ended. */
  settled(): void {
    if (--this.busy === 0 && this.whenIdle) this.whenIdle();
  }

  /** @internal Only one request in flight: the one asking. */
  get alone(): boolean {
    return this.busy === 1;
  }

  /** @internal */
  get expecting(): LeanDispatcherOptions['expecting'] {
    return this.options.expecting;
  }

  /** Waits for the requests in flight, then closes every socket. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.busy > 0) await (this.idle ??= new Promise<void>((resolve) => (this.whenIdle = resolve)));
    for (const conn of [...this.conns]) conn.destroy();
    await this.fallbackDispatcher?.close();
  }

  /** Closes every socket now; the requests in flight fail. */
  async destroy(): Promise<void> {
    this.closed = this.destroyed = true;
    for (const conn of [...this.conns]) conn.destroy(destroyedError());
    await this.fallbackDispatcher?.destroy();
  }
}

function afterPoll(conn: Conn): void {
  setImmediate(checked, conn);
}
function checked(conn: Conn): void {
  conn.afterCheck();
}

/**
 * Host headers by origin: a fresh request (one per send that is not of a prepared one) has the
 * origin of one of an environment's few, and parsing it cost each about 0.4 µs. Emptied when full.
 */
const hosts = new Map<string, string | null>();
const MAX_HOSTS = 256;
function hostOf(origin: string): string | null {
  let host = hosts.get(origin);
  if (host === undefined) {
    try {
      host = new URL(origin).host;
    } catch {
      host = null;
    }
    if (hosts.size >= MAX_HOSTS) hosts.clear();
    hosts.set(origin, host);
  }
  return host;
}

/** The form of a request this dispatcher takes, or null: it goes to undici. */
function formOf(opts: Dispatcher.DispatchOptions, handler: Handler): Form | null {
  const { origin, method, path, headers, body } = opts;
  if (typeof origin !== 'string' || !origin.startsWith('http://') || !Array.isArray(headers)) return null;
  if (typeof handler.onRequestStart !== 'function' || typeof handler.onResponseError !== 'function') return null;
  if (opts.upgrade || opts.query || opts.expectContinue || opts.reset != null) return null;
  if (body != null && !(body instanceof Uint8Array)) return null;
  const cached = forms.get(headers);
  if (cached && cached.origin === origin && cached.method === method && cached.path === path && cached.body === (body ?? null)) return cached;
  if ((method !== 'GET' && method !== 'POST') || typeof path !== 'string' || path[0] !== '/' || BAD_PATH.test(path)) return null;
  const host = hostOf(origin);
  if (host === null) return null;
  // As undici writes it (client-h1.js writeH1, writeBuffer): request line, host, connection, the headers, content-length.
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n`;
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i];
    const value = headers[i + 1];
    if (typeof name !== 'string' || typeof value !== 'string' || !TOKEN.test(name) || BAD_VALUE.test(value) || OWN_HEADERS.has(name.toLowerCase())) return null;
    head += `${name}: ${value}\r\n`;
  }
  // undici writes a content-length for every POST (0 without a body) and none for a GET without one.
  const length = body ? body.byteLength : 0;
  const withLength = method === 'POST' || length > 0 ? `${head}content-length: ${length}\r\n\r\n` : `${head}\r\n`;
  const headBytes = Buffer.from(withLength, 'latin1');
  const bytes = length > 0 ? Buffer.concat([headBytes, body!]) : headBytes;
  const form: Form = { origin, method, path, body: body ?? null, head, bytes };
  forms.set(headers, form);
  return form;
}

/** undici's headers object (util.parseHeaders): lower-case names, repeated ones as arrays. */
function headerObject(lines: readonly string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const name = lowerName(lines[i]);
    const had = out[name];
    if (had === undefined) out[name] = lines[i + 1];
    else if (Array.isArray(had)) had.push(lines[i + 1]);
    else out[name] = [had, lines[i + 1]];
  }
  return out;
}

/** The server's `Keep-Alive: timeout=N` (the first Keep-Alive header that says one), as undici reads it; undefined when it says none. */
function keepAliveHint(values: string | string[] | undefined): number | undefined {
  if (values === undefined) return undefined;
  if (typeof values !== 'string') {
    for (const value of values) {
      const ms = keepAliveHint(value);
      if (ms !== undefined) return ms;
    }
    return undefined;
  }
  const m = /timeout=(\d+)/.exec(values);
  return m ? Number(m[1]) * 1000 : undefined;
}

function headersTimedOut(req: LeanRequest): void {
  req.fail(new LeanHttpError('HeadersTimeoutError', 'Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT'), true);
}
function bodyTimedOut(req: LeanRequest): void {
  req.fail(new LeanHttpError('BodyTimeoutError', 'Body Timeout Error', 'UND_ERR_BODY_TIMEOUT'), true);
}

/** One request, and its controller (undici's DispatchController: abort, pause, resume). */
class LeanRequest implements Dispatcher.DispatchController {
  /**
   * Name, value, name, value… as latin1 strings, which undici's DispatchController allows
   * (`Buffer[] | string[]`): undici itself hands Buffers, and a reader that takes `length` and
   * `toString('latin1')` of each (sendHttp) reads the same from both. Not made into Buffers: that
   * cost about 1 µs and a dozen objects a reply, under load (the lean dispatcher's reason to be).
   */
  rawHeaders: string[] | null = null;
  rawTrailers: string[] | null = null;
  conn: Conn | undefined;
  /** onRequestStart was called: the handler holds this controller. */
  started = false;
  /** Its bytes went on the socket. */
  written = false;
  /** The first byte of the reply arrived. */
  responded = false;
  headed = false;
  done = false;
  timer: NodeJS.Timeout | undefined;
  private isAborted = false;
  private isPaused = false;
  private why: Error | null = null;

  constructor(
    readonly dispatcher: LeanDispatcher,
    readonly origin: Origin,
    readonly form: Form,
    readonly handler: Handler,
    private readonly headersTimeoutMs: number,
    private readonly bodyTimeoutMs: number,
  ) {}

  get aborted(): boolean {
    return this.isAborted;
  }
  get paused(): boolean {
    return this.isPaused;
  }
  get reason(): Error | null {
    return this.why;
  }

  pause(): void {
    this.isPaused = true;
    this.conn?.socket.pause();
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    this.conn?.socket.resume();
  }

  /** From the handler (its timeout, size limit or cancel): the request ends with `reason`; a socket it was written on is closed. */
  abort(reason: Error): void {
    if (this.isAborted) return;
    this.isAborted = true;
    this.why = reason;
    if (this.done) return;
    const conn = this.conn;
    this.finishWith(reason ?? new LeanHttpError('RequestAbortedError', 'Request aborted', 'UND_ERR_ABORTED'));
    if (!conn) return;
    conn.req = undefined;
    // Nothing was written: the socket is as clean as it was.
    if (this.written) conn.destroy();
    else conn.idle();
  }

  /** The socket is ready: start the handler, then write. */
  start(conn: Conn): void {
    this.conn = conn;
    this.started = true;
    const expecting = this.dispatcher.expecting;
    expecting?.begin();
    let waiter: SocketWaiter | undefined;
    try {
      this.handler.onRequestStart!(this, NO_CONTEXT);
    } catch (err) {
      return this.abort(err as Error);
    } finally {
      waiter = expecting?.end();
    }
    if (this.done) return;
    waiter?.onSocket(conn.stamp, this.form.head);
    this.written = true;
    if (this.headersTimeoutMs > 0) this.timer = setTimeout(headersTimedOut, this.headersTimeoutMs, this);
    queueWrite(conn.socket, this.form.bytes, this.dispatcher.alone);
  }

  /** The status line and headers (`headers` as undici's object). */
  head(info: ParserInfo, headers = headerObject(info.headers)): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.headed = true;
    this.rawHeaders = info.headers;
    this.handler.onResponseStart?.(this, info.statusCode, headers, info.statusMessage);
  }

  /** A 1xx head, handed on as undici does; the wait for the reply's headers starts afresh. */
  interim(info: ParserInfo): void {
    this.timer?.refresh();
    this.rawHeaders = info.headers;
    this.handler.onResponseStart?.(this, info.statusCode, headerObject(info.headers), info.statusMessage);
  }

  data(chunk: Buffer): void {
    this.handler.onResponseData?.(this, chunk);
  }

  /** Between two chunks of the body: the body timeout runs afresh. */
  armBody(): void {
    if (this.bodyTimeoutMs <= 0) return;
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(bodyTimedOut, this.bodyTimeoutMs, this);
  }

  end(trailers: readonly string[]): void {
    this.done = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.conn = undefined;
    this.rawTrailers = trailers as string[];
    this.dispatcher.settled();
    this.handler.onResponseEnd?.(this, trailers.length ? headerObject(trailers) : {});
  }

  /** The request failed on its socket (closed, reset, timed out): the socket goes when `closeSocket`. */
  fail(err: Error, closeSocket: boolean): void {
    if (this.done) return;
    const conn = this.conn;
    this.finishWith(err);
    if (conn && conn.req === this) {
      conn.req = undefined;
      if (closeSocket) conn.destroy();
    }
  }

  private finishWith(err: Error): void {
    this.done = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.conn = undefined;
    this.dispatcher.settled();
    // undici hands no controller to a request that never started (a refused connection).
    this.handler.onResponseError!(this.started ? this : (undefined as never), err);
  }
}

/** One TCP connection: its parser, the request on it (if any) and when it went idle. */
class Conn {
  readonly socket: net.Socket;
  readonly stamp: SocketStamp;
  req: LeanRequest | undefined;
  releasedIn: object | undefined;
  private readonly parser: StrictParser;
  private connected = false;
  private dead = false;
  private idleSince = 0;
  private keepAliveMs = KEEP_ALIVE_MS;
  private reusable = true;
  private informational = false;
  private trailers: readonly string[] = NO_TRAILERS;
  private executing = false;
  private connectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dispatcher: LeanDispatcher,
    readonly origin: Origin,
    connectTimeoutMs: number,
  ) {
    this.stamp = { startedAt: performance.now() };
    const parser = (this.parser = new StrictParser());
    parser[HTTPParser.kOnHeadersComplete] = (info: ParserInfo) => this.onHead(info);
    parser[HTTPParser.kOnBody] = (chunk: Buffer) => this.onBody(chunk);
    parser[HTTPParser.kOnHeaders] = (trailers: string[]) => {
      this.trailers = trailers;
    };
    parser[HTTPParser.kOnMessageComplete] = () => this.onMessageEnd();
    const socket = (this.socket = net.connect({ host: origin.hostname, port: origin.port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 60_000 }));
    if (connectTimeoutMs > 0) this.connectTimer = setTimeout(() => this.connectTimedOut(connectTimeoutMs), connectTimeoutMs);
    socket.on('connect', () => this.onConnect());
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => this.onEnd());
    socket.on('error', (err: Error) => this.onError(err));
    socket.on('close', () => this.onClose());
  }

  /** Idle, open, and not past its keep-alive time. */
  usable(now: number): boolean {
    return !this.dead && !this.socket.destroyed && now - this.idleSince < this.keepAliveMs;
  }

  idleFor(now: number): number {
    return now - this.idleSince;
  }

  reserve(req: LeanRequest): void {
    this.req = req;
    this.socket.ref();
  }

  /** Write the reserved request now (the socket is connected and believed open). */
  send(): void {
    const req = this.req!;
    this.reusable = true;
    this.trailers = NO_TRAILERS;
    req.start(this);
  }

  /** After one turn of the loop for an idle socket: still open, write; closed meanwhile, another socket. */
  afterCheck(): void {
    const req = this.req;
    if (!req) return;
    // Closed meanwhile: destroy() hands the request to another socket.
    if (this.dead || this.socket.destroyed) this.destroy();
    else this.send();
  }

  /** Back among its origin's idle sockets. */
  idle(): void {
    this.idleSince = performance.now();
    this.socket.unref();
    this.dispatcher.release(this);
  }

  /** Closes the socket; a request on it fails with `err`, or, if it was not started yet on this open socket, goes to another. */
  destroy(err?: Error): void {
    if (!this.dead) {
      this.dead = true;
      clearTimeout(this.connectTimer);
      this.dispatcher.forget(this);
      this.socket.destroy();
    }
    const req = this.req;
    if (req) {
      this.req = undefined;
      // Reserved while idle and closed before a byte was written (the server closed it): another socket.
      if (this.connected && !req.started) this.dispatcher.acquire(req);
      else req.fail(err ?? socketError('closed'), false);
    }
  }

  private connectTimedOut(ms: number): void {
    if (this.connected) return;
    const err = new LeanHttpError(
      'ConnectTimeoutError',
      `Connect Timeout Error (attempted address: ${this.origin.host}, timeout: ${ms}ms)`,
      'UND_ERR_CONNECT_TIMEOUT',
    );
    this.destroy(err);
  }

  private onConnect(): void {
    this.connected = true;
    clearTimeout(this.connectTimer);
    this.stamp.tcpAt = performance.now();
    if (this.req) this.send();
  }

  private onData(chunk: Buffer): void {
    const req = this.req;
    if (!req || !req.written) {
      // Bytes nobody asked for: the connection is not in a state to trust.
      this.destroy(socketError('bad response'));
      return;
    }
    if (!req.responded) {
      req.responded = true;
      req.handler.onResponseStarted?.();
      if (req.done) return;
    }
    const parser = this.parser;
    this.executing = true;
    const result = parser.execute(chunk);
    this.executing = false;
    if (result instanceof Error) {
      if (this.req === req) {
        // StrictParser fails with undici's errors; http-parser-js's own (its 80 KiB backstop) as a parse error.
        const err =
          result instanceof LeanHttpError
            ? result
            : result.message === 'max header size exceeded'
              ? overflowError()
              : new LeanHttpError('HTTPParserError', `Response does not match the HTTP/1.1 protocol (${result.message})`, undefined);
        req.fail(err, true);
      } else this.destroy();
      return;
    }
    if (this.req === req && req.headed && !req.done) req.armBody();
  }

  private onHead(info: ParserInfo): number {
    const req = this.req;
    if (!req || req.done) return 1;
    const status = info.statusCode;
    if (status < 200) {
      // As undici: a 100 is a bad response, a 101 upgrade one not asked for; another 1xx is handed on, then read past.
      if (status === 100 || (status === 101 && info.upgrade)) {
        req.fail(socketError(status === 100 ? 'bad response' : 'bad upgrade'), true);
        return 1;
      }
      if (status < 100) {
        // undici hands it on, then fails an assertion: a network error either way.
        req.head(info);
        req.fail(new LeanHttpError('HTTPParserError', 'Response does not match the HTTP/1.1 protocol (Invalid status code)', undefined), true);
        return 1;
      }
      this.informational = true;
      req.interim(info);
      return 0;
    }
    if (!info.shouldKeepAlive) this.reusable = false;
    // As undici: the server's Keep-Alive timeout less 2 s, and a socket it gives 2 s or less is not kept.
    const headers = headerObject(info.headers);
    const hint = keepAliveHint(headers['keep-alive']);
    if (hint !== undefined) {
      this.keepAliveMs = Math.min(hint - KEEP_ALIVE_THRESHOLD_MS, KEEP_ALIVE_MAX_MS);
      if (this.keepAliveMs <= 0) this.reusable = false;
    } else this.keepAliveMs = KEEP_ALIVE_MS;
    req.head(info, headers);
    return 0;
  }

  private onBody(chunk: Buffer): void {
    this.parser.bytesRead += chunk.length;
    const req = this.req;
    if (req && !req.done) req.data(chunk);
  }

  private onMessageEnd(): void {
    if (this.informational) {
      this.informational = false;
      return;
    }
    const req = this.req;
    if (!req || req.done) return;
    // Bytes after the reply in the same read: more than was asked for; the socket is not reused.
    const parser = this.parser as unknown as { offset: number; end: number };
    if (this.executing && parser.offset < parser.end) this.reusable = false;
    this.req = undefined;
    if (this.reusable && !req.paused && !this.dead) this.idle();
    else this.destroy();
    req.end(this.trailers);
  }

  private onEnd(): void {
    const req = this.req;
    // A reply whose end is the connection's end (no Content-Length, not chunked) is complete now.
    if (req && req.headed && !req.done && (this.parser as unknown as { state: string }).state === 'BODY_RAW') {
      this.reusable = false;
      this.parser.finish();
    }
    this.destroy(socketError('other side closed'));
  }

  private onError(err: Error): void {
    this.destroy(err);
  }

  private onClose(): void {
    this.destroy(socketError('closed'));
  }
}
