/**
 * The engine door: dist/engine.js (engine.ts), beside this bundle, required the first time a
 * feature needs it — esbuild leaves it out of extension.js because the path is only known at run
 * time. `engine()` is the only way the extension reaches core at run time (eslint.config.mjs
 * refuses other value imports of core, the inspector and the sandbox in src/extension; type
 * imports are free, and coreLight.ts holds the few light helpers activation needs first).
 */
import * as nodePath from 'node:path';
import type * as EngineModule from './engine';
import type { EngineError, EngineErrorCode } from './engine';

/** What dist/engine.js exports. */
export type Engine = typeof EngineModule;
export type { EngineError, EngineErrorCode };

let loaded: Engine | undefined;
let defaultEnvironment: ((fileName: string) => string | undefined) | undefined;

export function engine(): Engine {
  if (loaded) return loaded;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded = require(nodePath.join(__dirname, 'engine.js')) as Engine;
  loaded.setDefaultEnvironment(defaultEnvironment);
  return loaded;
}

/**
 * The environment a file that names none follows (the engine context's `defaultEnvironment`):
 * said without loading the engine, kept here until it is first required, then handed to it.
 */
export function setDefaultEnvironment(resolve: ((fileName: string) => string | undefined) | undefined): void {
  defaultEnvironment = resolve;
  loaded?.setDefaultEnvironment(resolve);
}

/** Closes the engine's pooled connections, if it was ever loaded (the extension deactivates). */
export async function closeEngine(): Promise<void> {
  await loaded?.closeEngine();
}

/** An error the engine threw, recognised by its `code` field (engine.ts turns core's error classes into these). */
export function isEngineError<C extends EngineErrorCode>(err: unknown, code: C): err is EngineError & { readonly code: C } {
  return err instanceof Error && (err as Partial<EngineError>).code === code;
}
