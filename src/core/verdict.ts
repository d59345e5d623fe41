/**
 * Whether an exchange succeeded, decided once. The CLI's exit code, the runner, History, the
 * results panel's header, the inspector's tree and the Test Explorer all ask this function, so a
 * 200 reply that is an HTML page is "unreadable" everywhere and never green anywhere.
 */
import type { Exchange, Finding } from './exchange';

export type VerdictKind =
  /** A readable reply of the service with no fault and no in-body error. */
  | 'success'
  /** A readable reply that reports an error itself (WasSuccess false, ErrorMessage, …). */
  | 'in-body-error'
  /** A SOAP fault, whatever the HTTP status. */
  | 'fault'
  /** A status outside 2xx without a SOAP fault. */
  | 'http-error'
  /** A 2xx reply that is not the service's answer: HTML, empty, plain text, JSON, cut short, too deep, another root. */
  | 'unreadable'
  /** No complete reply: refused, reset, timed out, too large, redirected, TLS. */
  | 'transport-error'
  | 'cancelled'
  /**
   * Traffic the inspector relayed but could not read along the catalog (a request of no known
   * operation, a reply kept only in part): neither a success nor a failure of the service.
   */
  | 'not-read';

export type VerdictTone = 'ok' | 'warn' | 'error' | 'neutral';

export interface Verdict {
  readonly kind: VerdictKind;
  /** True for `success` only: the CLI exits 0, a bare request file passes. */
  readonly ok: boolean;
  /** A few words for a header or a row: `200 OK`, `SOAP fault`, `HTTP 500`, `Unreadable reply`. */
  readonly label: string;
  /** One sentence saying why, from the exchange's own findings. */
  readonly reason: string;
  readonly tone: VerdictTone;
}

/** Findings that mean the reply could not be read as the service's answer. */
const UNREADABLE_KINDS: ReadonlySet<Finding['kind']> = new Set(['reply', 'namespace', 'document', 'transport']);

const TONE: Record<VerdictKind, VerdictTone> = {
  success: 'ok',
  'in-body-error': 'warn',
  fault: 'error',
  'http-error': 'error',
  unreadable: 'error',
  'transport-error': 'error',
  cancelled: 'neutral',
  'not-read': 'neutral',
};

/** The verdict in a few words, for a list row, a screen reader or the CLI's last line. */
export const VERDICT_PHRASES: Readonly<Record<VerdictKind, string>> = {
  success: 'succeeded',
  'in-body-error': 'error in the reply body',
  fault: 'SOAP fault',
  'http-error': 'HTTP error',
  unreadable: 'unreadable reply',
  'transport-error': 'no reply',
  cancelled: 'cancelled',
  'not-read': 'not read along the catalog',
};

function verdict(kind: VerdictKind, label: string, reason: string): Verdict {
  return { kind, ok: kind === 'success', label, reason, tone: TONE[kind] };
}

const is2xx = (status: number) => status >= 200 && status < 300;

export function classifyExchange(x: Exchange): Verdict {
  if (x.error?.kind === 'cancelled') return verdict('cancelled', 'Cancelled', x.error.message);
  if (x.error) return verdict('transport-error', `Failed: ${x.error.kind}`, x.error.message);
  const reply = x.reply;
  if (!reply) return verdict('transport-error', 'No reply', 'No reply was received');
  const status = `${reply.status} ${reply.statusText}`.trim();
  if (x.fault) return verdict('fault', `${reply.status} SOAP fault`, `${x.fault.code}: ${x.fault.reason}`);
  const errors = x.findings.filter((f) => f.severity === 'error');
  const unreadable = errors.find((f) => UNREADABLE_KINDS.has(f.kind));
  if (!is2xx(reply.status)) return verdict('http-error', `HTTP ${status}`, unreadable?.message ?? `HTTP ${status}: the service did not answer 200 OK`);
  if (unreadable) return verdict('unreadable', `${status} · unreadable reply`, unreadable.message);
  const inBody = errors.find((f) => f.kind === 'in-body');
  if (inBody) return verdict('in-body-error', `${status} · error in reply`, inBody.path ? `${inBody.path}: ${inBody.message}` : inBody.message);
  const recorded = x.recorded;
  if (recorded && !recorded.recognised) return verdict('not-read', status, `Not a call of the catalog${recorded.reason ? `: ${recorded.reason}` : ''}`);
  if (recorded?.replyBodyTruncated) return verdict('not-read', status, 'The reply was kept only in part and was not read along the catalog');
  return verdict('success', status, `HTTP ${status}: the service answered`);
}

/**
 * How an exchange is named in a list, a header or a report: the operation and version, or for
 * traffic of no known operation `METHOD /path` (host and query left out: they can be long, and
 * a query may carry a key).
 */
export function exchangeTitle(x: Exchange): string {
  if (x.operation) return x.version ? `${x.operation} ${x.version}` : x.operation;
  return `${x.request.method} ${x.request.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, '').replace(/[?#].*$/, '') || '/'}`;
}
