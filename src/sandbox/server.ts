/**
 * The embedded sandbox: one node:http server that answers every operation of the catalog at its
 * path and version, over every binding it offers, with state that hangs together. The extension,
 * the CLI and the tests all start it through startSandbox().
 */
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_NAMESPACES, MASK } from '../core';
import type { SandboxContext } from './context';
import { parseMediaType } from './http/contentType';
import { HTML_UTF8, textReply, type Reply } from './http/reply';
import { HTML_500, INJECT_HEADER, InjectionError, parseInjection, type Injection } from './inject';
import type { SandboxHandle, SandboxOptions } from './options';
import { route, routeTable } from './router';
import { SandboxFault } from './soap/fault';
import { soapFaultReply } from './soap/soapRoute';
import { SandboxStore } from './state/store';

export type { SandboxHandle, SandboxOptions } from './options';

/** Cancels waits (injected delays, slow bodies) when the sandbox closes, so close() is prompt. */
class Waits {
  private readonly controller = new AbortController();
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.controller.signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      const signal = this.controller.signal;
      function done() { signal.removeEventListener('abort', done); clearTimeout(timer); resolve(); }
      signal.addEventListener('abort', done);
    });
  }
  cancel(): void { this.controller.abort(); }
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

async function send(res: http.ServerResponse, reply: Reply, injection: Injection | undefined, waits: Waits): Promise<void> {
  let body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
  if (injection?.truncate) body = body.subarray(0, Math.floor(body.length / 2));
  res.writeHead(reply.status, {
    'Content-Type': reply.contentType,
    'Content-Length': String(body.length),
    'Cache-Control': 'private',
    ...reply.headers,
  });
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

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const store = SandboxStore.open(now(), options.dataDir, log);
  const ctx: SandboxContext = {
    namespaces: options.namespaces ?? DEFAULT_NAMESPACES,
    ...(options.apiKeys?.length ? { apiKeys: new Set(options.apiKeys) } : {}),
    store,
    now,
    log,
    allowInjection: options.allowInjection === true,
  };
  const table = routeTable();
  const waits = new Waits();
  const sockets = new Set<Socket>();
  let fallbackBase = '';

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const started = Date.now();
    let injection: Injection | undefined;
    if (ctx.allowInjection) {
      try {
        injection = parseInjection(req.headers[INJECT_HEADER]);
      } catch (e) {
        if (!(e instanceof InjectionError)) throw e;
        req.resume();
        await send(res, textReply(400, e.message), undefined, waits);
        return;
      }
    }
    if (injection?.delayMs) await waits.sleep(injection.delayMs);
    if (injection?.reset) {
      req.resume();
      req.once('end', () => req.socket.resetAndDestroy());
      log(`${req.method} ${redactUrl(req.url)} → connection reset (injected)`);
      return;
    }
    let result: { reply: Reply; label: string };
    if (injection?.fault) { req.resume(); result = { reply: injectedFault(req), label: 'injected fault' }; }
    else if (injection?.html500) { req.resume(); result = { reply: { status: 500, contentType: HTML_UTF8, body: HTML_500 }, label: 'injected HTML 500' }; }
    else result = await route(req, ctx, table, fallbackBase);
    await send(res, result.reply, injection, waits);
    log(`${req.method} ${redactUrl(req.url)} ${result.label} → ${result.reply.status} (${Date.now() - started} ms)`);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(`internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal sandbox error');
    });
  });
  // A SOAP reply that is slow on purpose must not be cut by Node's default request timeout.
  server.requestTimeout = 0;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  await listen(server, options.port ?? 0, host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port ?? 0;
  const url = `http://${urlHost(host)}:${port}`;
  fallbackBase = url;
  log(`Carrier sandbox listening on ${url}`);

  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= (async () => {
        waits.cancel();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Requests still running get a moment to finish, then their connections are ended.
        const grace = setTimeout(() => { for (const s of sockets) s.destroy(); }, 1000);
        await stopped;
        clearTimeout(grace);
        await store.close();
      })();
      return closing;
    },
  };
}
