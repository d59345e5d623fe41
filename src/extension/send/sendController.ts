/**
 * Sends a request file: picks the environment and its key, runs core's send with a cancellable
 * progress, then keeps the (redacted, scrubbed) exchange in history and shows it.
 */
import * as vscode from 'vscode';
import type { Binding } from '../../core/catalog/types';
import { readSettings } from '../config';
import { setContext } from '../contextKeys';
import { sendRequestFile, validateRequestText, type EnvironmentDef, type SendInput } from '../core-adapter';
import type { EnvironmentStore } from '../environments/environmentStore';
import { titleOf } from '../history/historyEntry';
import type { HistoryStore } from '../history/historyStore';
import { scrubSecrets } from '../history/scrubSecrets';
import type { Log } from '../log';
import type { ResultsPanel } from '../panel/resultsPanel';
import type { SandboxController } from '../sandbox/sandboxController';
import type { ApiKeys } from '../secrets/apiKeys';
import { workspaceFolderOf } from './targetDocument';

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
    const text = doc.getText();
    const fileName = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
    const environment = this.environmentFor(text, fileName);
    if (!environment) return;
    const apiKey = await this.keyFor(environment);
    if (apiKey === null) return;
    const settings = readSettings(doc.uri);
    const input: SendInput = {
      text,
      fileName,
      workspaceFolder: workspaceFolderOf(doc.uri),
      environment,
      apiKey,
      binding,
      defaultBinding: settings.defaultBinding,
      timeoutMs: settings.timeoutMs,
      maxReplyBytes: settings.maxReplyBytes,
      // Core asks for the embedded sandbox only when the environment is it: started on demand.
      resolveEmbedded: () => this.sandbox.start(),
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

  /** The environment the file names, else the selected one. */
  private environmentFor(text: string, fileName: string): EnvironmentDef | undefined {
    const named = validateRequestText(text, fileName).request?.environment;
    if (!named) return this.environments.selected();
    const env = this.environments.all().find((e) => e.name === named);
    if (!env) void vscode.window.showErrorMessage(`Carrier: the request names environment "${named}", which carrier.environments.json does not define.`);
    return env;
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
