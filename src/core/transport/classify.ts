/** undici and socket errors → a kind and a sentence a person can act on, naming the URL. */
import type { TransportError } from './types';

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  'HOSTNAME_MISMATCH',
]);

interface Context {
  readonly url: string;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
}

function codeOf(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET' && e.code !== 'UND_ERR_ABORTED') return e.code;
  }
  return typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : undefined;
}

function messageOf(err: unknown): string {
  const parts: string[] = [];
  let e = err as { message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++, e = e.cause as typeof e) if (typeof e.message === 'string' && e.message) parts.push(e.message);
  return parts.join(': ') || String(err);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function classifyError(err: unknown, ctx: Context): TransportError {
  const code = codeOf(err);
  const detail = messageOf(err);
  const host = hostOf(ctx.url);
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return { kind: 'timeout', code, message: `Connecting to ${host} timed out after ${ctx.connectTimeoutMs} ms (${ctx.url})` };
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { kind: 'timeout', code, message: `No reply from ${ctx.url} within ${ctx.timeoutMs} ms` };
  if (code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'timeout', code, message: `The reply from ${ctx.url} stalled: no data for ${ctx.timeoutMs} ms` };
  if (code === 'ECONNREFUSED')
    return { kind: 'connect', code, message: `Connection refused by ${host} (${ctx.url}): is the service running, and is the environment's baseUrl right?` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    return { kind: 'dns', code, message: `Host ${hostOf(ctx.url).replace(/:\d+$/, '')} not found (${ctx.url})` };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT' || code === 'EADDRNOTAVAIL')
    return { kind: 'connect', code, message: `Cannot reach ${host} (${ctx.url}): ${code}` };
  if (code && (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.startsWith('ERR_OSSL'))) {
    const hint =
      code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN' || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
        ? ' — trust its CA with tls.ca, or set tls.rejectUnauthorized to false for a test server'
        : '';
    return { kind: 'tls', code, message: `TLS with ${host} failed (${ctx.url}): ${detail}${hint}` };
  }
  if (/Proxy response|proxy/i.test(detail) && /!==\s*200|407|403|tunnel/i.test(detail))
    return { kind: 'proxy', code, message: `The proxy refused the connection to ${host} (${ctx.url}): ${detail}` };
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' ||
    /other side closed|socket hang up|ECONNRESET/i.test(detail)
  ) {
    return { kind: 'reset', code, message: `The connection to ${host} was closed before the reply was complete (${ctx.url})` };
  }
  return { kind: 'network', code, message: `Request to ${ctx.url} failed: ${detail}` };
}
