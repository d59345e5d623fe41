/**
 * A request file that waits (`retry`, docs/request-files.md#retry): send, judge `until` with the
 * engine that judges `expect` (judge.ts), and while it does not hold wait `delayMs × backoff^(n-1)`
 * and send again, up to `attempts` times. The runner (engine.ts) and a send from the editor
 * (`sendFileUntil`, below) both wait through here; a cancel ends the wait at once.
 */
import type { AttemptSummary, Exchange, ExchangeAttempt } from '../exchange';
import { Redactor, secretValues } from '../redact';
import { retryBrief, retryDelay } from '../requestFile/retry';
import { runVariables } from '../requestFile/runVariables';
import { classifyExchange } from '../verdict';
import type { CompiledRetry } from './compileExpect';
import { judgeExchange, judgeSentFile, withVerdict, type SentFile } from './judge';
import { compileRequestFile } from './loadFile';
import type { Failure, SourceLocation } from './types';
import { variableText, type Lookup } from './variables';

/** Waits `ms`, or less when `signal` aborts first (resolving, not rejecting: the caller looks at the signal). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleepUnlessAborted: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

export interface RetryInput {
  readonly retry: CompiledRetry;
  /** Sends once; `attempt` is 1-based. A rejection ends the waiting (the caller says why). */
  readonly send: (attempt: number) => Promise<Exchange>;
  /** The variables `until` names, as `expect` has them. */
  readonly lookup: Lookup;
  readonly signal?: AbortSignal;
  /** Contract warnings count against `until` too (the run's --strict-contract), unless `until` says `conforms`. */
  readonly strictContract?: boolean;
  /** The request file's opening brace: where what an unstated expectation implies points. */
  readonly fileLocation?: SourceLocation;
  /** Secrets out of `until`'s failures (they quote values a variable filled). */
  readonly redact?: (failures: Failure[]) => Failure[];
  /** Each attempt, judged, before any wait that follows it. */
  readonly onAttempt?: (attempt: RetryAttempt, last: boolean) => void | Promise<void>;
  /** Before each wait: the attempt that comes after it, and how long. */
  readonly onWait?: (next: number, delayMs: number) => void;
  readonly sleep?: Sleep;
}

export interface RetryAttempt {
  /** 1-based. */
  readonly number: number;
  readonly exchange: Exchange;
  /** How `until` did not hold on this reply; empty when it held. */
  readonly untilFailures: readonly Failure[];
  readonly held: boolean;
  /** The wait before it (0 for the first). */
  readonly waitedMs: number;
}

export interface RetryOutcome {
  /** Every attempt made, in order; the last is the one `expect` and `capture` take. */
  readonly attempts: readonly RetryAttempt[];
  /** The attempt at which `until` held; undefined when it never did. */
  readonly heldAt?: number;
  /** The signal aborted: the attempts made until then. */
  readonly cancelled: boolean;
}

/** Sends until `retry.until` holds or the attempts run out; at least one attempt unless already aborted. */
export async function retryUntil(input: RetryInput): Promise<RetryOutcome> {
  const { retry, signal } = input;
  const sleep = input.sleep ?? sleepUnlessAborted;
  const attempts: RetryAttempt[] = [];
  let waitedMs = 0;
  for (let n = 1; n <= retry.attempts; n++) {
    if (signal?.aborted) return { attempts, cancelled: true };
    const exchange = await input.send(n);
    let { failures } = judgeExchange(exchange, {
      expect: retry.until,
      lookup: input.lookup,
      fileLocation: input.fileLocation,
      strictContract: input.strictContract === true,
      keepExchange: false,
    });
    if (input.redact && failures.length) failures = input.redact(failures);
    const attempt: RetryAttempt = { number: n, exchange, untilFailures: failures, held: failures.length === 0, waitedMs };
    attempts.push(attempt);
    const cancelled = signal?.aborted === true;
    const last = attempt.held || n === retry.attempts || cancelled;
    await input.onAttempt?.(attempt, last);
    if (attempt.held) return { attempts, heldAt: n, cancelled: false };
    if (last) return { attempts, cancelled };
    waitedMs = retryDelay(retry, n);
    input.onWait?.(n + 1, waitedMs);
    await sleep(waitedMs, signal);
  }
  return { attempts, cancelled: signal?.aborted === true };
}

/** One attempt in brief, for History, the panel and the reports. */
export function attemptSummary(a: RetryAttempt): AttemptSummary {
  const x = a.exchange;
  const verdict = classifyExchange(x);
  const note = x.error ? `${x.error.kind}: ${x.error.message}` : a.untilFailures[0]?.message;
  return {
    number: a.number,
    id: x.id,
    startedAt: x.startedAt,
    ...(x.reply ? { status: x.reply.status } : {}),
    verdict: verdict.label,
    tone: verdict.tone,
    ...(x.timing ? { durationMs: x.timing.totalMs } : {}),
    held: a.held,
    waitedMs: a.waitedMs,
    ...(note ? { note } : {}),
  };
}

