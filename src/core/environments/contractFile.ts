/**
 * Where an environment's stored contract lives: `.carrier/contracts/<environment>.json` beside its
 * `carrier.environments.json`. Named here, below both, because the environments file finds it
 * (load.ts) and the contract reads and writes it (contract/snapshot.ts).
 */
import * as path from 'node:path';

export const CONTRACTS_FOLDER = path.join('.carrier', 'contracts');

/** Where the contract of `environment` is stored, for the environments file in `environmentsFolder`. */
export function contractFileFor(environmentsFolder: string, environment: string): string {
  return path.join(environmentsFolder, CONTRACTS_FOLDER, `${environment}.json`);
}
