/**
 * Sends a request file: resolves it once — the request as validated, the environment as the
 * file's own workspace folder defines it, its key — runs core's send with a cancellable
 * progress, judges the exchange once against the file's `expect` as it was sent (core's
 * judgeSentFile, through sendFileUntil), then keeps that exchange (already redacted by core) in
 * history and shows it beside the editor that sent it (resultsColumn.ts). A file with `retry`
 * is sent until its `until` holds (docs/request-files.md#retry): each attempt kept and shown,
 * the wait said in the progress, Cancel ending it at once.
 */
import * as vscode from 'vscode';
import type { Binding, Environment } from '../../core';
import { exchangeTitle, keyDestination } from '../coreLight';
import { readSettings } from '../config';
import { setContext } from '../contextKeys';
import { sendableRequestOf, sendJudged, validateRequestText, type SendInput } from '../core-adapter';
import type { EnvironmentStore } from '../environments/environmentStore';
import type { HistoryStore } from '../history/historyStore';
import type { Log } from '../log';
import type { ResultsPanel } from '../panel/resultsPanel';
import { explainRestricted, mayReach } from '../restrictedMode';
import type { SandboxController } from '../sandbox/sandboxController';
import type { ApiKeys } from '../secrets/apiKeys';
import { resultsColumnFor } from './resultsColumn';

export interface SendOptions {
  /** Overrides the file's binding. */
  readonly binding?: Binding;
  /** The user chose "Send anyway" on a file whose errors are all in values. */
  readonly anyway?: boolean;
}

