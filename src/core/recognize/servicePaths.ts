/**
 * Which service a path names. Paths are matched without regard to case, as IIS matches them, and
 * `{path}/<Operation>` names an operation of the HTTP GET and POST bindings
 * (docs/wire.md#transport-rule-5, docs/wire.md#transport-rule-6).
 */
import { servicePaths } from '../catalog';
import type { OperationDef } from '../catalog/types';

export interface ServiceRoute {
  /** The catalog's spelling, e.g. `/1.0.3/RateQuoteService.asmx`. */
  readonly path: string;
  readonly shapes: readonly OperationDef[];
}

export type ServiceTable = ReadonlyMap<string, ServiceRoute>;

/** Service paths by lower-cased path. */
export function serviceTable(): ServiceTable {
  const table = new Map<string, ServiceRoute>();
  for (const [path, shapes] of servicePaths()) table.set(path.toLowerCase(), { path, shapes });
  return table;
}

let shared: ServiceTable | undefined;
/** One table for the process: the catalog does not change while it runs. */
export function defaultServiceTable(): ServiceTable {
  return (shared ??= serviceTable());
}

export function findService(table: ServiceTable, pathname: string): ServiceRoute | undefined {
  return table.get(pathname.toLowerCase());
}

export type OperationUrl = { readonly route: ServiceRoute; readonly operation: string } | { readonly route: ServiceRoute; readonly badEncoding: true };

/** `{service path}/<Operation>`: the service and the operation segment, percent-decoded. */
export function findOperationUrl(table: ServiceTable, pathname: string): OperationUrl | undefined {
  const slash = pathname.lastIndexOf('/');
  if (slash <= 0) return undefined;
  const route = table.get(pathname.slice(0, slash).toLowerCase());
  if (!route) return undefined;
  try {
    return { route, operation: decodeURIComponent(pathname.slice(slash + 1)) };
  } catch {
    return { route, badEncoding: true };
  }
}

export function wantsWsdl(query: URLSearchParams): boolean {
  for (const key of query.keys()) if (key.toLowerCase() === 'wsdl') return true;
  return false;
}
