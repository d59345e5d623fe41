/** The small, always-persisted summary of one exchange that the History view lists. */
import { classifyExchange, exchangeTitle, type Exchange, type VerdictKind } from '../../core';

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
  /** Core's verdict (src/core/verdict.ts); entries kept before it existed have none. */
  readonly verdict?: VerdictKind;
  /** Core's one-sentence reason for the verdict. */
  readonly reason?: string;
  readonly totalMs?: number;
  readonly size?: number;
}

export function toHistoryEntry(exchange: Exchange): HistoryEntry {
  const verdict = classifyExchange(exchange);
  return {
    id: exchange.id,
    startedAt: exchange.startedAt,
    title: exchangeTitle(exchange),
    environment: exchange.environment,
    endpoint: exchange.endpoint,
    binding: exchange.binding,
    source: exchange.source,
    status: exchange.reply?.status,
    verdict: verdict.kind,
    reason: verdict.reason,
    totalMs: exchange.timing?.totalMs,
    size: exchange.reply?.size,
  };
}
