/**
 * Problems in request files, from core's validator (through the adapter): the only ones a
 * request file gets, since VS Code's JSON service is asked for completion and hovers but never
 * to validate (jsonService.ts). Each carries the `carrier` source and a code. Re-validates on
 * edit after a short pause, so typing stays smooth on large files.
 */
import * as vscode from 'vscode';
import { forgetValidations, validateRequestText, type RequestFinding } from '../core-adapter';
import { REQUEST_LANGUAGE } from '../send/targetDocument';
import { editorFindings, FALLBACK_CODE } from './findings';

const DEBOUNCE_MS = 250;
export const SOURCE = 'carrier';
const SEVERITY: Record<RequestFinding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** `revalidate` fires when files mean something else with the same text (a live contract stored, another environment selected). */
export function registerDiagnostics(revalidate?: vscode.Event<unknown>): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('carrier');
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  const validate = (doc: vscode.TextDocument): void => {
    if (doc.languageId !== REQUEST_LANGUAGE) return;
    const result = validateRequestText(doc.getText(), doc.uri.fsPath);
    collection.set(
      doc.uri,
      editorFindings(result.findings).map((f) => {
        const d = new vscode.Diagnostic(
          new vscode.Range(f.range.start.line, f.range.start.character, f.range.end.line, f.range.end.character),
          f.message,
          SEVERITY[f.severity],
        );
        d.source = SOURCE;
        d.code = f.code || FALLBACK_CODE;
        return d;
      }),
    );
  };
  const schedule = (doc: vscode.TextDocument): void => {
    const key = doc.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        validate(doc);
      }, DEBOUNCE_MS),
    );
  };

  vscode.workspace.textDocuments.forEach(validate);
  return vscode.Disposable.from(
    collection,
    vscode.workspace.onDidOpenTextDocument(validate),
    vscode.workspace.onDidChangeTextDocument((e) => schedule(e.document)),
    revalidate?.(() => {
      forgetValidations();
      vscode.workspace.textDocuments.forEach(validate);
    }) ?? { dispose: () => undefined },
    vscode.workspace.onDidCloseTextDocument((doc) => {
      clearTimeout(timers.get(doc.uri.toString()));
      collection.delete(doc.uri);
    }),
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
  );
}
