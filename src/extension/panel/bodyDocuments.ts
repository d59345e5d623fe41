/**
 * Reply bodies as read-only virtual documents (`carrier-body:/<exchange id>/reply.xml`): the
 * full body, not the webview's capped copy, in a real editor with search and folding; never
 * dirty, so closing it asks nothing, and Save As still works.
 */
import * as vscode from 'vscode';
import type { HistoryStore } from '../history/historyStore';

export const BODY_SCHEME = 'carrier-body';

export function bodyUri(exchangeId: string, extension: string): vscode.Uri {
  return vscode.Uri.from({ scheme: BODY_SCHEME, path: `/${exchangeId}/reply.${extension}` });
}

export function registerBodyDocuments(history: HistoryStore): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(BODY_SCHEME, {
    provideTextDocumentContent: async (uri) => {
      const id = uri.path.split('/')[1] ?? '';
      return (await history.fullBody(id))?.text ?? '(This reply body is no longer available.)';
    },
  });
}
