/**
 * The embedded sandbox's lifetime: started on request on a free loopback port, stopped on
 * request or when the extension deactivates. Its URL becomes the "sandbox" environment's.
 */
import * as vscode from 'vscode';
import { setContext } from '../contextKeys';
import { startSandbox, type SandboxHandle } from '../core-adapter';
import { activeFolder, type EnvironmentStore } from '../environments/environmentStore';
import type { Log } from '../log';

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

  async start(): Promise<string> {
    if (this.handle) return this.handle.url;
    // Two quick clicks must not start two servers.
    this.starting ??= startSandbox({
      sandbox: this.environments.definitions(activeFolder()).environments.find((e) => e.embedded) ?? this.environments.selectedEnvironment(),
      dataDir: this.dataDir,
      log: (line) => this.log.trace(`sandbox: ${line}`),
    });
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
