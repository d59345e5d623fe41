/**
 * One request/reply exchange as the workbench shows it: the CLI, the results panel, the runner,
 * history and the traffic inspector all read this shape. Everything in it is already redacted.
 */
import type { Binding } from './catalog/types';

export type Severity = 'error' | 'warning' | 'info';

/** The exact HTTP request, as it goes (or went) on the wire — with secrets redacted. */
export interface HttpRequestSpec {
  /** GET or POST for every request the workbench makes; a recorded request keeps the method its client used. */
  readonly method: 'GET' | 'POST' | (string & {});
  readonly url: string;
  /** In the order sent; names as sent. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** UTF-8 body text; empty for GET. */
  readonly body: string;
}

export interface HttpReply {
  readonly status: number;
  readonly statusText: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Reply body decoded as text (charset from Content-Type, else UTF-8). */
  readonly bodyText: string;
  /** Size of the body in bytes as received. */
  readonly size: number;
}

/** Timing phases in milliseconds; a phase that did not happen (reused connection, no TLS) is absent. */
export interface Timing {
  /** TCP connect, when this request opened the connection. */
  readonly connectMs?: number;
  /** TLS handshake, when this request opened an https connection. */
  readonly tlsMs?: number;
  /**
   * From the request's first byte to its last going to the service. The traffic inspector
   * measures it (a client may upload slowly, connecting to the target included); a send of the
   * workbench's own writes its small body at once and leaves it out.
   */
  readonly uploadMs?: number;
  /** From the request being written to the first byte of the reply: the server's time. */
  readonly firstByteMs?: number;
  /** From the first to the last byte of the reply. */
  readonly downloadMs?: number;
  /** The whole exchange, including waiting for a connection. */
  readonly totalMs: number;
}

/** Bytes on the wire: the request body as sent, the reply body as received. */
export interface Sizes {
  readonly requestBytes: number;
  readonly replyBytes: number;
}

export interface SoapFault {
  readonly soapVersion: '1.1' | '1.2';
  /** faultcode (1.1) or Code/Value (1.2), as a qualified name text (e.g. `soap:Client`). */
  readonly code: string;
  /** SOAP 1.2 Subcode values, outermost first. */
  readonly subcodes: readonly string[];
  /** faultstring (1.1) or the first Reason/Text (1.2). */
  readonly reason: string;
  /** faultactor (1.1) or Node (1.2). */
  readonly actor?: string;
  /** Role (1.2). */
  readonly role?: string;
  /** detail / Detail content, parsed generically (unknown elements kept). */
  readonly detail?: unknown;
}

/**
 * What a reply does against its contract (the catalog, or the environment's stored live contract):
 * docs/collections.md#contract-findings has the table of codes and severities.
 */
export type ContractCode =
  'unknown-element' | 'missing-element' | 'not-of-type' | 'wrong-namespace' | 'out-of-order' | 'repeated' | 'soap-version' | 'no-result' | 'empty-result';

/** Something the workbench found in a reply (or a request): a fault, an in-body error, a problem. */
export interface Finding {
  readonly severity: Severity;
  /**
   * `request`: something about a request the workbench did not build itself (a recorded one).
   * `contract`: the reply against its contract, with a `code`; an error one means a typed client
   * could not read the reply, and no test of it passes (src/core/verdict.ts).
   */
  readonly kind: 'fault' | 'in-body' | 'transport' | 'reply' | 'namespace' | 'document' | 'request' | 'contract';
  readonly message: string;
  /** Path in the parsed reply (`Result.Shipment[0].ErrorMessage`), where there is one. */
  readonly path?: string;
  /** For a `contract` finding: what kind of departure it is. */
  readonly code?: ContractCode;
}

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
  /** A reply a typed client could not read: a contract error (a value not of its type, a repeated single element, another namespace, no result…). */
  | 'contract-error'
  /** No complete reply: refused, reset, timed out, too large, redirected, TLS. */
  | 'transport-error'
  | 'cancelled'
  /**
   * Traffic the inspector relayed but could not read along the catalog (a request of no known
   * operation, a reply kept only in part): neither a success nor a failure of the service.
   */
  | 'not-read';

export type VerdictTone = 'ok' | 'warn' | 'error' | 'neutral';

/** Whether an exchange succeeded (src/core/verdict.ts decides it). */
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

/** One expectation of a request file that did not hold, where it is written (1-based). */
export interface ExpectationFailure {
  readonly message: string;
  /** Concrete reply path, when the failure has one. */
  readonly path?: string;
  readonly line?: number;
  readonly column?: number;
  /** Not a failure of an expectation the file writes: what an unstated one implies, or a contract error. */
  readonly implied: boolean;
}

/**
 * The request file's `expect` as it was when the exchange was sent, judged once in core
 * (src/core/runner/judge.ts): every face shows this, none judges again.
 */
export interface JudgedExpectations {
  /** The request file (as the exchange's `source`). */
  readonly file: string;
  /** Expectations the file states: each top-level key, each reply path, each message pattern, each documents check. */
  readonly total: number;
  readonly held: number;
  /** Nothing failed, what the unstated expectations and the contract imply included. */
  readonly passed: boolean;
  /** Contract warnings failed it too (`conforms`, `--strict-contract`, `"strictContract"`). */
  readonly strictContract: boolean;
  /** Each expectation stated, as written, and whether it held: History shows what was checked. */
  readonly checked: ReadonlyArray<{ readonly text: string; readonly line: number; readonly column: number; readonly held: boolean }>;
  readonly failures: readonly ExpectationFailure[];
}

