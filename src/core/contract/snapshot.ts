/**
 * The stored contract of an environment: `.carrier/contracts/<environment>.json` beside its
 * `carrier.environments.json`, written by `carrier contract --write` (and the editor's Apply).
 * It holds the report of the check, so validation, completion and envelopes of request files
 * sent to that environment follow the live contract without asking the network again. Read once
 * per change of the file (by modification time and size).
 */
import type { NamespaceRole } from '../catalog';
import type { CoreContext, CoreFiles } from '../context';
import { contractFileFor } from '../environments/contractFile';
import { readTextFile } from '../requestFile/readText';
import { CONTRACT_REPORT_FORMAT, type ContractReport } from './types';

export { CONTRACTS_FOLDER, contractFileFor } from '../environments/contractFile';
export const STORED_CONTRACT_FORMAT = 'carrier-contract';
export const STORED_CONTRACT_VERSION = 1;

export interface StoredContract {
  readonly format: typeof STORED_CONTRACT_FORMAT;
  readonly version: typeof STORED_CONTRACT_VERSION;
  readonly environment: string;
  readonly baseUrl: string;
  readonly checkedAt: string;
  /** The namespaces the live service uses, as written into the environment. */
  readonly namespaces: Readonly<Partial<Record<NamespaceRole, string>>>;
  readonly report: ContractReport;
}

export function storedContractOf(report: ContractReport): StoredContract {
  return {
    format: STORED_CONTRACT_FORMAT,
    version: STORED_CONTRACT_VERSION,
    environment: report.environment,
    baseUrl: report.baseUrl,
    checkedAt: report.checkedAt,
    namespaces: report.suggestedNamespaces,
    report,
  };
}

/** Writes the snapshot atomically (a reader never sees half a file); returns the file written. */
export function writeStoredContract(context: Pick<CoreContext, 'files'>, environmentsFolder: string, report: ContractReport): string {
  const file = contractFileFor(environmentsFolder, report.environment);
  context.files.writeTextAtomically(file, `${JSON.stringify(storedContractOf(report), null, 2)}\n`);
  cacheOf(context.files).delete(file);
  return file;
}

type Cached = { stamp: string; contract: StoredContract | undefined };
/** Read contracts by file, per file system: the cache goes with the context that holds it. */
const caches = new WeakMap<CoreFiles, Map<string, Cached>>();

function cacheOf(files: CoreFiles): Map<string, Cached> {
  let cache = caches.get(files);
  if (!cache) caches.set(files, (cache = new Map()));
  return cache;
}

/**
 * The stored contract in `file`, or undefined when there is none or it is not one (a file of
 * another format or version is ignored rather than misread).
 */
export function readStoredContract(context: Pick<CoreContext, 'files'>, file: string): StoredContract | undefined {
  const cache = cacheOf(context.files);
  const stat = context.files.stat(file);
  if (!stat?.isFile) {
    cache.delete(file);
    return undefined;
  }
  const stamp = `${stat.mtimeMs}:${stat.size}`;
  const hit = cache.get(file);
  if (hit?.stamp === stamp) return hit.contract;
  let contract: StoredContract | undefined;
  try {
    const value = JSON.parse(readTextFile(context, file)) as Partial<StoredContract>;
    if (value.format === STORED_CONTRACT_FORMAT && value.version === STORED_CONTRACT_VERSION && value.report?.format === CONTRACT_REPORT_FORMAT)
      contract = value as StoredContract;
  } catch {
    contract = undefined;
  }
  if (cache.size > 64) cache.clear();
  cache.set(file, { stamp, contract });
  return contract;
}
