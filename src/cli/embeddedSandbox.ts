/**
 * The embedded sandbox for one CLI command: started on first need (a command against a remote
 * environment never pays for it), shared by every request of the command, closed once at the end.
 * Core only asks for a base URL; starting servers is the caller's business.
 */
import { embeddedSandboxKey, type Environment, type Namespaces } from '../core';
import type { SandboxHandle } from '../sandbox/options';

type SandboxModule = typeof import('../sandbox/embedded');

/**
 * The sandbox's code, required on first need too: in the built CLI this require names
 * dist/sandbox.js (esbuild.js keeps it out of each command's bundle), so `carrier run --env
 * staging` neither loads nor parses the sandbox, pdf-lib and the XML builder.
 */
function sandboxModule(): SandboxModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../sandbox/embedded') as SandboxModule;
}

export interface EmbeddedSandboxOptions {
  /**
   * Every sandbox this command starts keeps the replies of operations that read no state
   * (docs/sandbox.md#the-reply-memo), whatever its environment says: `carrier load` measures the
   * load and the judged exchange, not the emulator's pricing.
   */
  readonly replyMemo?: boolean;
}

export class EmbeddedSandbox {
  constructor(private readonly options: EmbeddedSandboxOptions = {}) {}

  /**
   * One sandbox per distinct setting (namespaces, clock rate, reply memo): a run whose collections name two
   * embedded environments — one on a fast clock — gets each as it asked, never the first one's.
   */
  private readonly handles = new Map<string, Promise<SandboxHandle>>();

  /**
   * The base URL, starting the sandbox if it is not running yet: with these namespaces, or with an
   * embedded environment's namespaces and sandbox settings (its `"sandbox": { "clockRate": N,
   * "replyMemo": true }`).
   */
  readonly url = async (from?: Namespaces | Pick<Environment, 'namespaces' | 'sandbox'>): Promise<string> => {
    const environment = from && 'namespaces' in from ? from : undefined;
    const namespaces = environment ? environment.namespaces : (from as Namespaces | undefined);
    const clockRate = environment?.sandbox?.clockRate;
    const replyMemo = this.options.replyMemo === true || environment?.sandbox?.replyMemo === true;
    const sandbox = { ...(clockRate !== undefined ? { clockRate } : {}), ...(replyMemo ? { replyMemo } : {}) };
    const key = embeddedSandboxKey({ ...(namespaces ? { namespaces } : {}), sandbox });
    let handle = this.handles.get(key);
    if (!handle) {
      handle = Promise.resolve().then(() => sandboxModule().startSandbox({ port: 0, host: '127.0.0.1', ...(namespaces ? { namespaces } : {}), ...sandbox }));
      this.handles.set(key, handle);
    }
    return (await handle).url;
  };

  async close(): Promise<void> {
    const all = [...this.handles.values()];
    this.handles.clear();
    // A sandbox that failed to start has nothing to close; its error was already reported.
    await Promise.all(all.map(async (h) => (await h.catch(() => undefined))?.close()));
  }
}
