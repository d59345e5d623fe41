/**
 * Sends a request file: picks the environment and its key, runs core's send with a cancellable
 * progress, then keeps the (redacted, scrubbed) exchange in history and shows it.
 */
import * as vscode from 'vscode';
import type { Binding } from '../../core/catalog/types';
import { readSettings } from '../config';
import { setContext } from '../contextKeys';
import { sendRequestFile, type EnvironmentDef, type SendInput } from '../core-adapter';
import type { EnvironmentStore } from '../environments/environmentStore';
import { titleOf } from '../history/historyEntry';
import type { HistoryStore } from '../history/historyStore';
import { scrubSecrets } from '../history/scrubSecrets';
import type { Log } from '../log';
import type { ResultsPanel } from '../panel/resultsPanel';
import type { SandboxController } from '../sandbox/sandboxController';
import type { ApiKeys } from '../secrets/apiKeys';

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

  async send(doc: vscode.TextDocument, binding?: Binding): Promise<void> {
    const environment = await this.readyEnvironment();
    if (!environment) return;
    const apiKey = await this.keyFor(environment);
    if (apiKey === null) return;
    const settings = readSettings(doc.uri);
    const input: SendInput = {
      text: doc.getText(),
      fileName: doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString(),
      environment,
      apiKey,
      binding,
      defaultBinding: settings.defaultBinding,
      timeoutMs: settings.timeoutMs,
      maxReplyBytes: settings.maxReplyBytes,
    };
    const abort = new AbortController();
    this.inFlight.add(abort);
    setContext('carrier.sending', true);
    try {
      const exchange = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Carrier: sending ${vscode.workspace.asRelativePath(doc.uri)} to ${environment.name}`, cancellable: true },
        (_progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          return sendRequestFile(input, abort.signal);
        },
      );
      const safe = scrubSecrets(exchange, apiKey ? [apiKey] : []);
      this.log.info(`${titleOf(safe)} → ${safe.error ? `${safe.error.kind}: ${safe.error.message}` : `HTTP ${safe.reply?.status}`}${safe.timing ? ` in ${Math.round(safe.timing.totalMs)} ms` : ''} (${environment.name})`);
      await this.history.add(safe);
      await this.panel.show(safe);
    } finally {
      this.inFlight.delete(abort);
      setContext('carrier.sending', this.inFlight.size > 0);
    }
  }

  cancelAll(): void {
    for (const a of this.inFlight) a.abort();
  }

  /** The selected environment, with the embedded sandbox started on demand. */
  private async readyEnvironment(): Promise<EnvironmentDef | undefined> {
    const env = this.environments.selected();
    if (!env.embeddedSandbox || env.baseUrl) return env;
    const start = await vscode.window.showInformationMessage(`Carrier: the embedded sandbox is not running.`, 'Start Sandbox and Send');
    if (start !== 'Start Sandbox and Send') return undefined;
    await this.sandbox.start();
    return this.environments.selected();
  }

  /** The key, undefined to send without one, or null when the user backed out. */
  private async keyFor(env: EnvironmentDef): Promise<string | undefined | null> {
    const key = await this.keys.get(env.name);
    if (key !== undefined || env.embeddedSandbox) return key;
    const choice = await vscode.window.showWarningMessage(`Carrier: no API key is stored for "${env.name}".`, 'Set API Key', 'Send Without Key');
    if (choice === 'Send Without Key') return undefined;
    if (choice === 'Set API Key') {
      await vscode.commands.executeCommand('carrier.setApiKey', env.name);
      return (await this.keys.get(env.name)) ?? null;
    }
    return null;
  }

  dispose(): void {
    this.cancelAll();
  }
}
