/**
 * The embedded sandbox: one node:http server that answers every operation of the catalog at its
 * path and version, over every binding it offers, with state that hangs together. The extension,
 * the CLI and the tests all start it through startSandbox().
 */
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_NAMESPACES, MASK } from '../core';
import { carrierClock } from './carrier/clock';
import type { SandboxContext } from './context';
import { ClientGone, declaredLength, deferContinue, presetBody, RequestRefused } from './http/body';
import { parseMediaType } from './http/contentType';
import { queryOf } from './http/form';
import { sendableHeaders } from './http/headers';
import { limitsOf, type SandboxLimits } from './http/limits';
import { MEMO_BODY_BYTES, memoKey, readWhole, ReplyMemo, type KeptReply, type MemoRequest, type WholeBodyDone } from './http/replyMemo';
import { HTML_UTF8, textReply, type Reply } from './http/reply';
import { HTML_500, INJECT_HEADER, InjectionError, MAX_INJECTED_MS, parseInjection, type Injection } from './inject';
import { keyFieldValues, keyHeaderValues, SandboxLog } from './log';
import type { SandboxHandle, SandboxOptions } from './options';
import { route, routeTable, type RouteResult } from './router';
import { SandboxFault } from './soap/fault';
import { soapFaultReply } from './routes/soapRoute';
import { SandboxStore } from './state/store';
import { Replayer } from './replay/replayer';

export type { SandboxHandle, SandboxOptions } from './options';
export { DEFAULT_LIMITS, type SandboxLimits } from './http/limits';
export { SandboxLockedError } from './state/lock';
export { SandboxStateUnreadableError } from './state/unreadable';
export { clockRateProblem, MAX_CLOCK_RATE } from './carrier/clock';
export { ReplayLoadError } from './replay/load';
export { REPLAY_FALLBACKS, type ReplayFallback } from './replay/replayer';

/** Cancels waits (injected delays, slow bodies) when the sandbox closes, so close() is prompt. */
class Waits {
  private readonly controller = new AbortController();
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.controller.signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      const signal = this.controller.signal;
      function done() {
        signal.removeEventListener('abort', done);
        clearTimeout(timer);
        resolve();
      }
      signal.addEventListener('abort', done);
    });
  }
  cancel(): void {
    this.controller.abort();
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** API keys travel in query strings too (HTTP GET, and clients that add ?APIKEY=); logs never show them. */
export function redactUrl(url: string | undefined): string {
  return (url ?? '/').replace(/([?&]apikey=)[^&#]*/gi, `$1${MASK}`);
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The reply style a request expects, for an injected fault: the SOAP version its Content-Type announces, or plain text. */
function injectedFault(req: http.IncomingMessage): Reply {
  const type = parseMediaType(req.headers['content-type']).type;
  const fault = new SandboxFault('server', 'Injected fault: the sandbox was asked to fail this request (X-Carrier-Inject: fault).');
  if (req.method === 'POST' && type === 'text/xml') return soapFaultReply('1.1', fault);
  if (req.method === 'POST' && type === 'application/soap+xml') return soapFaultReply('1.2', fault);
  return textReply(500, fault.message);
}

/**
 * After a reply that leaves part of the request unread, node:http closes the connection as soon
 * as the reply is written; bytes the client is still sending would then meet a closed socket and
 * the reset could reach the client before it has read the reply. So the rest is read and thrown
 * away a little longer (a lingering close) before the socket is destroyed.
 */
function lingerOnClose(socket: Socket, ms: number): void {
  socket.destroySoon = function lingeringDestroy(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), ms);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}

/** A reply's headers as they go out: the sandbox's own, or a recorded reply's as recorded. */
function replyHeaders(reply: Reply, body: Buffer): Record<string, string> {
  return reply.recorded
    ? { ...sendableHeaders(reply.headers), ...(reply.contentType ? { 'Content-Type': reply.contentType } : {}), 'Content-Length': String(body.length) }
    : {
        'Content-Type': reply.contentType,
        'Content-Length': String(body.length),
        'Cache-Control': 'private',
        ...sendableHeaders(reply.headers),
      };
}

const bodyBytes = (reply: Reply): Buffer => (typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body);

async function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  reply: Reply,
  injection: Injection | undefined,
  waits: Waits,
  limits: SandboxLimits,
): Promise<void> {
  if (res.destroyed) return;
  let body = bodyBytes(reply);
  if (injection?.truncate) body = body.subarray(0, Math.floor(body.length / 2));
  const headers = replyHeaders(reply, body);
  // A body the route did not read to its end (refused, or not needed): the connection cannot be
  // reused, since the next request would start somewhere inside it.
  if (!req.complete) {
    headers.Connection = 'close';
    lingerOnClose(req.socket, limits.lingerMs);
  }
  if (reply.statusText) res.writeHead(reply.status, reply.statusText, headers);
  else res.writeHead(reply.status, headers);
  if (!injection?.slowBodyMs || body.length === 0) {
    res.end(body);
    return;
  }
  const pieces = Math.min(20, body.length);
  const size = Math.ceil(body.length / pieces);
  for (let i = 0; i < body.length; i += size) {
    if (res.destroyed) return;
    res.write(body.subarray(i, i + size));
    if (i + size < body.length) await waits.sleep(injection.slowBodyMs / pieces);
  }
  res.end();
}

/** A fresh 500 for a failure inside the sandbox: whatever the failed reply had set is dropped. */
function internalError(res: http.ServerResponse): void {
  if (res.destroyed) return;
  if (!res.headersSent) {
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    const text = 'Internal sandbox error';
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)), Connection: 'close' });
    res.end(text);
    return;
  }
  // Part of a reply is out already: the client must see it broken, not complete.
  res.destroy();
}

