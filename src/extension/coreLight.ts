/**
 * The exception list: the only values of core the extension imports directly rather than through
 * the engine (engineBundle.ts), because activation needs them before any engine load and loading
 * the engine for them would load all of it (bench/rows/bundle.ts). eslint.config.mjs lets this
 * file, and engine.ts, value-import core; every other extension file only imports its types.
 * Each is stateless (no cache, no class the extension recognises, nothing thrown across): a
 * second copy in the engine bundle changes nothing.
 *
 * - the environments (the status bar and the file watcher at activation): loadEnvironmentsFrom,
 *   findEnvironment, SANDBOX_ENVIRONMENT, ENVIRONMENTS_FILE, keyDestination (the status bar's
 *   tooltip names where the key goes) and embeddedSandboxKey (which sandbox an environment needs);
 * - History's rows (its tree shows the kept entries at activation): classifyExchange (reads the
 *   judgement the exchange carries), exchangeTitle, VERDICT_PHRASES, BINDING_LABELS.
 */
import { loadEnvironmentsFrom as coreLoadEnvironmentsFrom, type LoadedEnvironments } from '../core';
// Node's file system alone (src/host/files.ts): the host's index would bring the HTTP client along.
import { nodeFiles } from '../host/files';

export {
  BINDING_LABELS,
  classifyExchange,
  embeddedSandboxKey,
  ENVIRONMENTS_FILE,
  exchangeTitle,
  findEnvironment,
  keyDestination,
  SANDBOX_ENVIRONMENT,
  VERDICT_PHRASES,
} from '../core';

/** The environments for these folders (core's loadEnvironmentsFrom), read from Node's file system. */
export function loadEnvironmentsFrom(starts: readonly string[]): LoadedEnvironments {
  return coreLoadEnvironmentsFrom({ files: nodeFiles }, starts);
}
