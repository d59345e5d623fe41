/** Send, Send with Binding…, Cancel Send, Show Envelope, Copy as curl. */
import * as vscode from 'vscode';
import type { Binding } from '../../core';
import { engine } from '../engineBundle';
import { readSettings } from '../config';
import { listShapes, previewRequest, sendableRequestOf, validateRequestText } from '../core-adapter';
import type { SandboxController } from '../sandbox/sandboxController';
import type { EnvironmentStore } from '../environments/environmentStore';
import { guarded } from '../errors';
import type { Log } from '../log';
import { curlWithKeyVariable } from '../curl';
import { ENVELOPE_SCHEME, EnvelopeDocuments } from './envelopeDocuments';
import type { SendController } from './sendController';
import { targetDocument } from './targetDocument';

export function registerSendCommands(controller: SendController, environments: EnvironmentStore, sandbox: SandboxController, log: Log): vscode.Disposable[] {
  /** The request as Send would make it (value errors shown as written), redacted. */
  const preview = (doc: vscode.TextDocument) => {
    const fileName = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
    const request = sendableRequestOf(doc.getText(), fileName, true);
    const resolved = environments.resolve(doc.uri, request.environment);
    if (typeof resolved === 'string') throw new Error(resolved);
    return previewRequest({
      request,
      fileName,
      environment: resolved.environment,
      defaultBinding: readSettings(doc.uri).defaultBinding,
      asWritten: true,
      sandboxUrl: environments.sessionUrl(resolved.environment.name) ?? sandbox.url,
    });
  };
  const envelopes = new EnvelopeDocuments();
  return [
    envelopes,
    vscode.workspace.registerTextDocumentContentProvider(ENVELOPE_SCHEME, envelopes),
    vscode.commands.registerCommand(
      'carrier.send',
      guarded(log, 'Send', async (arg?: unknown) => {
        const doc = await targetDocument(arg);
        if (doc) await controller.send(doc);
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.sendWithBinding',
      guarded(log, 'Send with Binding', async (arg?: unknown, given?: unknown, anyway?: unknown, offer?: unknown) => {
        const doc = await targetDocument(arg);
        if (!doc) return;
        // The CodeLens names its binding (and says "Send anyway" on a file with value errors); the
        // command palette asks, and the "Send with…" lens asks among the bindings it names.
        const only = Array.isArray(offer) ? offer.filter(isBinding) : undefined;
        const binding = isBinding(given) ? given : await pickBinding(doc, readSettings(doc.uri).defaultBinding, only);
        if (binding) await controller.send(doc, { binding, anyway: anyway === true });
      }),
    ),
    vscode.commands.registerCommand('carrier.cancelSend', () => controller.cancelAll()),
    vscode.commands.registerCommand(
      'carrier.showEnvelope',
      guarded(log, 'Show Envelope', async (arg?: unknown) => {
        const doc = await targetDocument(arg);
        if (!doc) return;
        const request = preview(doc);
        // SOAP and form bodies read best as themselves; a GET has only its URL.
        const xml = request.body.trimStart().startsWith('<');
        const content = xml ? request.body : `${request.method} ${request.url}\n${request.body ? `\n${request.body}\n` : ''}`;
        // Read-only, as a reply body is: nothing to save, whichever the binding.
        const shown = await vscode.workspace.openTextDocument(envelopes.set(doc.uri, content, xml));
        await vscode.window.showTextDocument(shown, { viewColumn: vscode.ViewColumn.Beside, preview: true });
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.copyAsCurl',
      guarded(log, 'Copy as curl', async (arg?: unknown) => {
        const doc = await targetDocument(arg);
        if (!doc) return;
        await vscode.env.clipboard.writeText(curlWithKeyVariable(preview(doc)));
        vscode.window.setStatusBarMessage('$(copy) Copied as curl (the API key is read from $CARRIER_API_KEY)', 4000);
      }),
    ),
  ];
}

/**
 * Offers only the bindings the file's operation has, when core can tell which operation that is,
 * and of those only `only` when given (the lens's other bindings).
 */
async function pickBinding(doc: vscode.TextDocument, defaultBinding: Binding, only?: readonly Binding[]): Promise<Binding | undefined> {
  const request = validateRequestText(doc.getText(), doc.uri.fsPath)?.request;
  const shape = request?.operation
    ? listShapes().find((s) => s.operation === request.operation && (!request.version || s.version === request.version))
    : undefined;
  const { ALL_BINDINGS, BINDING_LABELS } = engine();
  const offered = (shape ? shape.bindings : ALL_BINDINGS).filter((b) => !only?.length || only.includes(b));
  const items = offered.map((b) => ({ label: BINDING_LABELS[b], description: b === defaultBinding ? 'default' : undefined, binding: b }));
  const pick = await vscode.window.showQuickPick(items, { title: 'Carrier: Send with Binding', placeHolder: shape ? `Bindings of ${shape.label}` : 'Binding' });
  return pick?.binding;
}

function isBinding(value: unknown): value is Binding {
  return typeof value === 'string' && (engine().ALL_BINDINGS as readonly string[]).includes(value);
}
