/** What every route and operation handler of one running sandbox shares. */
import type { Binding, JsonObject, Namespaces, OperationDef } from '../core';
import type { SandboxLimits } from './http/limits';
import type { SandboxStore, StoreChanges } from './state/store';

export interface SandboxContext {
  readonly namespaces: Namespaces;
  /** Accepted keys; undefined accepts any non-empty key. */
  readonly apiKeys?: ReadonlySet<string>;
  readonly store: SandboxStore;
  readonly now: () => Date;
  readonly log: (line: string) => void;
  readonly allowInjection: boolean;
  readonly limits: SandboxLimits;
  /** A secret the request being handled carries (its API key): kept out of the log lines about it. */
  readonly noteSecret?: (value: string) => void;
}

/** One call of an operation, after the request has been read and bound along the catalog. */
export interface OperationCall {
  readonly op: OperationDef;
  readonly binding: Binding;
  /** The operation wrapper's fields (APIKey, request/input or flat parameters). */
  readonly params: JsonObject;
  /** Elements of the request the service did not bind (unknown names, wrong namespaces). */
  readonly ignored: readonly string[];
  /**
   * Where a handler records what it creates. The changes are visible at once (later reads in the
   * same call see them) but kept only if the reply is written: invoke() commits them durably
   * before the reply goes out, or takes them back when the call fails.
   */
  readonly changes: StoreChanges;
}

/** Returns the content of `<Operation>Result` (SOAP) or of the HTTP reply root, as JSON for the catalog's writer. */
export type OperationHandler = (call: OperationCall, ctx: SandboxContext) => JsonObject | Promise<JsonObject>;
