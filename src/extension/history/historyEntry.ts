/** The small, always-persisted summary of one exchange that the History view lists. */
import type { Exchange } from '../../core/exchange';

export type Outcome = 'ok' | 'fault' | 'in-body' | 'http' | 'error';

export interface HistoryEntry {
  readonly id: string;
  readonly startedAt: string;
  readonly title: string;
  readonly environment?: string;
  readonly endpoint?: string;
  readonly binding?: string;
  /** The request file, as a URI string, when the exchange came from one. */
  readonly source?: string;
  readonly status?: number;
  readonly outcome: Outcome;
  readonly totalMs?: number;
  readonly size?: number;
}

export function outcomeOf(exchange: Exchange): Outcome {
  if (exchange.error) return 'error';
  if (exchange.fault) return 'fault';
  if (exchange.findings.some((f) => f.severity === 'error' && f.kind === 'in-body')) return 'in-body';
  if (exchange.reply && (exchange.reply.status < 200 || exchange.reply.status >= 300)) return 'http';
  return 'ok';
}

export function titleOf(exchange: Exchange): string {
  if (exchange.operation) return exchange.version ? `${exchange.operation} ${exchange.version}` : exchange.operation;
  return `${exchange.request.method} ${exchange.request.url}`;
}

export function toHistoryEntry(exchange: Exchange): HistoryEntry {
  return {
    id: exchange.id,
    startedAt: exchange.startedAt,
    title: titleOf(exchange),
    environment: exchange.environment,
    endpoint: exchange.endpoint,
    binding: exchange.binding,
    source: exchange.source,
    status: exchange.reply?.status,
    outcome: outcomeOf(exchange),
    totalMs: exchange.timing?.totalMs,
    size: exchange.reply?.size,
  };
}