/** The one judgement of an exchange: its verdict, and the file's expectations when it states any. */
export interface Judgement {
  readonly verdict: Verdict;
  readonly expectations?: JudgedExpectations;
}

/** A base64 document field of a reply, decoded. */
export interface DecodedDocument {
  /** Path in the parsed reply (`PdfDocument`, `Documents[1].DocumentData`). */
  readonly path: string;
  /** A file name for saving it. */
  readonly name: string;
  readonly mediaType: 'application/pdf' | 'application/octet-stream';
  readonly size: number;
  readonly pages?: number;
  /** The decoded bytes as base64 (so the object stays JSON-serialisable for the webview). */
  readonly base64: string;
  /**
   * false when the document was past a decoding budget (docs/wire.md#budgets): it is kept as it
   * came (`base64`) but not inspected — no page count, no preview — and `notInspected` says why.
   * Absent on a document that was inspected.
   */
  readonly inspected?: false;
  /** Why the document was not inspected (which budget it passed). */
  readonly notInspected?: string;
}

export interface ExchangeError {
  /** timeout, cancelled, connect, reset, too-large, redirect, tls, http, reply (unreadable body) … */
  readonly kind: string;
  readonly message: string;
}

export interface Exchange {
  readonly id: string;
  readonly startedAt: string;
  readonly operation?: string;
  readonly version?: string;
  readonly binding?: Binding;
  readonly environment?: string;
  readonly endpoint?: string;
  /** The request file this came from, when there is one. */
  readonly source?: string;
  readonly request: HttpRequestSpec;
  readonly reply?: HttpReply;
  readonly timing?: Timing;
  readonly sizes?: Sizes;
  readonly fault?: SoapFault;
  readonly findings: readonly Finding[];
  /** The reply parsed along the catalog (unknown elements kept). */
  readonly parsed?: unknown;
  readonly documents: readonly DecodedDocument[];
  readonly error?: ExchangeError;
  /** Present when the traffic inspector recorded this exchange between another program and a service. */
  readonly recorded?: RecordedMarker;
  /** What only a relay (the traffic inspector) saw on the wire, beyond the request and the final reply. */
  readonly wire?: WireFacts;
  /**
   * The judgement made when the exchange was sent (or recorded): the verdict, with the contract
   * findings above, and the request file's `expect` of that moment. Absent on exchanges kept
   * before it existed; classifyExchange decides those.
   */
  readonly judgement?: Judgement;
  /** One attempt of a request file that waits (`retry`, docs/request-files.md#retry): which, of how many, and those before it. */
  readonly attempt?: ExchangeAttempt;
}

/** One attempt of a send that waits for a condition, in brief: what History, the panel and the reports list. */
export interface AttemptSummary {
  /** 1-based. */
  readonly number: number;
  /** The attempt's exchange (History keeps each one). */
  readonly id: string;
  readonly startedAt: string;
  readonly status?: number;
  /** The exchange's verdict label and tone (`200 OK`, `SOAP fault`). */
  readonly verdict: string;
  readonly tone: VerdictTone;
  /** The exchange's own time. */
  readonly durationMs?: number;
  /** Whether `retry.until` held on its reply. */
  readonly held: boolean;
  /** The wait before it (0 for the first). */
  readonly waitedMs: number;
  /** Why it had no usable reply (the exchange's error), or the first way `until` did not hold. */
  readonly note?: string;
}

/** Where an exchange stands in a send that waits (`retry`). */
export interface ExchangeAttempt {
  readonly number: number;
  /** `retry.attempts`: the most there could be. */
  readonly of: number;
  /** What `until` checks, in brief (src/core/requestFile/retry.ts retryBrief). */
  readonly until: string;
  /** The attempt at which `until` held, once one has. */
  readonly heldAt?: number;
  /** The last attempt of the send: `until` held, the attempts ran out, or the wait was cancelled. */
  readonly last: boolean;
  readonly cancelled?: boolean;
  /** Every attempt up to this one, in order, this one last. */
  readonly attempts: readonly AttemptSummary[];
}

/** A reply's status line and headers (redacted). */
export interface ReplyHead {
  readonly status: number;
  readonly statusText: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

/** What only the relay saw: interim replies, trailers, and a reply it made itself. */
export interface WireFacts {
  /** Interim (1xx) replies before the final one, in order, each relayed to the client as it came (the first 16). */
  readonly interim?: readonly ReplyHead[];
  /** Trailer fields after a chunked body, relayed with it (redacted). */
  readonly requestTrailers?: ReadonlyArray<readonly [string, string]>;
  readonly replyTrailers?: ReadonlyArray<readonly [string, string]>;
  /** The client's reply was made by the inspector, not the target (which could not be reached, or did not answer): its status. */
  readonly answered?: { readonly status: number; readonly statusText: string };
}

/**
 * How the traffic inspector saw an exchange it forwarded: the workbench did not send it, so its
 * request is the client's own (redacted) and the catalog's reading of it is kept here.
 */
export interface RecordedMarker {
  readonly direction: 'recorded';
  /** Order of arrival at the inspector, from 1. */
  readonly seq: number;
  /** Where the inspector forwarded it (base URL, redacted). */
  readonly target: string;
  /** The client's address, as the inspector saw it. */
  readonly client?: string;
  /** False when the request is not a call of the catalog; `reason` says why. */
  readonly recognised: boolean;
  readonly reason?: string;
  /** The request's parameters read along the catalog (APIKey masked). */
  readonly params?: unknown;
  /** How much of each body was kept when it was larger than the inspector keeps in memory. */
  readonly requestBodyTruncated?: boolean;
  readonly replyBodyTruncated?: boolean;
}
