/**
 * What an embedder (the extension, the CLI, a test) can set when it starts a sandbox.
 */
import type { Namespaces } from '../core';
import type { SandboxLimits } from './http/limits';

export interface SandboxOptions {
  /** TCP port; 0 (the default) lets the OS pick a free one. */
  readonly port?: number;
  /** Interface to listen on; 127.0.0.1 by default so nothing outside the machine can reach it. */
  readonly host?: string;
  /** Accepted API keys. Without a list any non-empty key is accepted. */
  readonly apiKeys?: readonly string[];
  /** Folder for the state file; without one the state lives in memory only. */
  readonly dataDir?: string;
  /**
   * Start empty: the data folder's old state files are first moved into a backup folder beside
   * them (never deleted). Without it, a state that does not read stops the start with
   * SandboxStateUnreadableError.
   */
  readonly resetData?: boolean;
  /** Honour the X-Carrier-Inject request header (delays, faults, broken replies). */
  readonly allowInjection?: boolean;
  /** Namespace URIs of the three roles; the catalog's neutral defaults otherwise. */
  readonly namespaces?: Namespaces;
  /**
   * The real clock the carrier clock runs from (the system clock by default); shipments move
   * along their history as the carrier clock advances (carrier/clock.ts).
   */
  readonly now?: () => Date;
  /**
   * Carrier time per real time, from the moment the sandbox starts: 60 makes a carrier hour of
   * each real minute. 1 (the default) is real time. A positive number up to MAX_CLOCK_RATE.
   */
  readonly clockRate?: number;
  /** The carrier clock's reading at start (a test's fixed day); `now()` at start otherwise. */
  readonly clockStart?: Date;
  /** One line per request handled, and per notable event; keys masked, each line bounded. */
  readonly log?: (line: string) => void;
  /**
   * Answer from recordings of `carrier inspect --record` (replay/replayer.ts): a request that
   * matches a recorded call gets its recorded reply; one that matches none is emulated
   * (`fallback: 'emulate'`, the default) or gets a fault naming the closest recording (`'fault'`).
   */
  readonly replay?: { readonly dirs: readonly string[]; readonly fallback?: 'emulate' | 'fault' };
  /**
   * Keep the replies of operations that read neither the store nor the clock (rate quotes,
   * terminals, hazmat descriptions) and answer the same request again with the kept bytes
   * (http/replyMemo.ts). Off by default: a sandbox computes every reply, as a carrier does. Has
   * no effect with `replay`.
   */
  readonly replyMemo?: boolean;
  /** Body sizes, field and header counts, timeouts; DEFAULT_LIMITS in http/limits.ts otherwise. */
  readonly limits?: Partial<SandboxLimits>;
}

export interface SandboxHandle {
  /** `http://HOST:PORT`, without a trailing slash. */
  readonly url: string;
  /** Stops listening, ends open connections, finishes the last state write and unlocks the data folder. */
  close(): Promise<void>;
}
