/**
 * `carrier contract`'s work, for the CLI and the editor alike: every service path of the catalog
 * fetched as `?WSDL` from the environment through the transport sends use (its TLS files, proxy,
 * timeout and size cap; redirects reported, never followed; no API key, since a WSDL needs none),
 * read, compared with the catalog, and summed up in one report. Which URI each namespace role has
 * is decided over all paths together, because the environment has one setting per role.
 */
import type { Dispatcher } from 'undici';
import { servicePaths, type NamespaceRole, type OperationDef } from '../catalog';
import type { Environment } from '../environments/types';
import { decodeText, mediaType } from '../reply/decodeText';
import type { CoreContext } from '../context';
import { TlsFileError } from '../transport/tlsFile';
import { sendHttp } from '../transport/http';
import { byGravity, compareService, type NamespaceEvidence } from './compare';
import {
  CONTRACT_REPORT_FORMAT,
  CONTRACT_REPORT_VERSION,
  type ContractDifference,
  type ContractReport,
  type NamespaceFinding,
  type ServiceReport,
} from './types';
import { ContractReadError, readWsdl, type WsdlDocument } from './wsdl';

export const ROLE_PLACEHOLDERS: Readonly<Record<NamespaceRole, string>> = {
  service: '{service_namespace}',
  data: '{data_namespace}',
  pickup: '{pickup_namespace}',
};
export const ROLE_SETTINGS: Readonly<Record<NamespaceRole, string>> = { service: 'serviceNamespace', data: 'dataNamespace', pickup: 'pickupNamespace' };
const ROLES: readonly NamespaceRole[] = ['service', 'data', 'pickup'];

/** Paths fetched at once: enough to hide latency, few enough to be polite to a real service. */
const CONCURRENCY = 3;

export interface CheckContractInput {
  /** The pooled dispatchers and the clock the check uses (src/core/context.ts). */
  readonly context: Pick<CoreContext, 'http' | 'clock'>;
  readonly environment: Environment;
  /** Starts (or finds) the embedded sandbox, for an embedded environment. */
  readonly resolveEmbedded?: () => Promise<string>;
  readonly signal?: AbortSignal;
  /** Called as each service path is done. */
  readonly onProgress?: (done: number, total: number, servicePath: string) => void;
  /** Only these service paths (tests, a quick look); every path of the catalog otherwise. */
  readonly paths?: readonly string[];
}

