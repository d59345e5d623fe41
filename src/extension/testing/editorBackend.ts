/**
 * The runner's backend for one workspace folder, seen the way the editor's Send sees things:
 * keys from SecretStorage, the extension's own sandbox, and the environment picked in the status
 * bar for files and collections that name none (where `carrier run` would use "sandbox").
 */
import { createTestBackend, type RunFailure, type RunnerBackend } from '../core-adapter';
import type { EnvironmentStore } from '../environments/environmentStore';
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
export async function editorBackend(folder: string, sources: BackendSources, secrets: Set<string>): Promise<EditorBackend> {
  const defined = sources.environments.all(folder);
  // SecretStorage is asynchronous and the engine asks synchronously: read every key up front.
  const apiKeys: Record<string, string> = {};
  for (const env of defined) {
    const key = await sources.keys.get(env.name);
    if (key) { apiKeys[env.name] = key; secrets.add(key); }
  }
  const picked = sources.environments.selectedName();
  const fallback = defined.some((e) => e.name === picked) ? picked : undefined;
  const inner = createTestBackend(folder, apiKeys, () => sources.sandbox.start());
  return {
    problems: inner.problems,
    environment(name) {
      const wanted = name ?? fallback;
      const resolved = inner.environment(wanted);
      if (typeof resolved !== 'string') {
        resolved.secretValues.forEach((s) => secrets.add(s));
        return resolved;
      }
      // Core's message names CARRIER_API_KEY variables, which the editor does not read.
      const env = defined.find((e) => e.name === (wanted ?? 'sandbox'));
      return env && !env.embeddedSandbox && !apiKeys[env.name] ? `No API key is stored for "${env.name}": run "Carrier: Set API Key"` : resolved;
    },
    send: (call) => inner.send(call),
    close: async () => { await inner.close?.(); },
  };
}
