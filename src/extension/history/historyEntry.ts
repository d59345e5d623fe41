/**
 * The small, always-persisted summary of one exchange that the History view lists: its judgement
 * as made when it was sent (core's verdict, the request file's expectations), never made again.
 */
import type { Exchange, RecordedMarker, VerdictKind } from '../../core';
import { classifyExchange, exchangeTitle } from '../coreLight';

export interface HistoryEntry {
  readonly id: string;
  readonly startedAt: string;
  readonly title: string;
  /** Absent on entries kept before rows named them, and on traffic of no known operation. */
  readonly operation?: string;
  readonly version?: string;
  readonly environment?: string;
  readonly endpoint?: string;
  readonly binding?: string;
  /** The request file, as a URI string, when the exchange came from one. */
  readonly source?: string;
  /** Present when the Traffic Inspector recorded the exchange: another program sent it, not the workbench. */
  readonly recorded?: {
    readonly seq: number;
    /** The client's address, as the inspector saw it. */
    readonly client?: string;
    /** The client's User-Agent (redacted, shortened): which program it was. */
    readonly userAgent?: string;
    /** Where the inspector forwarded it. */
    readonly target: string;
  };
  readonly status?: number;
  /** Core's verdict (src/core/verdict.ts); entries kept before it existed have none. */
  readonly verdict?: VerdictKind;
  /** Core's one-sentence reason for the verdict. */
  readonly reason?: string;
  /** The verdict in a few words (`200 OK · breaks the contract`), as the panel's header says it. */
  readonly label?: string;
  /**
   * The request file's `expect` as judged when the exchange was sent (its `judgement`), when the
   * file stated expectations: the counts History lists, and the first failures.
   */
  readonly expectations?: {
    readonly held: number;
    readonly total: number;
    readonly passed: boolean;
    readonly failures: readonly string[];
  };
  readonly totalMs?: number;
  readonly size?: number;
  /** One attempt of a send that waited (`retry`): which, of how many, and whether `until` held on it. */
  readonly attempt?: { readonly number: number; readonly of: number; readonly held: boolean };
}

/** Failures a tooltip lists; the panel shows them all. */
const FAILURES_KEPT = 3;

/** "3/3 expectations held", as the panel's header says it. */
export function expectationsLine(e: NonNullable<HistoryEntry['expectations']>): string {
  return `${e.held}/${e.total} expectation${e.total === 1 ? '' : 's'} held`;
}

/** The entry of an exchange from its judgement (the verdict and expectations made when it was sent). */
export function toHistoryEntry(exchange: Exchange): HistoryEntry {
  const verdict = classifyExchange(exchange);
  const judged = exchange.judgement?.expectations;
  return {
    id: exchange.id,
    startedAt: exchange.startedAt,
    title: exchangeTitle(exchange),
    operation: exchange.operation,
    version: exchange.version,
    environment: exchange.environment,
    endpoint: exchange.endpoint,
    binding: exchange.binding,
    source: exchange.source,
    ...(exchange.recorded ? { recorded: recordedOf(exchange, exchange.recorded) } : {}),
    status: exchange.reply?.status,
    verdict: verdict.kind,
    reason: verdict.reason,
    label: verdict.label,
    ...(judged
      ? {
          expectations: {
            held: judged.held,
            total: judged.total,
            passed: judged.passed,
            failures: judged.failures.slice(0, FAILURES_KEPT).map((f) => f.message),
          },
        }
      : {}),
    totalMs: exchange.timing?.totalMs,
    size: exchange.reply?.size,
    ...(exchange.attempt
      ? { attempt: { number: exchange.attempt.number, of: exchange.attempt.of, held: exchange.attempt.heldAt === exchange.attempt.number } }
      : {}),
  };
}

/** A User-Agent longer than this is cut: a row names the program, the panel shows the whole header. */
const USER_AGENT_CHARS = 80;

function recordedOf(exchange: Exchange, marker: RecordedMarker): NonNullable<HistoryEntry['recorded']> {
  const agent = exchange.request.headers.find(([n]) => n.toLowerCase() === 'user-agent')?.[1];
  return {
    seq: marker.seq,
    ...(marker.client ? { client: marker.client } : {}),
    ...(agent ? { userAgent: agent.length > USER_AGENT_CHARS ? `${agent.slice(0, USER_AGENT_CHARS - 1)}…` : agent } : {}),
    target: marker.target,
  };
}
