/**
 * The embedded sandbox's lifetime: started on request on a free loopback port, stopped on
 * request or when the extension deactivates. Its URL becomes the "sandbox" environment's.
 */
import * as vscode from 'vscode';
import type { Environment } from '../../core';
import { setContext } from '../contextKeys';
import { embeddedSandboxKey } from '../coreLight';
import { startSandbox, type SandboxHandle } from '../core-adapter';
import { activeFolder, type EnvironmentStore } from '../environments/environmentStore';
import type { Log } from '../log';
import { isUnreadableState, offerStartEmpty } from './unreadableState';

export class SandboxController implements vscode.Disposable {
  private handle: SandboxHandle | undefined;
  private starting: Promise<SandboxHandle> | undefined;
  /**
   * Sandboxes of embedded environments whose settings differ from this one's (a collection's own
   * `"sandbox": { "clockRate": … }`, examples/fast-clock), one per setting, in memory, as the CLI
   * starts them (src/cli/embeddedSandbox.ts).
   */
  private readonly others = new Map<string, Promise<SandboxHandle>>();
  /** The settings this sandbox was started with. */
  private settings: string | undefined;

  constructor(
    private readonly environments: EnvironmentStore,
    private readonly log: Log,
    /** Where the sandbox keeps its state (created bills of lading …) between sessions. */
    private readonly dataDir: string | undefined,
  ) {}

  get url(): string | undefined {
    return this.handle?.url;
  }

  /**
   * The URL an embedded environment is served at: a session environment's own sandbox (a replay
   * of recordings, replayController.ts), else this one, started on demand. Every send, run and
   * contract check asks here with the environment it resolved.
   */
  async start(environment?: Pick<Environment, 'name'> & Partial<Pick<Environment, 'namespaces' | 'sandbox'>>): Promise<string> {
    const session = environment && this.environments.sessionUrl(environment.name);
    if (session) return session;
    const own = environment?.sandbox?.clockRate !== undefined || environment?.sandbox?.replyMemo === true;
    const wanted = own ? embeddedSandboxKey(environment) : undefined;
    if (wanted !== undefined && wanted !== (this.settings ?? embeddedSandboxKey(this.mainEnvironment()))) return this.other(wanted, environment as Environment);
    if (this.handle) return this.handle.url;
    // Two quick clicks must not start two servers.
    this.starting ??= this.open();
    try {
      this.handle = await this.starting;
    } finally {
      this.starting = undefined;
    }
    this.environments.setSandboxUrl(this.handle.url);
    setContext('carrier.sandboxRunning', true);
    this.log.info(`sandbox listening on ${this.handle.url}`);
    return this.handle.url;
  }

  /**
   * Another window on the same workspace holds the data folder (its sandbox locks it, see
   * src/sandbox/state/lock.ts): this window's sandbox then keeps its state in memory rather
   * than failing every send. A saved state that does not read stops the start, with an offer to
   * start empty keeping the old files aside (unreadableState.ts).
   */
  private async open(): Promise<SandboxHandle> {
    const log = (line: string) => this.log.trace(`sandbox: ${line}`);
    const sandbox = this.mainEnvironment();
    this.settings = embeddedSandboxKey(sandbox);
    try {
      return await startSandbox({ sandbox, dataDir: this.dataDir, log });
    } catch (err) {
      if (isUnreadableState(err)) offerStartEmpty(err, () => this.start(), this.log);
      if ((err as Error).name !== 'SandboxLockedError') throw err;
      this.log.warn(`${(err as Error).message} This window's sandbox keeps its state in memory only.`);
      return startSandbox({ sandbox, log });
    }
  }

  /** The embedded environment this sandbox serves: the workspace's own embedded one, else the selected. */
  private mainEnvironment(): Environment {
    return this.environments.definitions(activeFolder()).environments.find((e) => e.embedded) ?? this.environments.selectedEnvironment();
  }

  /** The sandbox of another setting, started once, in memory. */
  private async other(settings: string, environment: Environment): Promise<string> {
    let handle = this.others.get(settings);
    if (!handle) {
      handle = startSandbox({ sandbox: environment, log: (line) => this.log.trace(`sandbox (${environment.name}): ${line}`) });
      this.others.set(settings, handle);
      handle.then(
        (h) => this.log.info(`sandbox for "${environment.name}" listening on ${h.url}`),
        () => this.others.delete(settings),
      );
    }
    return (await handle).url;
  }

  async stop(): Promise<void> {
    const others = [...this.others.values()];
    this.others.clear();
    await Promise.all(others.map(async (h) => (await h.catch(() => undefined))?.close()));
    const handle = this.handle;
    if (!handle) return;
    this.handle = undefined;
    this.settings = undefined;
    this.environments.setSandboxUrl(undefined);
    setContext('carrier.sandboxRunning', false);
    await handle.close();
    this.log.info('sandbox stopped');
  }

  dispose(): void {
    void this.stop();
  }
}
