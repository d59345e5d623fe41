/**
 * The traffic inspector: a recording forward proxy on loopback. A program under development
 * points at it instead of the service; every request goes on to the target unchanged, and every
 * exchange is recorded — the bytes, the headers, the timing, and the catalog's reading of both
 * sides — with the API key redacted before anything is kept.
 */
import type { Binding, Exchange, JsonObject, Namespaces, ReadIssue, RecognitionProblem, UnknownRequest } from '../core';

/** What a recording names as its target. */
export interface RecordEnvironment {
  /** The environment's name (for a URL, the name wanted in the folder's environments file; another is chosen when it is taken). */
  readonly name: string;
  /** Set for a URL target that is no environment: written with `namespaces` into the recording folder's carrier.environments.json. */
  readonly baseUrl?: string;
  readonly namespaces?: Namespaces;
}

export interface InspectorOptions {
  /** Where requests go: an http(s) base URL, possibly with a path prefix. */
  readonly target: string;
  /** Namespaces the target uses, for reading its requests and replies. */
  readonly namespaces: Namespaces;
  /** The environment's name, for the exchanges' `environment`. */
  readonly environment?: string;
  /** TCP port; 0 (the default) lets the OS pick one. */
  readonly port?: number;
  /** A loopback address; 127.0.0.1 by default. */
  readonly host?: string;
  /** A folder to write every exchange to (created when missing). */
  readonly recordDir?: string;
  /**
   * The target a recording names, so `carrier run <folder>` replays against it: an environment by
   * name, or (with `baseUrl`) a URL that is no environment, which the writer adds as one to the
   * folder's own carrier.environments.json.
   */
  readonly recordEnvironment?: RecordEnvironment;
  /** Largest part of each body kept in memory, parsed and recorded; the rest is forwarded but not kept. */
  readonly maxBodyBytes?: number;
  /**
   * How many recorded exchanges stay in memory for `exchanges()` (oldest dropped first); 0 keeps
   * none, for a caller that only listens (`carrier inspect` prints each one as it is read).
   */
  readonly keep?: number;
  /** How many bytes of recorded exchanges stay in memory (bodies, documents, parsed replies; oldest dropped first). */
  readonly keepBytes?: number;
  /** Bytes of body copies held at once for exchanges under way or waiting to be read; past it, bodies are forwarded without a copy. */
  readonly captureBytes?: number;
  /** Milliseconds a connection may wait with no exchange under way before it is closed. */
  readonly idleTimeoutMs?: number;
  /** Milliseconds from the first byte of a request head to its end (408 after). */
  readonly headersTimeoutMs?: number;
  /** Longest silence inside an exchange, in milliseconds: a stalled request body (408), a target that does not answer (504) or stalls, a client that does not read. */
  readonly bodyTimeoutMs?: number;
  /** More values to redact wherever they appear (keys known beforehand, secret variables). */
  readonly secrets?: readonly string[];
  /** Options for an https target: a CA to trust, a client certificate, or no verification. */
  readonly tls?: { readonly ca?: string | Buffer; readonly cert?: string | Buffer; readonly key?: string | Buffer; readonly rejectUnauthorized?: boolean };
  /** Notable events (a recording that could not be written, an internal error). */
  readonly log?: (line: string) => void;
}

/** Files written for one exchange, relative to the recording folder. */
export interface RecordingFiles {
  readonly exchange: string;
  readonly requestBody?: string;
  readonly replyBody?: string;
  readonly requestFile?: string;
}

/** An exchange as the inspector records it: core's shape, with the upload phase and what only the relay saw (`wire`). */
export type InspectedExchange = Exchange;

export interface RecordedExchange {
  readonly seq: number;
  /** Redacted; `recorded` is set. */
  readonly exchange: InspectedExchange;
  /** The catalog's reading of the request (its parameters redacted). */
  readonly recognition: RecognitionSummary;
  /**
   * A body whose content coding (gzip, deflate, br) was undone, or whose charset cannot be masked
   * in place: what was undone. Its text and its recorded file are the decoded, masked text.
   */
  readonly decoded?: { readonly request?: string; readonly reply?: string };
  readonly files?: RecordingFiles;
}

/** A Recognition without the catalog entry it points to, fit for JSON. */
export type RecognitionSummary =
  | {
      readonly kind: 'operation';
      readonly operation: string;
      readonly version: string;
      readonly binding: Binding;
      readonly servicePath: string;
      readonly action?: string;
      readonly params?: JsonObject;
      readonly issues: readonly ReadIssue[];
      readonly problems: readonly RecognitionProblem[];
      /** Set when the operation element was outside the service namespace and its parameters were read wherever they stood: the namespace it was in. */ readonly keptOutOfNamespace?: string;
    }
  | UnknownRequest;

export interface InspectorHandle {
  /** `http://127.0.0.1:PORT`: what a client uses instead of the target's base URL. */
  readonly url: string;
  readonly target: string;
  /** Called for every exchange once it is read and recorded. Returns a function that stops the calls. */
  onExchange(listener: (recorded: RecordedExchange) => void): () => void;
  /** The exchanges kept in memory, oldest first. */
  exchanges(): readonly RecordedExchange[];
  /** Resolves when every exchange that is over (both sides done) is read and written; exchanges still under way are not waited for. */
  flush(): Promise<void>;
  /** Stops listening, lets open exchanges finish briefly, then records what is left. */
  close(): Promise<void>;
}
