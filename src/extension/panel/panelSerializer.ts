/** Brings the results panel back after a window reload, from the small state the webview saved. */
import * as vscode from 'vscode';
import { RESULTS_VIEW_TYPE, TAB_IDS, type PanelState } from '../../webview/protocol';
import type { ResultsPanel } from './resultsPanel';

export function registerPanelSerializer(panel: ResultsPanel): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(RESULTS_VIEW_TYPE, {
    deserializeWebviewPanel: (webviewPanel, state: unknown) => panel.restore(webviewPanel, asPanelState(state)),
  });
}

// The state comes back from disk: accept only the shape we wrote.
function asPanelState(state: unknown): PanelState | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const s = state as Record<string, unknown>;
  return {
    exchangeId: typeof s.exchangeId === 'string' ? s.exchangeId : undefined,
    tab: typeof s.tab === 'string' && (TAB_IDS as readonly string[]).includes(s.tab) ? (s.tab as PanelState['tab']) : undefined,
  };
}
