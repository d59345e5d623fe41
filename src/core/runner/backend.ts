/**
 * What the runner needs from the wire: environments and a way to send. The CLI and the
 * extension each provide one (src/core/runBackend.ts builds the standard one); tests provide fakes, so the
 * engine's ordering, waiting and judging are tested without any network.
 */
import type { Binding } from '../catalog/types';
import type { Exchange } from '../exchange';
import type { RequestFile } from '../requestFile';
import type { PlannedTest } from './types';

export interface RunEnvironment {
  readonly name: string;
  /** The environment's own `{{variables}}`. */
  readonly variables: Readonly<Record<string, string | number | boolean>>;
  /** Values never to show in results or reports: the API key and the secret variables' values. */
  readonly secretValues: readonly string[];
}

export interface SendCall {
  readonly test: PlannedTest;
  /** The request with `{{variables}}` filled in and the binding of this test. */
  readonly request: RequestFile;
  readonly binding: Binding;
  readonly environment: RunEnvironment;
  /** Aborted when the run is cancelled. */
  readonly signal: AbortSignal;
  /** `--timeout`; the environment's own timeout applies when undefined. */
  readonly timeoutMs?: number;
}

export interface RunnerBackend {
  /** The environment of a name (undefined: the default one); a string says why there is none. */
  environment(name: string | undefined): RunEnvironment | string;
  /** Sends one request; an Exchange carries transport errors rather than throwing them. */
  send(call: SendCall): Promise<Exchange>;
  /** Called once when the run ends: close an embedded sandbox, connection pools. */
  close?(): Promise<void>;
}
