/** The status-bar item of a running traffic inspector: its URL; a click offers copy and stop. */
import * as vscode from 'vscode';
import type { InspectorController } from './inspectorController';

export function createInspectorStatus(inspector: InspectorController): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('carrier.inspector', vscode.StatusBarAlignment.Left, 49);
  item.name = 'Carrier Traffic Inspector';
  item.command = 'carrier.inspector.menu';

  const refresh = (): void => {
    const url = inspector.url;
    if (!url) {
      item.hide();
      return;
    }
    item.text = `$(radio-tower) ${url.replace(/^http:\/\//, '')}`;
    item.tooltip = new vscode.MarkdownString(
      `**Carrier traffic inspector** on \`${url}\`\n\nPoint your program at this URL instead of the service; it forwards to \`${inspector.target}\` and lists each exchange in the Traffic Inspector view. Click to copy the URL or stop.`,
    );
    item.accessibilityInformation = { label: `Carrier traffic inspector listening on ${url}` };
    item.show();
  };
  refresh();
  return vscode.Disposable.from(item, inspector.onDidChangeState(refresh));
}