/**
 * Why a test that waits failed for its waiting: `until` never held, or the wait was cancelled;
 * undefined when `until` held. Said beside what `expect` finds on the last reply.
 */
export function retryFailure(outcome: RetryOutcome, retry: CompiledRetry): Failure | undefined {
  if (outcome.heldAt !== undefined) return undefined;
  const n = outcome.attempts.length;
  if (outcome.cancelled)
    return { kind: 'retry', message: `retry cancelled while waiting for retry.until, after attempt ${n} of ${retry.attempts}`, location: retry.location };
  const last = outcome.attempts[n - 1]?.untilFailures ?? [];
  const more = last.length > 1 ? `; ${last.length - 1} more` : '';
  return {
    kind: 'retry',
    message: `retry.until never held after ${n} attempt${n === 1 ? '' : 's'} (last: ${last[0]?.message ?? 'no reply'}${more})`,
    ...(last[0]?.expected !== undefined ? { expected: last[0].expected } : {}),
    ...(last[0]?.actual !== undefined ? { actual: last[0].actual } : {}),
    ...(last[0]?.path !== undefined ? { path: last[0].path } : {}),
    location: retry.location,
  };
}

/** A send of a request file from the editor that may wait: how to send once, and what to say as it goes. */
export interface SendUntilInput extends SentFile {
  /** Sends the file once (the editor's send, with its key and sandbox). */
  readonly send: (attempt: number) => Promise<Exchange>;
  readonly signal?: AbortSignal;
  /** Each attempt's exchange as History and the panel keep it: marked with its attempt, the last judged by `expect`. */
  readonly onAttempt?: (exchange: Exchange) => void | Promise<void>;
  /** Before each wait: the next attempt, of how many, after how long. */
  readonly onWait?: (next: { readonly attempt: number; readonly of: number; readonly delayMs: number }) => void;
  readonly sleep?: Sleep;
}

/**
 * Sends a request file from the editor: once, judged by its `expect` (judgeSentFile), or — when
 * it has a `retry` that compiles — until `retry.until` holds, each attempt marked (`attempt`)
 * and only the last judged by `expect`, as the runner does. Returns the last exchange. A file
 * whose `retry` has mistakes is sent once: the editor shows the mistakes where they are written.
 */
export async function sendFileUntil(input: SendUntilInput): Promise<Exchange> {
  const file = compileRequestFile(input.text, input.fileName, undefined, undefined, input.context);
  const retry = file.problems.length ? undefined : file.retry;
  if (!retry) {
    const exchange = judgeSentFile(await input.send(1), input);
    await input.onAttempt?.(exchange);
    return exchange;
  }
  const variables: Record<string, unknown> = { ...(input.runVariables ?? runVariables()), ...input.variables };
  const lookup: Lookup = (name) => (Object.prototype.hasOwnProperty.call(variables, name) ? variableText(variables[name]) : undefined);
  const redactor = new Redactor(secretValues(undefined, variables, input.secrets), { derived: true });
  const until = retryBrief(file.request?.retry)?.until ?? '';
  const summaries: AttemptSummary[] = [];
  let latest: Exchange | undefined;
  const outcome = await retryUntil({
    retry,
    send: input.send,
    lookup,
    signal: input.signal,
    fileLocation: file.location,
    redact: (f) => redactor.deep(f),
    ...(input.sleep ? { sleep: input.sleep } : {}),
    onWait: (next, delayMs) => input.onWait?.({ attempt: next, of: retry.attempts, delayMs }),
    onAttempt: async (a, last) => {
      summaries.push(attemptSummary(a));
      const marker: ExchangeAttempt = {
        number: a.number,
        of: retry.attempts,
        until,
        ...(a.held ? { heldAt: a.number } : {}),
        last,
        ...(last && input.signal?.aborted ? { cancelled: true } : {}),
        attempts: [...summaries],
      };
      // `expect` judges the last reply only (docs/request-files.md#retry); the others keep the verdict send gave them.
      const judged = last ? judgeSentFile(a.exchange, input) : withVerdict(a.exchange);
      latest = { ...judged, attempt: marker };
      await input.onAttempt?.(latest);
    },
  });
  if (latest && outcome.cancelled && !latest.attempt?.cancelled) {
    // Cancelled during a wait: the last attempt made is the last there is.
    latest = { ...latest, attempt: { ...latest.attempt!, last: true, cancelled: true } };
  }
  if (!latest) throw new Error('cancelled before the first attempt');
  return latest;
}
