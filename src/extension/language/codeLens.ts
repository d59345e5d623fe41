/**
 * At most three short lenses above a request file, so they fit beside the results panel: Send
 * over the file's binding, Send with… for the operation's other bindings, and Envelope. When the
 * file has errors there are two: what is wrong in a few words (the full message is in the
 * diagnostic and the lens's tooltip), then Send anyway where the errors are all in values. Copy
 * as curl, Send with Binding… and Show Envelope are also in the editor title's menu and the
 * Command Palette. Off with carrier.codeLens.enabled.
 */
import * as vscode from 'vscode';
import type { Binding } from '../../core';
import { engine } from '../engineBundle';
import { readSettings } from '../config';
import { validateRequestText, type ValidationResult } from '../core-adapter';
import { REQUEST_LANGUAGE } from '../send/targetDocument';
import { editorFindings, shortProblem } from './findings';

export const MAX_LENSES = 3;

/** The binding a plain Send uses: the file's own, else the default setting where the operation offers it. */
export function primaryBinding(request: NonNullable<ValidationResult['request']>, defaultBinding: Binding): Binding {
  const offered = request.bindings ?? [];
  if (request.bindingGiven && request.binding) return request.binding;
  if (!offered.length || offered.includes(defaultBinding)) return defaultBinding;
  return offered[0];
}

/** The lenses for one validation result; pure, so the host suite can check them per file. */
export function requestLenses(uri: vscode.Uri, result: ValidationResult, defaultBinding: Binding = 'soap11'): vscode.Command[] {
  const errors = editorFindings(result.findings).filter((f) => f.severity === 'error');
  const lenses: vscode.Command[] = [];
  if (errors.length) {
    lenses.push({
      title: `$(error) ${shortProblem(errors[0])}${errors.length > 1 ? ` (+${errors.length - 1})` : ''}`,
      command: 'workbench.actions.view.problems',
      tooltip: `${errors[0].message}${errors.length > 1 ? `\n\n${errors.length - 1} more in the Problems view` : ''}`,
    });
  }
  const request = result.request;
  // Core builds a file with errors only when they are all in values (a wrong enumeration, a bad
  // number): sending it anyway is how a negative case is tried against the service. Anything
  // else (an unknown field, a syntax error) leaves nothing faithful to send.
  if (!request || result.sendable === 'none') return lenses;
  const anyway = result.sendable === 'anyway';
  const binding = primaryBinding(request, defaultBinding);
  // A file that waits says so: one click may send it many times (docs/request-files.md#retry).
  const waits = request.retry;
  lenses.push({
    // Short, as every lens is (test/vscode/codelens.test.ts): what `until` checks is in the tooltip.
    title: `$(play) ${anyway ? 'Send anyway' : 'Send'} ${engine().BINDING_LABELS[binding]}${waits ? (anyway ? ' (waits)' : ` (waits, up to ${waits.attempts})`) : ''}`,
    command: 'carrier.sendWithBinding',
    arguments: [uri, binding, anyway],
    tooltip: `Send over ${engine().BINDING_LABELS[binding]} to the environment${anyway ? ', the wrong values as written' : ''}${waits ? `, again and again until ${waits.until} holds (at most ${waits.attempts} attempts)` : ''}`,
  });
  // Beside the open panel an editor has room for about sixty characters of lenses: with an
  // error lens first, the send that is possible is all that follows (Envelope is in the title bar).
  if (errors.length) return lenses;
  const others = (request.bindings ?? []).filter((b) => b !== binding);
  if (others.length) {
    lenses.push({
      title: 'Send with…',
      command: 'carrier.sendWithBinding',
      arguments: [uri, undefined, anyway, others],
      tooltip: `Send over ${others.map((b) => engine().BINDING_LABELS[b]).join(', ')}`,
    });
  }
  lenses.push({ title: 'Envelope', command: 'carrier.showEnvelope', arguments: [uri], tooltip: 'Show the request as it goes on the wire, the API key masked' });
  return lenses.slice(0, MAX_LENSES);
}

class RequestCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const settings = readSettings(doc.uri);
    if (!settings.codeLensEnabled) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return requestLenses(doc.uri, validateRequestText(doc.getText(), doc.uri.fsPath), settings.defaultBinding).map((c) => new vscode.CodeLens(top, c));
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
      if (e.affectsConfiguration('carrier.codeLens.enabled') || e.affectsConfiguration('carrier.defaultBinding')) provider.refresh();
    }),
  );
}
