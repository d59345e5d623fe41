/**
 * The runner's backend for one workspace folder, seen the way the editor's Send sees things:
 * keys from SecretStorage, the extension's own sandbox, and the environment picked in the status
 * bar for files and collections that name none (where `carrier run` would use "sandbox").
 */
import * as vscode from 'vscode';
import { createTestBackend, type RunFailure, type RunnerBackend } from '../core-adapter';
import { keyDestination } from '../coreLight';
import type { EnvironmentStore } from '../environments/environmentStore';
import { mayReach } from '../restrictedMode';
import type { SandboxController } from '../sandbox/sandboxController';
import type { ApiKeys } from '../secrets/apiKeys';

export interface EditorBackend extends RunnerBackend {
  /** Problems reading carrier.environments.json. */
  readonly problems: readonly RunFailure[];
  close(): Promise<void>;
}

export interface BackendSources {
  readonly environments: EnvironmentStore;
  readonly keys: ApiKeys;
  readonly sandbox: SandboxController;
}

/**
 * `secrets` collects every value the run's environments hold secret (keys, secret variables) as
 * they are resolved, so the run's output can be scrubbed of them.
 */
export async function editorBackend(
  folder: string,
  sources: BackendSources,
  secrets: Set<string>,
  collections: readonly string[] = [],
): Promise<EditorBackend> {
  const defined = sources.environments.all(folder);
  // As `carrier run` finds them: a collection with an environments file of its own (examples/fast-clock)
  // runs with it. Not in Restricted Mode, where only what the workspace folder defines is looked at.
  const loaded =
    vscode.workspace.isTrusted && collections.length
      ? sources.environments.definitionsFrom([...collections, folder])
      : sources.environments.definitions(folder);
  const definitions = loaded.environments;
  // SecretStorage is asynchronous and the engine asks synchronously: read every key up front.
  // A key goes only to the destination it was stored for; one stored elsewhere is hidden, not sent.
  const apiKeys: Record<string, string> = {};
  const elsewhere = new Map<string, string>();
  for (const env of definitions) {
    const to = keyDestination(env);
    const found = await sources.keys.lookup(env.name, to);
    if (found.key) {
      apiKeys[env.name] = found.key;
      secrets.add(found.key);
    } else if (found.elsewhere) {
      secrets.add(found.elsewhere.key);
      elsewhere.set(
        env.name,
        `the API key of "${env.name}" was stored for ${found.elsewhere.label}, not ${to.label}: send a request from the editor once to confirm it may go there`,
      );
    }
  }
  const picked = sources.environments.selectedName();
  const fallback = defined.some((e) => e.name === picked) ? picked : undefined;
  const inner = createTestBackend(folder, loaded, apiKeys, (env) => sources.sandbox.start(env));
  return {
    problems: inner.problems,
    environment(name) {
      const wanted = name ?? fallback;
      const env = defined.find((e) => e.name === (wanted ?? 'sandbox'));
      if (env && !mayReach(env)) return `the workspace is in Restricted Mode: "${env.name}" is defined by it, so nothing is sent there until you trust it`;
      if (env && elsewhere.has(env.name)) return elsewhere.get(env.name)!;
      const resolved = inner.environment(wanted);
      if (typeof resolved !== 'string') {
        resolved.secretValues.forEach((s) => secrets.add(s));
        return resolved;
      }
      // Core's message names CARRIER_API_KEY variables, which the editor does not read.
      return env && !env.embeddedSandbox && !apiKeys[env.name] ? `No API key is stored for "${env.name}": run "Carrier: Set API Key"` : resolved;
    },
    send: (call) => inner.send(call),
    close: async () => {
      await inner.close?.();
    },
  };
}