export class SendController implements vscode.Disposable {
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly environments: EnvironmentStore,
    private readonly keys: ApiKeys,
    private readonly sandbox: SandboxController,
    private readonly history: HistoryStore,
    private readonly panel: ResultsPanel,
    private readonly log: Log,
  ) {}

  async send(doc: vscode.TextDocument, options: SendOptions = {}): Promise<void> {
    const text = doc.getText();
    const fileName = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
    const anyway = options.anyway || (await this.confirmAnyway(text, fileName));
    if (anyway === undefined) return;
    // Throws the file's findings (an engine error with code 'request-file') when nothing can be sent.
    const request = sendableRequestOf(text, fileName, anyway);
    const resolved = this.environments.resolve(doc.uri, request.environment);
    if (typeof resolved === 'string') {
      void vscode.window.showErrorMessage(`Carrier: ${resolved}`);
      return;
    }
    const { environment } = resolved;
    const credentials = await this.keyFor(environment);
    if (credentials === null) return;
    const settings = readSettings(doc.uri);
    const input: SendInput = {
      request,
      fileName,
      environment,
      apiKey: credentials.key,
      withoutKey: credentials.withoutKey,
      binding: options.binding,
      defaultBinding: settings.defaultBinding,
      asWritten: anyway,
      timeoutMs: settings.timeoutMs,
      maxReplyBytes: settings.maxReplyBytes,
      // Core asks for the embedded sandbox only when the environment is it: started on demand.
      resolveEmbedded: () => this.sandbox.start(environment),
    };
    const abort = new AbortController();
    this.inFlight.add(abort);
    setContext('carrier.sending', true);
    try {
      // Every attempt of a file that waits (`retry`) is kept and shown as it comes; the last is
      // shown below, after the log line. History gets each attempt once.
      const kept = new Set<string>();
      const viewColumn = resultsColumnFor(doc);
      const exchange = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Carrier: sending ${vscode.workspace.asRelativePath(doc.uri)} to ${environment.name}`,
          cancellable: true,
        },
        (progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          // Judged once, in core: the file's expect as it was sent (`text`, read before sending,
          // not the editor's text now), on the last attempt. History and the panel show this judgement.
          return sendJudged(input, { text, environment }, abort.signal, {
            onAttempt: async (x) => {
              if (!x.attempt || x.attempt.last) return;
              await this.panel.show(x, { viewColumn });
              await this.history.add(x);
              kept.add(x.id);
            },
            onWait: ({ attempt, of, delayMs }) =>
              progress.report({
                message: `attempt ${attempt - 1} of ${of}: retry.until has not held; waiting ${(delayMs / 1000).toFixed(1)} s before attempt ${attempt}…`,
              }),
          });
        },
      );
      this.log.info(
        `${exchangeTitle(exchange)} → ${exchange.error ? `${exchange.error.kind}: ${exchange.error.message}` : `HTTP ${exchange.reply?.status}`}${exchange.timing ? ` in ${Math.round(exchange.timing.totalMs)} ms` : ''}${exchange.attempt ? ` (attempt ${exchange.attempt.number} of ${exchange.attempt.of}${exchange.attempt.heldAt !== undefined ? ', retry.until held' : ''})` : ''} (${environment.name}${resolved.folder ? `, ${vscode.workspace.asRelativePath(vscode.Uri.file(resolved.folder), true)}` : ''})`,
      );
      // The status first: beside the editor that sent, so the panel never covers the file it
      // answers; History's writing (a large body to its file) after it is on screen.
      await this.panel.show(exchange, { viewColumn });
      if (!kept.has(exchange.id)) await this.history.add(exchange);
    } finally {
      this.inFlight.delete(abort);
      setContext('carrier.sending', this.inFlight.size > 0);
    }
  }

  /**
   * A send from the palette or a key binding on a file with errors in values only: ask before
   * sending it as written. False (nothing asked) when the file has no errors or other errors;
   * undefined when the user declined.
   */
  private async confirmAnyway(text: string, fileName: string): Promise<boolean | undefined> {
    const result = validateRequestText(text, fileName);
    if (result.sendable !== 'anyway') return false;
    const errors = result.findings.filter((f) => f.severity === 'error');
    const choice = await vscode.window.showWarningMessage(
      `Carrier: the request file has ${errors.length === 1 ? 'an error' : `${errors.length} errors`} in its values (${errors[0].message}). Send it as written?`,
      'Send Anyway',
      'Show Problems',
    );
    if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
    return choice === 'Send Anyway' ? true : undefined;
  }

  cancelAll(): void {
    for (const a of this.inFlight) a.abort();
  }

  /**
   * The key for `env` as it is defined now: `key` undefined and `withoutKey` true to send with an
   * empty APIKey, null when the user backed out. A key goes only to the destination it was stored
   * for (core's keyDestination); another one is asked about first, naming both. In Restricted
   * Mode no key leaves and nothing is sent to a repository-defined address.
   */
  private async keyFor(env: Environment): Promise<{ key?: string; withoutKey?: boolean } | null> {
    const to = keyDestination(env);
    if (env.embedded) return { key: (await this.keys.lookup(env.name, to)).key };
    if (!mayReach(env)) {
      await explainRestricted(
        `Carrier: "${env.name}" is defined by this workspace, which is in Restricted Mode: requests to ${to.label} (and any stored API key) are not sent until you trust it. The sandbox works as usual.`,
      );
      return null;
    }
    const found = await this.keys.lookup(env.name, to);
    if (found.key !== undefined) return { key: found.key };
    if (found.elsewhere) {
      const choice = await vscode.window.showWarningMessage(
        `Carrier: "${env.name}" now points at ${to.label}, but its API key was stored for ${found.elsewhere.label}. Send the key to ${to.label}? (A workspace can define an environment of the same name elsewhere; nothing is sent until you choose.)`,
        'Send Key There',
        'Send Without Key',
      );
      if (choice === 'Send Without Key') return { withoutKey: true };
      if (choice !== 'Send Key There') return null;
      await this.keys.set(env.name, to, found.elsewhere.key);
      return { key: found.elsewhere.key };
    }
    const choice = await vscode.window.showWarningMessage(`Carrier: no API key is stored for "${env.name}" (${to.label}).`, 'Set API Key', 'Send Without Key');
    if (choice === 'Send Without Key') return { withoutKey: true };
    if (choice === 'Set API Key') {
      await vscode.commands.executeCommand('carrier.setApiKey', env.name, to);
      const key = (await this.keys.lookup(env.name, to)).key;
      return key === undefined ? null : { key };
    }
    return null;
  }

  dispose(): void {
    this.cancelAll();
  }
}
