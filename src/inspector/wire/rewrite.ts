/**
 * A request head as it goes on to the target: the request target in origin form under the
 * target's path prefix, Host naming the target, and the hop-by-hop headers left out (RFC 9110
 * §7.6.1: Connection and the headers it names, Keep-Alive, TE, Trailer, Upgrade, the Proxy-
 * ones). Every other line goes on byte for byte — Transfer-Encoding too, since the body is
 * relayed in the framing it came in, and Expect, so the service itself answers 100 Continue.
 * A client's `TE: trailers` is said again on the inspector's own hop, since trailers are relayed.
 */
import type { Head } from './head';

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) (HTTP\/\d\.\d)$/;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'upgrade']);
const TRAILERS = /(^|[\s,])trailers([\s,;]|$)/i;

export class RequestLineError extends Error {}

export interface RequestLine {
  readonly method: string;
  /** The path and query the client asked for (origin form, even when it sent an absolute URL). */
  readonly path: string;
  readonly version: string;
}

export function parseRequestLine(line: string): RequestLine {
  const m = REQUEST_LINE.exec(line);
  if (!m) throw new RequestLineError(`"${line.slice(0, 80)}" is not an HTTP request line`);
  let path = m[2];
  if (m[1] === 'CONNECT') return { method: m[1], path, version: m[3] };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    // A client that takes the inspector for an HTTP proxy names the whole URL.
    const u = new URL(path);
    path = `${u.pathname}${u.search}`;
  } else if (!path.startsWith('/') && path !== '*') {
    throw new RequestLineError(`"${path.slice(0, 80)}" is not a request target`);
  }
  return { method: m[1], path, version: m[3] };
}

/** A request head as it goes on: its bytes, and its header fields as the target receives them. */
export interface ForwardedHead {
  readonly text: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

/**
 * The head to send on: request line under `prefix`, Host replaced (or added), proxy headers out.
 * `close`: the client asked to close after this request, so the target is asked the same on its hop.
 * Its headers are read from the very lines sent, so a recording shows what the target got.
 */
export function forwardedHead(head: Head, request: RequestLine, prefix: string, host: string, close = false): ForwardedHead {
  // One look at the fields first: the tokens Connection names, whether the client accepts
  // trailers, whether it sent a Host (which is replaced where it stands, else put first).
  let named: Set<string> | undefined;
  let trailers = false;
  let hasHost = false;
  for (const [n, v] of head.headers) {
    const lower = n.toLowerCase();
    if (lower === 'connection') for (const token of v.split(',')) (named ??= new Set()).add(token.trim().toLowerCase());
    else if (lower === 'te') trailers ||= TRAILERS.test(v);
    else if (lower === 'host') hasHost = true;
  }
  let text = `${request.method} ${request.path === '*' ? '*' : `${prefix}${request.path}`} ${request.version}`;
  const headers: Array<readonly [string, string]> = [];
  if (!hasHost) {
    text += `\r\nHost: ${host}`;
    headers.push(['Host', host]);
  }
  let hostWritten = false;
  for (const line of head.lines) {
    const colon = Math.max(0, line.indexOf(':'));
    const name = line.slice(0, colon).trim();
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || (named?.has(lower) && lower !== 'transfer-encoding' && lower !== 'host')) continue;
    if (lower === 'host') {
      if (!hostWritten) {
        text += `\r\n${name}: ${host}`;
        headers.push([name, host]);
      }
      hostWritten = true;
      continue;
    }
    text += `\r\n${line}`;
    headers.push([name, line.slice(colon + 1).trim()]);
  }
  // A service may send trailers only to a client that accepts them; the relay passes them on (RFC 9110 §10.1.4).
  if (trailers) {
    text += '\r\nTE: trailers';
    headers.push(['TE', 'trailers']);
  }
  const connection = close ? (trailers ? 'close, TE' : 'close') : trailers ? 'TE' : '';
  if (connection) {
    text += `\r\nConnection: ${connection}`;
    headers.push(['Connection', connection]);
  }
  return { text: `${text}\r\n\r\n`, headers };
}

/** `HTTP/1.1 200 OK` → status and reason; undefined for anything else. */
export function parseStatusLine(line: string): { status: number; statusText: string } | undefined {
  const m = /^HTTP\/\d\.\d (\d{3})(?: (.*))?$/.exec(line);
  return m ? { status: Number(m[1]), statusText: m[2] ?? '' } : undefined;
}
