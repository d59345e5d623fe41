/**
 * Above a request file: a Send for each binding its operation offers, Show Envelope and Copy as
 * curl — or, when the file has errors, what is wrong first, so nobody sends a request that cannot
 * be built. Off with carrier.codeLens.enabled.
 */
import * as vscode from 'vscode';
import { BINDING_LABELS } from '../../core';
import { readSettings } from '../config';
import { validateRequestText, type ValidationResult } from '../core-adapter';
import { REQUEST_LANGUAGE } from '../send/targetDocument';

/** The lenses for one validation result; pure, so the host suite can check them per file. */
export function requestLenses(uri: vscode.Uri, result: ValidationResult): vscode.Command[] {
  const errors = result.findings.filter((f) => f.severity === 'error');
  const lenses: vscode.Command[] = [];
  if (errors.length) {
    lenses.push({
      title: `$(error) ${errors.length === 1 ? errors[0].message : `${errors.length} problems — ${errors[0].message}`}`,
      command: 'workbench.actions.view.problems',
      tooltip: 'Open the Problems view',
    });
  }
  const request = result.request;
  // Core builds a file with errors only when they are all in values (a wrong enumeration, a bad
  // number): sending it anyway is how a negative case is tried against the service. Anything
  // else (an unknown field, a syntax error) leaves nothing faithful to send.
  if (!request || result.sendable === 'none') return lenses;
  const anyway = result.sendable === 'anyway';
  for (const binding of request.bindings ?? [request.binding ?? 'soap11']) {
    lenses.push({
      title: `$(play) ${anyway ? 'Send anyway' : 'Send'} ${BINDING_LABELS[binding]}`,
      command: 'carrier.sendWithBinding',
      arguments: [uri, binding, anyway],
      tooltip: `Send over ${BINDING_LABELS[binding]} to the selected environment${binding === request.binding ? ' (the file\'s binding)' : ''}`,
    });
  }
  lenses.push({ title: 'Show Envelope', command: 'carrier.showEnvelope', arguments: [uri] });
  lenses.push({ title: 'Copy as curl', command: 'carrier.copyAsCurl', arguments: [uri] });
  return lenses;
}

class RequestCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!readSettings(doc.uri).codeLensEnabled) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return requestLenses(doc.uri, validateRequestText(doc.getText(), doc.uri.fsPath)).map((c) => new vscode.CodeLens(top, c));
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
