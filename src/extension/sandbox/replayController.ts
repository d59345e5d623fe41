/**
 * Recordings as an environment (docs/sandbox.md#in-vs-code): a sandbox of its own, started with
 * `replay` on a recording folder, beside the embedded one (which it leaves alone), and a session
 * environment "recordings: <folder>" in the environment store that sends, runs and contract
 * checks find like any other (environmentStore.ts). It runs until it is stopped or the extension
 * deactivates, also while another environment is selected.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Environment } from '../../core';
import { setContext } from '../contextKeys';
import { startSandbox, type SandboxHandle } from '../core-adapter';
import { SANDBOX_ENVIRONMENT } from '../coreLight';
import { activeFolder, type EnvironmentStore } from '../environments/environmentStore';
import type { Log } from '../log';

export type ReplayFallback = 'emulate' | 'fault';

export interface Replay {
  readonly name: string;
  readonly folder: string;
  readonly fallback: ReplayFallback;
  readonly url: string;
}

interface Running extends Replay {
  readonly handle: SandboxHandle;
}

/** A recording that does not read: the sandbox's ReplayLoadError (src/sandbox/replay/load.ts), known by its name across the bundle. */
export interface ReplayLoadFailure extends Error {
  readonly file: string;
}

export function isReplayLoadFailure(err: unknown): err is ReplayLoadFailure {
  return err instanceof Error && err.name === 'ReplayLoadError' && typeof (err as { file?: unknown }).file === 'string';
}

export class ReplayController implements vscode.Disposable {
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly environments: EnvironmentStore,
    private readonly log: Log,
  ) {}

  replays(): Replay[] {
    return [...this.running.values()].map(({ name, folder, fallback, url }) => ({ name, folder, fallback, url }));
  }

  /**
   * Starts replaying `folder` and selects its environment. Replaying a folder again starts it
   * afresh (every sequence from its first recording). A recording that does not read rejects
   * (isReplayLoadFailure) before anything is changed: a replay of the folder already running
   * keeps running.
   */
  async start(folder: string, fallback: ReplayFallback): Promise<Replay> {
    const name = this.nameFor(folder);
    // The workspace's sandbox environment gives the namespaces requests are read with, as the embedded sandbox's.
    const base = this.environments.definitions(activeFolder()).environments.find((e) => e.name === SANDBOX_ENVIRONMENT);
    if (!base) throw new Error('there is no sandbox environment to base the replay on');
    const log = (line: string) => this.log.trace(`replay ${name}: ${line}`);
    // No data folder: a replay's emulated answers live in memory and begin afresh each start.
    const handle = await startSandbox({ sandbox: base, log, replay: { dirs: [folder], fallback } });
    const old = this.running.get(name);
    const environment: Environment = {
      ...base,
      name,
      description: `Replays the recordings in ${vscode.workspace.asRelativePath(folder, true)}; other calls ${fallback === 'emulate' ? 'are emulated' : 'get a fault'}`,
      builtIn: false,
      sandbox: undefined,
      contractFile: undefined,
    };
    const running: Running = { name, folder, fallback, url: handle.url, handle };
    this.running.set(name, running);
    this.environments.addSession({ environment, url: handle.url });
    await this.environments.select(name);
    setContext('carrier.replaying', true);
    this.log.info(`replaying ${folder} on ${handle.url} as environment "${name}" (unmatched calls: ${fallback})`);
    if (old) await this.close(old);
    return { name, folder, fallback, url: handle.url };
  }

  /** Stops the replay named so; the selection goes back to the saved environment when it was selected. */
  async stop(name: string): Promise<boolean> {
    const running = this.running.get(name);
    if (!running) return false;
    this.running.delete(name);
    this.environments.removeSession(name);
    setContext('carrier.replaying', this.running.size > 0);
    await this.close(running);
    this.log.info(`stopped replaying ${running.folder} ("${name}")`);
    return true;
  }

  /** "recordings: <folder name>", or the folder's workspace path when another folder of that name replays. */
  private nameFor(folder: string): string {
    const short = `recordings: ${path.basename(folder)}`;
    const taken = this.running.get(short);
    return !taken || taken.folder === folder ? short : `recordings: ${vscode.workspace.asRelativePath(folder, true)}`;
  }

  private async close(running: Running): Promise<void> {
    await running.handle.close().catch((err: unknown) => this.log.warn(`replay ${running.name}: ${(err as Error).message}`));
  }

  dispose(): void {
    for (const name of [...this.running.keys()]) void this.stop(name);
  }
}
