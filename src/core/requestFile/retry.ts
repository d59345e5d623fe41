/**
 * A request file's `retry`: send again until a condition holds (docs/request-files.md#retry).
 * Its defaults and limits, and the few words that say what a file waits for (the CodeLens, the
 * editor's progress). The condition itself is compiled with `expect` (src/core/runner/compileExpect.ts).
 */
import { isObject } from '../objects';

/** What a `retry` leaves out. */
export const RETRY_DEFAULTS = { attempts: 10, delayMs: 1000, backoff: 1 } as const;
/** The most attempts a file may ask for: a typo of 10000 would otherwise keep a run busy for hours. */
export const MAX_RETRY_ATTEMPTS = 1000;
/** The longest wait between two attempts, `delayMs` and `maxDelayMs` alike: an hour. */
export const MAX_RETRY_DELAY_MS = 3_600_000;
export const RETRY_KEYS = ['until', 'attempts', 'delayMs', 'backoff', 'maxDelayMs'] as const;

/** How a file waits: at most `attempts` sends, `delayMs × backoff^(n-1)` (at most `maxDelayMs`) after the n-th. */
export interface RetryPolicy {
  readonly attempts: number;
  readonly delayMs: number;
  readonly backoff: number;
  readonly maxDelayMs?: number;
}

/** The wait after attempt `n` (1-based), before attempt n + 1. */
export function retryDelay(policy: RetryPolicy, n: number): number {
  const delay = policy.delayMs * Math.pow(policy.backoff, n - 1);
  return Math.min(delay, policy.maxDelayMs ?? MAX_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS);
}

/** What a file's `retry` says, in brief, as written (unchecked: the editor says it while the file is typed). */
export interface RetryBrief {
  /** `Result.Status = "Delivered"`, `status 200`…: what `until` checks, clipped. */
  readonly until: string;
  readonly attempts: number;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The brief of a `retry` value; undefined when it is not an object with an `until` object. */
export function retryBrief(retry: unknown): RetryBrief | undefined {
  if (!isObject(retry) || !isObject(retry.until)) return undefined;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(retry.until)) {
    if (key === 'reply' && isObject(value)) {
      for (const [path, check] of Object.entries(value)) {
        if (isObject(check)) {
          const [op, operand] = Object.entries(check)[0] ?? [];
          parts.push(op === undefined ? path : `${path} ${op} ${JSON.stringify(operand)}`);
        } else parts.push(`${path} = ${JSON.stringify(check)}`);
      }
    } else parts.push(`${key} ${JSON.stringify(value)}`);
  }
  const attempts = typeof retry.attempts === 'number' && Number.isInteger(retry.attempts) && retry.attempts >= 1 ? retry.attempts : RETRY_DEFAULTS.attempts;
  return { until: clip(parts.join(', ') || 'nothing', 60), attempts };
}
