/** "Send · Send with Binding… · Show Envelope" above a request file, unless carrier.codeLens.enabled is off. */
import * as vscode from 'vscode';
import { readSettings } from '../config';
import { REQUEST_LANGUAGE } from '../send/targetDocument';

class RequestCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!readSettings(doc.uri).codeLensEnabled) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, { title: '$(play) Send', command: 'carrier.send', arguments: [doc.uri], tooltip: 'Send this request to the selected environment' }),
      new vscode.CodeLens(top, { title: 'Send with Binding…', command: 'carrier.sendWithBinding', arguments: [doc.uri] }),
      new vscode.CodeLens(top, { title: 'Show Envelope', command: 'carrier.showEnvelope', arguments: [doc.uri] }),
    ];
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerCodeLens(): vscode.Disposable {
  const provider = new RequestCodeLensProvider();
  return vscode.Disposable.from(
    provider,
    vscode.languages.registerCodeLensProvider({ language: REQUEST_LANGUAGE }, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('carrier.codeLens.enabled')) provider.refresh();
    }),
  );
}
