/**
 * Environments: where requests go and how. The workspace file `carrier.environments.json`
 * describes them (schemas/carrier-environments.schema.json); the built-in `sandbox` always
 * exists. API keys are never part of an environment: callers pass them in (CLI from the process
 * environment, the extension from its secret storage).
 */
import type { Namespaces } from '../catalog';
import type { TlsSettings } from '../context';

/** One entry of `carrier.environments.json`, as written. */
export interface EnvironmentSettings {
  readonly description?: string;
  readonly baseUrl?: string;
  readonly serviceNamespace?: string;
  readonly dataNamespace?: string;
  readonly pickupNamespace?: string;
  readonly timeoutMs?: number;
  readonly maxReplyBytes?: number;
  readonly tls?: {
    readonly ca?: string;
    readonly cert?: string;
    readonly key?: string;
    readonly rejectUnauthorized?: boolean;
  };
  readonly proxy?: string;
  readonly variables?: Readonly<Record<string, string | number | boolean>>;
  readonly secrets?: readonly string[];
  /** How the embedded sandbox runs, for an environment whose baseUrl is `embedded`. */
  readonly sandbox?: SandboxSettings;
  /** A service where a probe may create shipments and pickups (docs/probe.md). */
  readonly probe?: boolean;
}

/** The embedded sandbox's settings (`"sandbox": { "clockRate": 60, "replyMemo": true }`). */
export interface SandboxSettings {
  /** Carrier time per real time, from the sandbox's start: pickups, traces and documents move on faster (1 = real time). */
  readonly clockRate?: number;
  /** Keep the replies of operations that read no state and answer the same request again from memory (docs/sandbox.md#the-reply-memo). */
  readonly replyMemo?: boolean;
}

export type { TlsSettings } from '../context';

/** An environment ready to send to: every default applied, paths resolved. */
export interface Environment {
  readonly name: string;
  readonly description?: string;
  /** `embedded` for the in-process sandbox, else an http(s) URL without a trailing slash. */
  readonly baseUrl: string;
  /** True when baseUrl is `embedded`: the caller starts the sandbox (`resolveEmbedded`). */
  readonly embedded: boolean;
  readonly namespaces: Namespaces;
  readonly timeoutMs: number;
  readonly maxReplyBytes: number;
  readonly tls?: TlsSettings;
  readonly proxy?: string;
  readonly variables: Readonly<Record<string, string | number | boolean>>;
  /** Names of variables whose values are redacted like the API key. */
  readonly secrets: readonly string[];
  /** The embedded sandbox's settings, as the file gives them; only on an embedded environment. */
  readonly sandbox?: SandboxSettings;
  /** True for the built-in sandbox (possibly adjusted by the file). */
  readonly builtIn: boolean;
  /** `"probe": true`: a probe may send the creating operations here too, not only to an embedded sandbox (docs/probe.md). */
  readonly probe?: true;
  /**
   * The environment's stored live contract (`.carrier/contracts/<name>.json` beside its
   * environments file, written by `carrier contract --write`): where it is kept for a real
   * service, whether or not one has been stored yet (prepare.ts asks); the sandbox has none.
   */
  readonly contractFile?: string;
}

/** A problem in the environments file, located for `path:line:col: error: …`. */
export interface EnvironmentProblem {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** `staging.tls.ca`; empty for the whole file. */
  readonly path: string;
  /** 0-based, like the request-file findings. */
  readonly range: {
    readonly start: { readonly line: number; readonly character: number };
    readonly end: { readonly line: number; readonly character: number };
  };
}
