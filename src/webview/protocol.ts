/**
 * The one message protocol between the results panel (extension side) and its webview. Both
 * sides import these types; nothing else crosses the postMessage boundary.
 */
import type { Exchange } from '../core/view';

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
}

/** What the webview keeps across reloads (vscode.setState) and the serializer gets back. */
export interface PanelState {
  readonly exchangeId?: string;
  readonly tab?: TabId;
}

// ---- extension → webview ----

export type ToWebview =
  | { readonly type: 'show'; readonly view: ExchangeView; readonly tab?: TabId }
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
  readonly summary: { readonly title: string; readonly findings: number };
  readonly tree: { readonly totalNodes: number; readonly renderedNodes: number; readonly capped: boolean };
  readonly rawBodyChars: number;
  readonly documents: readonly DocumentRenderReport[];
}

export type FromWebview =
  | { readonly type: 'ready' }
  | { readonly type: 'rendered'; readonly report: RenderReport }
  | { readonly type: 'tabChanged'; readonly tab: TabId }
  | { readonly type: 'copy'; readonly text: string; readonly what: string }
  | { readonly type: 'openFullBody'; readonly exchangeId: string }
  | { readonly type: 'saveDocument'; readonly exchangeId: string; readonly index: number }
  | { readonly type: 'openSource'; readonly exchangeId: string }
  | { readonly type: 'error'; readonly message: string };

export function isFromWebview(value: unknown): value is FromWebview {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
