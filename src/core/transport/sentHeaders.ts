/**
 * The request headers as they went on the wire: the header lines of the head the HTTP client
 * wrote, and the Content-Length it appends for a body. Where no head was seen (a dispatcher that
 * publishes none, a request refused before it was written), the request's own headers with the
 * Host and Content-Length undici would have added.
 */
import type { HttpRequestSpec } from '../exchange';

type Headers = Array<readonly [string, string]>;

/** The header lines of a head (`METHOD path HTTP/1.1`, then `name: value` lines); the request line is left out. */
function headLines(head: string): Headers {
  const out: Headers = [];
  const lines = head.split('\r\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(':');
    if (colon > 0) out.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return out;
}

/**
 * `head`: what the client wrote (SocketWaiter.onSocket), or undefined. `origin`: the request's
 * origin (for Host). `body`: the bytes sent, undefined for a request without one — undici writes
 * `content-length` after the head for every body, an empty one included, and none for a GET.
 */
export function headersAsSent(spec: HttpRequestSpec, head: string | undefined, origin: string | undefined, body: Uint8Array | undefined): Headers {
  let headers: Headers;
  if (head !== undefined) headers = headLines(head);
  else {
    headers = [];
    const host = hostOf(origin);
    if (host) headers.push(['host', host]);
    headers.push(...spec.headers);
  }
  if (body && !headers.some((h) => h[0].length === 14 && h[0].toLowerCase() === 'content-length')) headers.push(['content-length', String(body.length)]);
  return headers;
}

/** `host[:port]`, the port left out when it is the scheme's own (as undici writes it). */
function hostOf(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