const STATUS_OF_CLIENT_ERROR: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
};

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  // The carrier clock: every answer asks it for "now" (docs/sandbox-model.md#shipments-move-on-the-carrier-clock).
  const now = carrierClock({
    real: options.now ?? (() => new Date()),
    ...(options.clockRate !== undefined ? { rate: options.clockRate } : {}),
    ...(options.clockStart ? { start: options.clockStart } : {}),
  });
  const limits = limitsOf(options.limits);
  const sandboxLog = new SandboxLog(options.log, options.apiKeys ?? []);
  const log = (line: string) => sandboxLog.write(line);
  // Recordings are read before the state is opened, so one that does not read leaves no lock behind.
  const replay = options.replay ? await Replayer.open(options.replay.dirs, options.replay.fallback) : undefined;
  const store = await SandboxStore.open(now(), options.dataDir, log, options.resetData === true);
  const ctx: SandboxContext = {
    namespaces: options.namespaces ?? DEFAULT_NAMESPACES,
    ...(options.apiKeys?.length ? { apiKeys: new Set(options.apiKeys) } : {}),
    store,
    now,
    log,
    allowInjection: options.allowInjection === true,
    limits,
  };
  const table = routeTable();
  // Replies of a replay follow its recordings' order: nothing of a replaying sandbox is kept.
  const memo = options.replyMemo === true && !replay ? new ReplyMemo() : undefined;
  const waits = new Waits();
  const sockets = new Set<Socket>();
  let fallbackBase = '';

  /** The keys a request carries in its URL and headers, masked by value in every line about it. */
  const requestSecrets = (req: http.IncomingMessage): string[] =>
    sandboxLog.enabled ? [...keyFieldValues(queryOf(req.url ?? '')), ...keyHeaderValues(req.headers)] : [];

  /**
   * `memoed`: the request came through the reply memo's front (its body read, no reply kept for
   * it): a reply that may be kept (RouteResult.keep) is kept for it.
   */
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, memoed?: MemoRequest): Promise<void> => {
    const started = Date.now();
    const secrets = requestSecrets(req);
    const requestLog = (line: string) => sandboxLog.write(line, secrets);
    // What the routes log while a reply that may be kept is computed, said again when it is served.
    const notes: string[] | undefined = memoed && sandboxLog.enabled ? [] : undefined;
    const rctx: SandboxContext = {
      ...ctx,
      log: notes
        ? (line) => {
            notes.push(line);
            requestLog(line);
          }
        : requestLog,
      noteSecret: (v) => {
        secrets.push(v);
      },
    };
    const finish = async (result: RouteResult, injection?: Injection) => {
      let reply = result.reply;
      if (memo && memoed && result.keep === true && !injection) {
        const body = bodyBytes(reply);
        reply = { ...reply, body };
        memo.keep(memoed.key, memoed.body, {
          status: reply.status,
          headers: replyHeaders(reply, body),
          body,
          label: result.label,
          notes: notes ?? [],
          secrets: [...secrets],
        });
      }
      await send(req, res, reply, injection, waits, limits);
      requestLog(`${req.method} ${redactUrl(req.url)} ${result.label} → ${reply.status} (${Date.now() - started} ms)`);
    };
    if (req.rawHeaders.length / 2 > limits.headers) {
      return finish({ reply: textReply(431, `Request Header Fields Too Large: more than ${limits.headers} header lines.`), label: 'too many headers' });
    }
    let injection: Injection | undefined;
    if (ctx.allowInjection) {
      try {
        injection = parseInjection(req.headers[INJECT_HEADER]);
      } catch (e) {
        if (!(e instanceof InjectionError)) throw e;
        req.resume();
        return finish({ reply: textReply(400, e.message), label: 'bad injection' });
      }
    }
    if (injection?.delayMs) await waits.sleep(injection.delayMs);
    if (injection?.reset) {
      req.resume();
      req.once('end', () => req.socket.resetAndDestroy());
      requestLog(`${req.method} ${redactUrl(req.url)} → connection reset (injected)`);
      return;
    }
    let result: RouteResult;
    if (injection?.fault) {
      req.resume();
      result = { reply: injectedFault(req), label: 'injected fault' };
    } else if (injection?.html500) {
      req.resume();
      result = { reply: { status: 500, contentType: HTML_UTF8, body: HTML_500 }, label: 'injected HTML 500' };
    } else result = await route(req, rctx, table, fallbackBase, replay);
    await finish(result, injection);
  };

  const run = (req: http.IncomingMessage, res: http.ServerResponse, memoed?: MemoRequest) => {
    handle(req, res, memoed).catch((e: unknown) => {
      if (e instanceof ClientGone) {
        log(`${req.method} ${redactUrl(req.url)} → the client left before its body was complete`);
        res.destroy();
        return;
      }
      log(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      internalError(res);
    });
  };

  /**
   * The reply memo's front: a POST whose whole (small) body it may key, taken before anything of
   * handle() runs. Requests with something for handle() to answer first — too many headers, an
   * injection, an Expect, a body of unknown or larger length — go the normal way.
   */
  const memoTakes = (req: http.IncomingMessage): boolean => {
    if (req.method !== 'POST' || req.headers.expect !== undefined || req.rawHeaders.length > 2 * limits.headers) return false;
    if (ctx.allowInjection && req.headers[INJECT_HEADER] !== undefined) return false;
    const length = declaredLength(req);
    return length !== undefined && length <= MEMO_BODY_BYTES;
  };

  const servedKept = (req: http.IncomingMessage, kept: KeptReply, started: number) => {
    const secrets = [...kept.secrets, ...requestSecrets(req)];
    for (const line of kept.notes) sandboxLog.write(line, secrets);
    sandboxLog.write(`${req.method} ${redactUrl(req.url)} ${kept.label} (kept reply) → ${kept.status} (${Date.now() - started} ms)`, secrets);
  };

  /** A body the front has read: answered from the memo, or handed on to handle(). */
  const frontRead: WholeBodyDone = (req, res, read, started) => {
    if (read instanceof ClientGone) {
      log(`${req.method} ${redactUrl(req.url)} → the client left before its body was complete`);
      res.destroy();
      return;
    }
    if (read instanceof RequestRefused) {
      presetBody(req, read);
      return run(req, res);
    }
    const key = memoKey(req, read);
    const kept = memo?.get(key, read);
    if (!kept) {
      presetBody(req, read);
      return run(req, res, { key, body: read });
    }
    if (res.destroyed) return;
    res.writeHead(kept.status, kept.headers);
    res.end(kept.body);
    if (sandboxLog.enabled) servedKept(req, kept, started);
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (memo && memoTakes(req)) readWhole(req, res, limits.bodyTimeoutMs, frontRead);
    else run(req, res);
  };
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // node:http's own backstop for a request that never completes; the body deadline (readBody)
      // answers first. Injected delays come before the body is read, so they are allowed for.
      requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs + (ctx.allowInjection ? MAX_INJECTED_MS : 0) + 5_000,
      // How often node:http looks for expired requests: the timeouts above are only as exact as this.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, limits.headersTimeoutMs / 4)),
    },
    onRequest,
  );
  // Header lines past the limit are not even stored; the request is refused (431) in handle().
  server.maxHeadersCount = limits.headers + 1;
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    // The body is invited only when a route reads it (http/body.ts), so an oversized one never comes.
    deferContinue(req, () => res.writeContinue());
    onRequest(req, res);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // Once refused, the rest of what the client sends only repeats the parser's error.
    if (answered.has(socket)) return;
    const inReply = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (err.code === 'ECONNRESET' || !socket.writable || inReply) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    const status = STATUS_OF_CLIENT_ERROR[err.code ?? ''] ?? 400;
    log(`refused before routing → ${status} (${err.code ?? err.message})`);
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    const timer = setTimeout(() => socket.destroy(), limits.lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });

  try {
    await listen(server, options.port ?? 0, host);
  } catch (e) {
    await store.close();
    throw e;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const url = `http://${urlHost(host)}:${port}`;
  fallbackBase = url;
  await store.listening(url);
  log(`Carrier sandbox listening on ${url}`);
  for (const line of replay?.summary() ?? []) log(line);

  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= (async () => {
        waits.cancel();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Requests still running get a moment to finish, then their connections are ended.
        const grace = setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, 1000);
        await stopped;
        clearTimeout(grace);
        await store.close();
      })();
      return closing;
    },
  };
}
