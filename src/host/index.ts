/**
 * The Node host: what core touches, made from Node for the faces that run there (the CLI, the
 * extension's engine, the sandbox, tests and benchmarks). Core is handed a context
 * (src/core/context.ts) and never makes one; this room makes it.
 */
import type { CoreContext } from '../core';
import { NodeDispatchers } from './dispatchers';
import { nodeFiles } from './files';

export { nodeFiles } from './files';
export { NodeDispatchers } from './dispatchers';
export { TranscriptSpill } from './transcriptSpill';

export interface NodeContextOptions {
  /** Environment variables core may read (API keys); none unless given: the CLI passes process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly defaultEnvironment?: (fileName: string) => string | undefined;
}

/** A context on Node: its file system, the clock, a fresh set of pooled dispatchers (close it with `context.http.close()`). */
export function nodeContext(options: NodeContextOptions = {}): CoreContext {
  return {
    files: nodeFiles,
    env: options.env ?? {},
    clock: { now: () => Date.now() },
    http: new NodeDispatchers(),
    ...(options.defaultEnvironment ? { defaultEnvironment: options.defaultEnvironment } : {}),
  };
}
