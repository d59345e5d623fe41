/**
 * dist/engine.js (engine.ts), beside this bundle, required the first time a feature needs it:
 * esbuild leaves it out of extension.js because the path is only known at run time.
 */
import * as nodePath from 'node:path';
import type * as EngineModule from './engine';

export type Engine = typeof EngineModule;

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
 * Core's setDefaultEnvironment, without loading the engine to say it: kept here until the engine
 * is first required, then handed to it.
 */
export function setDefaultEnvironment(resolve: ((fileName: string) => string | undefined) | undefined): void {
  defaultEnvironment = resolve;
  loaded?.setDefaultEnvironment(resolve);
}
