/**
 * What `activate` returns: a small surface for other extensions and for the extension-host
 * tests. It can show an exchange and report what the panel rendered; it can tell whether a key
 * exists, never what it is.
 */
import type * as vscode from 'vscode';
import type { Exchange } from '../core';
import type { RenderReport } from '../webview/protocol';
import type { HistoryStore } from './history/historyStore';
import type { InspectorRow } from './inspector/inspectorCommands';
import type { ResultsPanel } from './panel/resultsPanel';
import type { ApiKeys } from './secrets/apiKeys';
import type { TestHooks } from './testing/testHooks';

export interface CarrierApi {
  showExchange(exchange: Exchange): Promise<void>;
  readonly onDidRenderResults: vscode.Event<RenderReport>;
  hasApiKey(environment: string): Promise<boolean>;
  historyIds(): string[];
  /** Where the extension writes, so tests can check that no secret ever lands there. */
  readonly storage: { readonly workspace?: vscode.Uri; readonly global: vscode.Uri; readonly log: vscode.Uri };
  /**
   * What no VS Code API reads back: the Test Explorer's items and runs, the Traffic Inspector
   * view's rows, and an exchange of History as it was kept (its request as sent, the key
   * masked). The extension-host tests register their own commands over these
   * (test/vscode/support/testCommands.ts); the product registers none.
   */
  readonly testing: TestHooks & { inspectorRows(): InspectorRow[]; historyExchange(id: string): Promise<Exchange | undefined> };
}

export function createApi(
  context: vscode.ExtensionContext,
  panel: ResultsPanel,
  history: HistoryStore,
  keys: ApiKeys,
  testing: Omit<CarrierApi['testing'], 'historyExchange'>,
): CarrierApi {
  return {
    showExchange: async (exchange) => {
      await history.add(exchange);
      await panel.show(exchange, { preserveFocus: false });
    },
    onDidRenderResults: panel.onDidRender,
    hasApiKey: (environment) => keys.has(environment),
    historyIds: () => history.entries().map((e) => e.id),
    storage: { workspace: context.storageUri, global: context.globalStorageUri, log: context.logUri },
    testing: { ...testing, historyExchange: async (id) => (await history.get(id))?.exchange },
  };
}
