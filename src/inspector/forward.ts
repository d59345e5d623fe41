/**
 * The hot path: one request on to the target and its reply back, both streamed (piped, never
 * buffered whole), with a capped copy of each body and the times teed off on the way. Nothing
 * here parses: the capture is handed over once the exchange is over.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { BodyCapture, type Capture, type CaptureError } from './capture';
import { forwardHeaders, pairsOf } from './headers';
import type { Target } from './target';

function classify(err: NodeJS.ErrnoException, target: string): CaptureError {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return { kind: 'connect', message: `Could not connect to ${target}: ${err.message}` };
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') return { kind: 'reset', message: `The connection to ${target} was reset: ${err.message}` };
  if (code === 'ETIMEDOUT') return { kind: 'timeout', message: `${target} timed out: ${err.message}` };
  if (/CERT|SSL|TLS/.test(code)) return { kind: 'tls', message: `TLS with ${target} failed: ${err.message}` };
  return { kind: 'upstream', message: `${target}: ${err.message}` };
}

/** A request in absolute form (the client took the inspector for an HTTP proxy) still names a path. */
function pathOf(url: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url.startsWith('/') ? url : `/${url}`;
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

export function forward(req: IncomingMessage, res: ServerResponse, target: Target, seq: number, maxBodyBytes: number, done: (capture: Capture) => void): void {
  const t0 = performance.now();
  const since = () => performance.now() - t0;
  const path = pathOf(req.url ?? '/');
  const capture: Capture = {
    seq,
    startedAt: new Date().toISOString(),
    ...(req.socket.remoteAddress ? { client: `${req.socket.remoteAddress}:${req.socket.remotePort}` } : {}),
    method: req.method ?? 'GET',
    url: path,
    requestHeaders: pairsOf(req.rawHeaders),
    requestBody: new BodyCapture(maxBodyBytes),
    forwardedUrl: `${target.display}${path}`,
    replyBody: new BodyCapture(maxBodyBytes),
  };
  let over = false;
  const finish = () => {
    if (over) return;
    over = true;
    capture.endedAt = since();
    done(capture);
  };

  const upstream = target.request({ method: capture.method, path: `${target.prefix}${path}`, headers: forwardHeaders(req.rawHeaders, target.host) });
  upstream.on('socket', (socket) => {
    if (!socket.connecting) return;
    const start = since();
    socket.once('connect', () => { capture.connectMs = since() - start; });
  });
  upstream.on('finish', () => { capture.requestSentAt = since(); });
  req.on('data', (chunk: Buffer) => capture.requestBody.add(chunk));
  req.pipe(upstream);

  upstream.on('response', (reply) => {
    capture.responseAt = since();
    capture.status = reply.statusCode;
    capture.statusText = reply.statusMessage;
    capture.replyHeaders = pairsOf(reply.rawHeaders);
    res.writeHead(reply.statusCode ?? 502, reply.statusMessage, forwardHeaders(reply.rawHeaders));
    reply.on('data', (chunk: Buffer) => capture.replyBody.add(chunk));
    reply.pipe(res);
    reply.on('aborted', () => {
      capture.error ??= { kind: 'reset', message: `${target.display} closed the connection before the reply was complete` };
      res.destroy();
    });
    reply.on('error', (err: NodeJS.ErrnoException) => {
      capture.error ??= classify(err, target.display);
      res.destroy();
    });
  });
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    capture.error ??= classify(err, target.display);
    if (res.destroyed) {
      // The client is gone already; there is no one to tell.
    } else if (!res.headersSent) {
      const text = `Carrier inspector: ${capture.error.message}\n`;
      res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    } else {
      res.destroy();
    }
    finish();
  });
  res.on('finish', finish);
  res.on('close', () => {
    if (!res.writableFinished) {
      // The client went away (or the reply broke off): nothing more to forward either way.
      capture.error ??= { kind: 'client-aborted', message: 'The client closed the connection before the exchange was over' };
      upstream.destroy();
    }
    finish();
  });
}
