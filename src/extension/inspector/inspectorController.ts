/**
 * The traffic inspector's lifetime in VS Code: started on request in front of the selected
 * environment (the embedded sandbox is started for it when that is the target), stopped on
 * request or when the extension deactivates. Keeps the recorded exchanges of this window, newest
 * first, for the Traffic Inspector view.
 */
import * as vscode from 'vscode';
import { setContext } from '../contextKeys';
import { startTrafficInspector, type InspectorHandle, type RecordedExchange } from '../core-adapter';
import type { EnvironmentStore } from '../environments/environmentStore';
import type { Log } from '../log';
import type { SandboxController } from '../sandbox/sandboxController';
import type { ApiKeys } from '../secrets/apiKeys';
import type { ExchangeStore } from '../../inspector';
import { engine } from '../engineBundle';
import { mayReach } from '../restrictedMode';

/** More than anyone scrolls through; the oldest go first, and sooner when they are large (by bytes, as the inspector keeps them). */
const KEEP = 500;

export class InspectorController implements vscode.Disposable {
  private handle: InspectorHandle | undefined;
  private starting: Promise<InspectorHandle> | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Made with the first recorded exchange: the inspector's store comes through the engine. */
  private store: ExchangeStore | undefined;
  /** Newest first, as the view lists them. */
  private recorded: RecordedExchange[] = [];
  private environmentName: string | undefined;
  private readonly stateChanged = new vscode.EventEmitter<void>();
  private readonly listChanged = new vscode.EventEmitter<void>();
  /** Started or stopped. */
  readonly onDidChangeState = this.stateChanged.event;
  /** An exchange was recorded, or the list was cleared. */
  readonly onDidChangeExchanges = this.listChanged.event;

  constructor(
    private readonly environments: EnvironmentStore,
    private readonly keys: ApiKeys,
    private readonly sandbox: SandboxController,
    private readonly log: Log,
  ) {}

  get url(): string | undefined {
    return this.handle?.url;
  }

  get target(): string | undefined {
    return this.handle?.target;
  }

  get environment(): string | undefined {
    return this.handle ? this.environmentName : undefined;
  }

  exchanges(): readonly RecordedExchange[] {
    return this.recorded;
  }

  find(id: string): RecordedExchange | undefined {
    return this.recorded.find((r) => r.exchange.id === id);
  }

  async start(): Promise<string> {
    if (this.handle) return this.handle.url;
    this.starting ??= this.open();
    try {
      this.handle = await this.starting;
    } finally {
      this.starting = undefined;
    }
    this.unsubscribe = this.handle.onExchange((r) => this.add(r));
    setContext('carrier.inspectorRunning', true);
    this.log.info(`traffic inspector listening on ${this.handle.url}, forwarding to ${this.handle.target}`);
    this.stateChanged.fire();
    return this.handle.url;
  }

  private async open(): Promise<InspectorHandle> {
    const env = this.environments.selectedEnvironment();
    // Traffic to a repository-defined address, and files it names (TLS), wait for trust.
    if (!mayReach(env))
      throw new Error(
        `the workspace is in Restricted Mode: the inspector forwards only to the embedded sandbox until you trust it ("${env.name}" is defined by the workspace)`,
      );
    const targetUrl = env.embedded ? await this.sandbox.start(env) : env.baseUrl;
    if (!targetUrl) throw new Error(`Environment "${env.name}" has no base URL to forward to`);
    this.environmentName = env.name;
    return startTrafficInspector({
      environment: env,
      targetUrl,
      // Values to hide in what is recorded, whatever address they were stored for; none is sent.
      secrets: await this.keys.values(env.name),
      log: (line) => this.log.warn(`traffic inspector: ${line}`),
    });
  }

  async stop(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    this.handle = undefined;
    setContext('carrier.inspectorRunning', false);
    this.stateChanged.fire();
    await handle.close();
    // Exchanges that finished while closing are still shown; nothing arrives after this.
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.log.info('traffic inspector stopped');
  }

  clear(): void {
    this.store?.clear();
    this.recorded = [];
    this.listChanged.fire();
  }

  private add(r: RecordedExchange): void {
    const { ExchangeStore, DEFAULT_KEEP_BYTES } = engine();
    this.store ??= new ExchangeStore(KEEP, DEFAULT_KEEP_BYTES);
    this.store.add(r);
    this.recorded = this.store.list().reverse();
    this.listChanged.fire();
  }

  dispose(): void {
    void this.stop();
    this.stateChanged.dispose();
    this.listChanged.dispose();
  }
}
