/** Addresses of the service pages, shared by the pages themselves and by the extension's command. */
import { servicePath } from '../../core/catalog';
import type { OperationDef } from '../../core/catalog/types';

/** `{path}?op=<Operation>`, with extra query parameters after it (e.g. `soap=1.2`). */
export function operationPageHref(path: string, operation: string, extra: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams({ op: operation, ...extra });
  return `${path}?${query.toString()}`;
}

/** The operation page of a shape on a running sandbox, e.g. for the extension to open in a browser. */
export function operationPageUrl(sandboxUrl: string, op: Pick<OperationDef, 'operation' | 'version' | 'service'>): string {
  return `${sandboxUrl.replace(/\/+$/, '')}${operationPageHref(servicePath(op), op.operation)}`;
}

/** The HTTP GET and POST operation URL (transport rules 5 and 6). */
export function httpOperationHref(path: string, operation: string): string {
  return `${path}/${encodeURIComponent(operation)}`;
}