export interface ContractCheck {
  readonly report: ContractReport;
  /** Per service path, every document read (the WSDL first): url → text. */
  readonly documents: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** Stopped by the caller's signal: nothing was concluded. */
export class ContractCancelled extends Error {
  constructor() {
    super('The contract check was cancelled');
    this.name = 'ContractCancelled';
  }
}

class NotFound extends Error {}

export async function checkContract(input: CheckContractInput): Promise<ContractCheck> {
  const { environment } = input;
  let baseUrl = environment.baseUrl;
  if (environment.embedded) {
    if (!input.resolveEmbedded)
      throw new ContractReadError(baseUrl, `Environment "${environment.name}" is the embedded sandbox, but no way to start it was given`);
    baseUrl = (await input.resolveEmbedded()).replace(/\/+$/, '');
  }
  const timeoutMs = environment.timeoutMs;
  let dispatcher: Dispatcher;
  try {
    dispatcher = input.context.http.dispatcherFor({ tls: environment.tls, proxy: environment.proxy, connectTimeoutMs: Math.min(10_000, timeoutMs) });
  } catch (err) {
    if (err instanceof TlsFileError) throw new ContractReadError(baseUrl, err.message);
    throw err;
  }
  const fetchText = async (url: string): Promise<string> => {
    const outcome = await sendHttp(
      { method: 'GET', url, headers: [['Accept', 'text/xml, application/xml, */*;q=0.1']], body: '' },
      {
        dispatcher,
        timeoutMs,
        connectTimeoutMs: Math.min(10_000, timeoutMs),
        maxReplyBytes: environment.maxReplyBytes,
        signal: input.signal,
        displayUrl: url,
      },
    );
    if (outcome.error?.kind === 'cancelled') throw new ContractCancelled();
    if (outcome.error) throw new ContractReadError(url, outcome.error.message);
    const contentType = outcome.headers?.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
    const text = decodeText(outcome.body ?? Buffer.alloc(0), contentType).text;
    if (outcome.status === 404) throw new NotFound(url);
    if (outcome.status !== 200) {
      throw new ContractReadError(
        url,
        `${url} answered HTTP ${outcome.status}${outcome.statusText ? ` ${outcome.statusText}` : ''}${mediaType(contentType) === 'text/html' ? ' with an HTML page' : ''}, not a WSDL`,
      );
    }
    if (mediaType(contentType) === 'text/html') throw new ContractReadError(url, `${url} answered with an HTML page (Content-Type text/html), not a WSDL`);
    if (!text.trim()) throw new ContractReadError(url, `${url} answered HTTP 200 with an empty body, not a WSDL`);
    return text;
  };

  const all = servicePaths();
  const paths = input.paths ? [...all].filter(([p]) => input.paths!.includes(p)) : [...all];
  const results: Array<{ path: string; shapes: OperationDef[]; url: string; doc?: WsdlDocument; notFound?: boolean; error?: string }> = paths.map(
    ([path, shapes]) => ({ path, shapes, url: `${baseUrl}${path}?WSDL` }),
  );
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < results.length) {
      const r = results[next++];
      if (input.signal?.aborted) throw new ContractCancelled();
      try {
        r.doc = await readWsdl(await fetchText(r.url), r.url, fetchText);
      } catch (err) {
        if (err instanceof NotFound && err.message === r.url) r.notFound = true;
        else if (err instanceof NotFound) r.error = `${err.message}, imported by ${r.url}, answered HTTP 404`;
        else if (err instanceof ContractReadError) r.error = err.message;
        else throw err;
      }
      input.onProgress?.(++done, results.length, r.path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, results.length) }, worker));
  if (input.signal?.aborted) throw new ContractCancelled();

  // Every path missing is a wrong address far more often than a service without any of them.
  if (results.length > 0 && results.every((r) => r.notFound)) {
    for (const r of results) {
      r.notFound = false;
      r.error = `${r.url} answered HTTP 404; no service path of the catalog was found at ${baseUrl} (check the environment's baseUrl)`;
    }
  }

  const evidence: NamespaceEvidence = new Map();
  const services: ServiceReport[] = [];
  const documents = new Map<string, ReadonlyMap<string, string>>();
  for (const r of results) {
    const [first] = r.shapes;
    const base = { path: r.path, service: first.service, version: first.version, url: r.url };
    if (r.error !== undefined) {
      services.push({ ...base, status: 'error', error: r.error, targetNamespaces: [], roles: {}, operations: [], differences: [] });
      continue;
    }
    if (r.notFound) {
      const differences: ContractDifference[] = r.shapes.map((op) => ({
        severity: 'breaking',
        kind: 'operation-missing',
        servicePath: r.path,
        operations: [op.operation],
        version: op.version,
        message: `${op.operation} ${op.version}: ${r.url} answered HTTP 404; the live service has no ${r.path}`,
      }));
      services.push({ ...base, status: 'not-found', targetNamespaces: [], roles: {}, operations: [], differences });
      continue;
    }
    const doc = r.doc!;
    documents.set(r.path, doc.documents);
    const compared = compareService(r.path, r.shapes, doc, environment.namespaces.service);
    const roles: Partial<Record<NamespaceRole, string>> = {};
    for (const [role, uris] of compared.evidence) {
      roles[role] = strongest(uris);
      let into = evidence.get(role);
      if (!into) evidence.set(role, (into = new Map()));
      for (const [uri, records] of uris) {
        let set = into.get(uri);
        if (!set) into.set(uri, (set = new Set()));
        for (const rec of records) set.add(rec);
      }
    }
    const problems = doc.schemas.problems.map((p): ContractDifference => ({
      severity: 'breaking',
      kind: 'type',
      servicePath: r.path,
      message: `the live schemas are incomplete: ${p}`,
    }));
    const targetNamespaces = [...new Set([doc.targetNamespace, ...doc.schemas.targetNamespaces])];
    services.push({ ...base, status: 'read', targetNamespaces, roles, operations: compared.operations, differences: [...problems, ...compared.differences] });
  }

  const namespaces = {} as Record<NamespaceRole, NamespaceFinding>;
  const suggested: Partial<Record<NamespaceRole, string>> = {};
  const envDifferences: ContractDifference[] = [];
  for (const role of ROLES) {
    const uris = evidence.get(role);
    const setting = environment.namespaces[role];
    const live = uris ? strongest(uris) : undefined;
    const records = live !== undefined ? [...uris!.get(live)!].slice(0, 6) : [];
    const seen = uris && uris.size > 1 ? Object.fromEntries([...uris].map(([u, recs]) => [u, [...recs].slice(0, 6)])) : undefined;
    const differs = live !== undefined && live !== setting;
    namespaces[role] = { environment: setting, ...(live !== undefined ? { live } : {}), differs, records, ...(seen ? { seen } : {}) };
    if (live) suggested[role] = live;
    if (differs) {
      envDifferences.push({
        severity: 'breaking',
        kind: 'namespace',
        role,
        catalog: setting,
        live,
        message:
          live === ''
            ? `${ROLE_PLACEHOLDERS[role]}: the live service writes the elements of ${records.join(', ')} in no namespace (unqualified); the environment has "${setting}"`
            : `${ROLE_PLACEHOLDERS[role]}: the environment has "${setting}"; the live service uses "${live}" (${records.join(', ')}): set ${ROLE_SETTINGS[role]} to "${live}"`,
      });
    }
    if (seen) {
      envDifferences.push({
        severity: 'breaking',
        kind: 'namespace',
        role,
        values: Object.keys(seen),
        message: `${ROLE_PLACEHOLDERS[role]}: the live service puts what the catalog keeps in one namespace into ${Object.keys(seen).length}: ${Object.entries(
          seen,
        )
          .map(([u, recs]) => `"${u}" (${recs.join(', ')})`)
          .join('; ')}`,
      });
    }
  }

  const differences = [...envDifferences, ...services.flatMap((s) => s.differences)].sort(byGravity);
  const count = (severity: ContractDifference['severity']) => differences.filter((d) => d.severity === severity).length;
  const report: ContractReport = {
    format: CONTRACT_REPORT_FORMAT,
    version: CONTRACT_REPORT_VERSION,
    environment: environment.name,
    baseUrl,
    checkedAt: new Date(input.context.clock.now()).toISOString(),
    namespaces,
    suggestedNamespaces: suggested,
    services,
    differences,
    summary: {
      differences: differences.length,
      breaking: count('breaking'),
      changed: count('changed'),
      added: count('added'),
      unreadable: services.filter((s) => s.status === 'error').length,
    },
  };
  return { report, documents };
}

/** The URI most records showed; the first seen on a tie. */
function strongest(uris: ReadonlyMap<string, ReadonlySet<string>>): string {
  let best: string | undefined;
  let size = -1;
  for (const [uri, records] of uris)
    if (records.size > size) {
      best = uri;
      size = records.size;
    }
  return best!;
}
