/**
 * Show Envelope's documents as read-only virtual documents (`carrier-envelope:/<file>/<name>`):
 * the request as it would go, never dirty, so closing one asks nothing (an untitled document
 * asked to be saved), and Save As still works. One per request file and form, shown again in place.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';

export const ENVELOPE_SCHEME = 'carrier-envelope';

export class EnvelopeDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '(This envelope is no longer available: show it again from its request file.)';
  }

  /**
   * The document for `source`'s envelope holding `text`: `.xml` for a SOAP envelope, `.txt` for an
   * HTTP GET or POST request (its method, URL and form), so each opens in its language.
   */
  set(source: vscode.Uri, text: string, xml: boolean): vscode.Uri {
    const base = path.posix.basename(source.path).replace(/\.carrier\.json$/, '');
    // The source's path keeps two files of the same name apart; the name is what the tab shows.
    const uri = vscode.Uri.from({ scheme: ENVELOPE_SCHEME, path: `${source.path}/${base}.${xml ? 'envelope.xml' : 'request.txt'}` });
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
