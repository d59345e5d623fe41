/**
 * Whether an exchange succeeded, decided once. The CLI's exit code, the runner, History, the
 * results panel's header, the inspector's tree and the Test Explorer all ask this function, so a
 * 200 reply that is an HTML page is "unreadable" everywhere and never green anywhere.
 */
import type { Exchange, Finding, Verdict, VerdictKind, VerdictTone } from './exchange';
import { findingText } from './findingText';

export type { Verdict, VerdictKind, VerdictTone } from './exchange';

/** Findings that mean the reply could not be read as the service's answer. */
const UNREADABLE_KINDS: ReadonlySet<Finding['kind']> = new Set(['reply', 'namespace', 'document', 'transport']);

const TONE: Record<VerdictKind, VerdictTone> = {
  success: 'ok',
  'in-body-error': 'warn',
  fault: 'error',
  'http-error': 'error',
  unreadable: 'error',
  'contract-error': 'error',
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
  'contract-error': 'breaks the contract',
  'transport-error': 'no reply',
  cancelled: 'cancelled',
  'not-read': 'not read along the catalog',
};

function verdict(kind: VerdictKind, label: string, reason: string): Verdict {
  return { kind, ok: kind === 'success', label, reason, tone: TONE[kind] };
}

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * The verdict of an exchange: the one made when it was judged (`judgement`), else decided now from
 * its findings (an exchange kept before judgements were, or one being judged).
 */
export function classifyExchange(x: Exchange): Verdict {
  return x.judgement?.verdict ?? decideVerdict(x);
}

/** The first contract error of an exchange: what makes it unusable to a typed client. */
export function contractError(x: Exchange): Finding | undefined {
  return x.findings.find((f) => f.kind === 'contract' && f.severity === 'error');
}

export function decideVerdict(x: Exchange): Verdict {
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
  const broken = errors.find((f) => f.kind === 'contract');
  if (broken) return verdict('contract-error', `${status} · breaks the contract`, findingText(broken));
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
