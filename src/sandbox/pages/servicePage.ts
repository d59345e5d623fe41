/**
 * The page a browser gets for GET on a service path without `?WSDL`.
 *
 * HOOK: this is the single entry point the router calls for service pages. It is deliberately
 * plain (a list of the operations and links to the WSDL); the full service pages (operation
 * pages, test forms for the HTTP POST binding, sample envelopes) replace the body of this
 * function without touching the router. `query` carries `?op=…` and the like for them.
 */
import type { Namespaces } from '../../core/catalog';
import type { OperationDef } from '../../core/catalog/types';
import { BINDING_LABELS } from '../../core/catalog/types';

export interface ServicePageInput {
  readonly path: string;
  readonly shapes: readonly OperationDef[];
  readonly namespaces: Namespaces;
  /** `http://host:port` as the browser reached the sandbox. */
  readonly baseUrl: string;
  readonly query: URLSearchParams;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function servicePage(input: ServicePageInput): string {
  const service = input.shapes[0]?.service ?? 'Service';
  const items = input.shapes
    .map((op) => `<li><b>${escapeHtml(op.operation)}</b> (${op.version}) — ${escapeHtml(op.description)}<br><small>${op.bindings.map((b) => BINDING_LABELS[b]).join(', ')}</small></li>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(service)} — Carrier sandbox</title></head>
<body>
<h1>${escapeHtml(service)}</h1>
<p>Carrier sandbox, ${escapeHtml(input.path)}. The following operations are supported. For a formal definition, see the <a href="${escapeHtml(input.path)}?WSDL">service description</a>.</p>
<ul>
${items}
</ul>
</body></html>
`;
}
