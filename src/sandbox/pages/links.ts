/** Addresses of the service pages, shared by the pages themselves and by the extension's command. */
import { servicePath, type OperationDef } from '../../core';

/** `{path}?op=<Operation>`, with extra query parameters after it (e.g. `soap=1.2`). */
export function operationPageHref(path: string, operation: string, extra: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams({ op: operation, ...extra });
  return `${path}?${query.toString()}`;
}

/** The operation page of a shape on a running sandbox, e.g. for the extension to open in a browser. */
export function operationPageUrl(sandboxUrl: string, op: Pick<OperationDef, 'operation' | 'version' | 'service'>): string {
  return `${sandboxUrl.replace(/\/+$/, '')}${operationPageHref(servicePath(op), op.operation)}`;
}

/**
 * `target` (an absolute path, with any query or fragment) as a link from the page served at
 * `pagePath`. Pages link relatively so that they keep working when the sandbox is reached under a
 * path prefix: code-server serves it at /proxy/<port>/ when Open Service Page runs there.
 */
export function relativeHref(pagePath: string, target: string): string {
  const cut = target.search(/[?#]/);
  const [targetPath, rest] = cut < 0 ? [target, ''] : [target.slice(0, cut), target.slice(cut)];
  const from = pagePath.split('/').slice(1, -1);
  const to = targetPath.split('/').slice(1);
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const relative = [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
  // "./" keeps a first segment such as "a:b" from reading as a URL scheme.
  return `${relative.split('/')[0].includes(':') ? './' : ''}${relative}${rest}`;
}

/** The HTTP GET and POST operation URL (docs/wire.md#transport-rule-5, docs/wire.md#transport-rule-6). */
export function httpOperationHref(path: string, operation: string): string {
  return `${path}/${encodeURIComponent(operation)}`;
}
