/**
 * The one message protocol between the results panel (extension side) and its webview. Both
 * sides import these types; nothing else crosses the postMessage boundary.
 */
import type { Exchange, JudgedExpectations } from '../core/view';

export const RESULTS_VIEW_TYPE = 'carrier.results';

export type TabId = 'summary' | 'request' | 'reply' | 'tree' | 'documents' | 'timing';
export const TAB_IDS: readonly TabId[] = ['summary', 'request', 'reply', 'tree', 'documents', 'timing'];

/**
 * An exchange as the webview gets it. The reply body is capped (a 60 MB body would freeze the
 * raw view and bloat every message); the extension keeps the full one for "Open full body".
 */
export interface ExchangeView {
  readonly exchange: Exchange;
  /** Set when reply.bodyText was cut: the full body's length in characters. */
  readonly bodyTruncatedFrom?: number;
  /** True when the exchange came back from persisted history with large parts dropped. */
  readonly trimmed?: boolean;
  /**
   * The request file's `expect` as it was judged when the exchange was sent (the exchange's
   * `judgement.expectations`, src/core/runner/judge.ts), its `file` made workspace-relative for
   * display; absent when the file stated none. The panel shows it and never judges again.
   */
  readonly expectations?: ExpectationReport;
  /**
   * Set on the first message of a large reply: it carries the status, the findings and the
   * start of the body, but no parsed reply; the webview asks for it (`needDetail`) once the
   * header is on screen, and gets it as a `detail` message.
   */
  readonly detailPending?: boolean;
}

/** The heavy parts of a large reply, sent after its header: the parsed reply and the capped raw body. */
export interface ExchangeDetail {
  readonly exchangeId: string;
  readonly parsed?: unknown;
  readonly bodyText?: string;
  readonly bodyTruncatedFrom?: number;
}

/**
 * Core's judged expectations (src/core/exchange.ts `JudgedExpectations`): counted per expectation
 * (each top-level key, each reply path, each message pattern, each documents check), each one
 * checked with its line, and the failures with theirs. `file` is a workspace-relative path here.
 */
export type ExpectationReport = JudgedExpectations;

/** Requests the panel can write from numbers a reply carries (the Summary's follow-up actions). */
export type FollowUp = { readonly kind: 'trace-pro'; readonly pro: string } | { readonly kind: 'bol-pdf'; readonly bolId: string };

/** What the webview keeps across reloads (vscode.setState) and the serializer gets back. */
export interface PanelState {
  readonly exchangeId?: string;
  readonly tab?: TabId;
}

// ---- extension → webview ----

export type ToWebview =
  | { readonly type: 'show'; readonly view: ExchangeView; readonly tab?: TabId }
  | { readonly type: 'detail'; readonly detail: ExchangeDetail }
  | { readonly type: 'empty'; readonly message: string };

// ---- webview → extension ----

export interface DocumentRenderReport {
  readonly path: string;
  readonly pages: number;
  readonly pagesRendered: number;
  /** The first rendered canvas has pixels that are not all one colour. */
  readonly nonBlank: boolean;
  readonly error?: string;
}

/** What the user can see after a render, so tests can assert on it without scraping pixels. */
export interface RenderReport {
  readonly exchangeId: string;
  readonly tab: TabId;
  readonly summary: {
    readonly title: string;
    readonly findings: number;
    /** The operation's own view in the Summary tab (rate-quote, trace, …), when it has one. */
    readonly domain?: string;
    /** The expectations line as shown ("3/3 expectations held"), when the request file has an expect. */
    readonly expectations?: string;
    /** The expectations listed as checked, as shown: `✓ status 200 (line 5)`. */
    readonly checked?: readonly string[];
    /**
     * The Contract section's count line as shown ("1 error, 2 warnings" or "The reply matches its
     * contract."), when the Summary has one.
     */
    readonly contract?: string;
  };
  readonly tree: { readonly totalNodes: number; readonly renderedNodes: number; readonly capped: boolean };
  readonly rawBodyChars: number;
  readonly documents: readonly DocumentRenderReport[];
}

export type FromWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'rendered'; readonly report: RenderReport }
  | { readonly type: 'tabChanged'; readonly tab: TabId }
  | { readonly type: 'needDetail'; readonly exchangeId: string }
  | { readonly type: 'copy'; readonly text: string; readonly what: string }
  | { readonly type: 'openFullBody'; readonly exchangeId: string }
  | { readonly type: 'saveDocument'; readonly exchangeId: string; readonly index: number }
  | { readonly type: 'openSource'; readonly exchangeId: string; readonly line?: number; readonly column?: number }
  | { readonly type: 'followUp'; readonly exchangeId: string; readonly request: FollowUp }
  | { readonly type: 'error'; readonly message: string };

export function isFromWebview(value: unknown): value is FromWebview {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
