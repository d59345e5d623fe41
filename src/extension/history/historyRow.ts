/**
 * What a History row says, from its entry alone (no `vscode`, so unit tests read it too): the
 * operation and version as its label; then where it came from (the request file, or the Traffic
 * Inspector and the program that sent it), binding, environment, the verdict, the expectations,
 * the time taken and when — a word the row already shows is not said twice (a version and an
 * environment both named `sandbox`). The tooltip names every part.
 */
import { BINDING_LABELS, VERDICT_PHRASES } from '../coreLight';
import type { Binding, VerdictKind } from '../../core';
import { expectationsLine, type HistoryEntry } from './historyEntry';

export interface HistoryRow {
  readonly label: string;
  readonly description: string;
  /** The verdict as the tooltip's first line says it, after the label. */
  readonly phrase: string;
  readonly reason?: string;
  readonly details: ReadonlyArray<readonly [string, string]>;
  readonly accessibility: string;
  /** `exchange`, `.resendable` when a request file can send it again, `.known` when it is a call of the catalog (it can become a request file). */
  readonly contextValue: string;
  readonly verdict: VerdictKind;
}

/** Entries kept before core's verdict existed carry an `outcome` of their own words. */
const LEGACY: Record<string, VerdictKind> = { ok: 'success', fault: 'fault', 'in-body': 'in-body-error', http: 'http-error', error: 'transport-error' };

export function verdictOf(entry: HistoryEntry): VerdictKind {
  return entry.verdict ?? LEGACY[(entry as { outcome?: string }).outcome ?? ''] ?? 'not-read';
}

export const INSPECTOR_SOURCE = 'Traffic Inspector';

export function historyRow(entry: HistoryEntry, now = Date.now()): HistoryRow {
  const verdict = verdictOf(entry);
  const binding = entry.binding ? (BINDING_LABELS[entry.binding as Binding] ?? entry.binding) : undefined;
  const origin = originOf(entry);
  const seen = new Set(words(entry.title));
  // Only the naming parts can repeat a word of the label; each says something new or nothing.
  const fresh = (part: string | undefined): string | undefined => {
    if (!part) return undefined;
    const own = words(part);
    if (own.every((w) => seen.has(w))) return undefined;
    for (const w of own) seen.add(w);
    return part;
  };
  // Where it came from leads: a narrow side bar cuts the end of a row, and that tells a send from a program's call.
  const description = [
    fresh(origin?.short),
    fresh(binding),
    fresh(entry.environment),
    entry.label ?? (entry.status !== undefined ? String(entry.status) : undefined),
    entry.expectations && `${entry.expectations.passed ? '✓' : '✗'} ${expectationsLine(entry.expectations)}`,
    entry.attempt && `attempt ${entry.attempt.number} of ${entry.attempt.of}${entry.attempt.held ? ', until held' : ''}`,
    entry.totalMs !== undefined ? `${Math.round(entry.totalMs)} ms` : undefined,
    relativeTime(entry.startedAt, now),
  ]
    .filter((p) => p !== undefined && p !== '')
    .join(' · ');

  const details: Array<readonly [string, string]> = [];
  const add = (name: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') details.push([name, String(value)]);
  };
  add('Operation', entry.operation);
  add('Version', entry.version);
  add('Binding', binding);
  add('Environment', entry.environment);
  if (entry.recorded) {
    add('Sent by', `another program, recorded by the ${INSPECTOR_SOURCE} (#${entry.recorded.seq})`);
    add('Client', entry.recorded.client);
    add('User-Agent', entry.recorded.userAgent);
    add('Forwarded to', entry.recorded.target);
  } else {
    add('Sent by', 'the workbench');
    add('Request file', origin?.long);
  }
  add('Endpoint', entry.endpoint);
  add('HTTP status', entry.status);
  add('Attempt', entry.attempt && `${entry.attempt.number} of ${entry.attempt.of}${entry.attempt.held ? ' (retry.until held)' : ''}`);
  add('Time', entry.totalMs !== undefined ? `${Math.round(entry.totalMs)} ms` : undefined);
  add('Size', entry.size !== undefined ? `${entry.size} bytes` : undefined);
  add('Started', new Date(entry.startedAt).toLocaleString());

  const phrase = VERDICT_PHRASES[verdict];
  const e = entry.expectations;
  return {
    label: entry.title,
    description,
    phrase,
    ...(entry.reason ? { reason: entry.reason } : {}),
    details,
    accessibility: [
      entry.title,
      phrase,
      e ? `${expectationsLine(e)}${e.passed ? '' : ', failed'}` : undefined,
      binding,
      entry.environment,
      origin?.short,
      relativeTime(entry.startedAt, now),
    ]
      .filter((p) => p !== undefined && p !== '')
      .join(', '),
    contextValue: `exchange${entry.source ? '.resendable' : ''}${entry.operation ? '.known' : ''}`,
    verdict,
  };
}

/** Where the exchange came from: the request file's name (and its path), or the Traffic Inspector and the program. */
function originOf(entry: HistoryEntry): { short: string; long?: string } | undefined {
  if (entry.recorded) {
    const program = entry.recorded.userAgent?.split(/[\s/]/)[0];
    return { short: program ? `${INSPECTOR_SOURCE} (${program})` : INSPECTOR_SOURCE };
  }
  if (!entry.source) return undefined;
  const path = filePath(entry.source);
  return { short: path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1), long: path };
}

/** A `file:` URI as its path; anything else as written. */
function filePath(source: string): string {
  if (!/^file:/i.test(source)) return source;
  try {
    return decodeURIComponent(new URL(source).pathname).replace(/^\/([a-z]:)/i, '$1');
  } catch {
    return source;
  }
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s·,()]+/)
    .filter((w) => w !== '');
}

function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}
