/**
 * Where the results panel goes when a request file is sent: beside the editor that sent it,
 * never over it. The panel stays in its group while that is another group than the sender's; when
 * the sender sits in the panel's own group (a file opened while that group had the focus), the
 * panel moves to the nearest other group, or to a new one beside the sender.
 */
import * as vscode from 'vscode';
import { RESULTS_VIEW_TYPE } from '../../webview/protocol';

function isResultsTab(tab: vscode.Tab): boolean {
  // Webview tabs carry the panel's view type with a prefix of VS Code's own.
  return tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(RESULTS_VIEW_TYPE);
}

/** The column for ResultsPanel.show; undefined when the file is in no editor (sent from History, say). */
export function resultsColumnFor(doc: vscode.TextDocument): vscode.ViewColumn | undefined {
  const active = vscode.window.activeTextEditor;
  const sender = active?.document === doc ? active : vscode.window.visibleTextEditors.find((e) => e.document === doc);
  const column = sender?.viewColumn;
  if (column === undefined) return undefined;
  const groups = vscode.window.tabGroups.all;
  const panelGroup = groups.find((g) => g.tabs.some(isResultsTab));
  if (panelGroup && panelGroup.viewColumn !== column) return panelGroup.viewColumn;
  const others = groups.map((g) => g.viewColumn).filter((c) => c !== column);
  const right = others.filter((c) => c > column).sort((a, b) => a - b)[0];
  const left = others.filter((c) => c < column).sort((a, b) => b - a)[0];
  if (right !== undefined) return right;
  if (left !== undefined) return left;
  // Beside is counted from the active group; a sender that is not active gets the next column.
  return sender === active ? vscode.ViewColumn.Beside : ((column + 1) as vscode.ViewColumn);
}
