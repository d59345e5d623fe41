/**
 * The embedded sandbox's lifetime: started on request on a free loopback port, stopped on
 * request or when the extension deactivates. Its URL becomes the "sandbox" environment's.
 */
import * as vscode from 'vscode';
import type { Environment } from '../../core';
import { setContext } from '../contextKeys';
import { startSandbox, type SandboxHandle } from '../core-adapter';
import { activeFolder, type EnvironmentStore } from '../environments/environmentStore';
import type { Log } from '../log';
import { isUnreadableState, offerStartEmpty } from './unreadableState';

export class SandboxController implements vscode.Disposable {
  private handle: SandboxHandle | undefined;
  private starting: Promise<SandboxHandle> | undefined;

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
  async start(environment?: Pick<Environment, 'name'>): Promise<string> {
    const session = environment && this.environments.sessionUrl(environment.name);
    if (session) return session;
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
    const sandbox = this.environments.definitions(activeFolder()).environments.find((e) => e.embedded) ?? this.environments.selectedEnvironment();
    try {
      return await startSandbox({ sandbox, dataDir: this.dataDir, log });
    } catch (err) {
      if (isUnreadableState(err)) offerStartEmpty(err, () => this.start(), this.log);
      if ((err as Error).name !== 'SandboxLockedError') throw err;
      this.log.warn(`${(err as Error).message} This window's sandbox keeps its state in memory only.`);
      return startSandbox({ sandbox, log });
    }
  }

  async stop(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    this.handle = undefined;
    this.environments.setSandboxUrl(undefined);
    setContext('carrier.sandboxRunning', false);
    await handle.close();
    this.log.info('sandbox stopped');
  }

  dispose(): void {
    void this.stop();
  }
}
