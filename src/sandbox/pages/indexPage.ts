/**
 * `GET {path}`: the service page — the service's name and version, its operations with the
 * catalog's one-line descriptions (src/core/catalog/), and links to the WSDL and to each operation page.
 */
import { BINDING_LABELS, servicePaths, type OperationDef } from '../../core';
import type { Reply } from '../http/reply';
import { esc, page } from './html';
import { operationPageHref, relativeHref } from './links';

export function indexPage(path: string, shapes: readonly OperationDef[]): Reply {
  const first = shapes[0];
  const service = first?.service ?? 'Service';
  const version = first?.version ?? '';
  const items = shapes
    .map(
      (
        op,
      ) => `<li><a class="name" href="${esc(relativeHref(path, operationPageHref(path, op.operation)))}">${esc(op.operation)}</a><span class="badges">${op.bindings.map((b) => `<span class="badge${b === 'get' || b === 'post' ? ' http' : ''}">${esc(BINDING_LABELS[b])}</span>`).join('')}</span>
<p>${esc(op.description)}</p></li>`,
    )
    .join('\n');
  const others = [...servicePaths().entries()]
    .filter(([p]) => p !== path)
    .map(
      ([p, ops]) =>
        `<li><a href="${esc(relativeHref(path, p))}">${esc(ops[0].service)} ${esc(ops[0].version)}</a> <span class="muted">— ${ops.map((o) => esc(o.operation)).join(', ')}</span></li>`,
    )
    .join('\n');
  const body = `<h1>${esc(service)}<span class="version">version ${esc(version)}</span></h1>
<p class="lead"><code>${esc(path)}</code> · For a formal definition, see the <a href="${esc(relativeHref(path, `${path}?WSDL`))}">service description (WSDL)</a>.</p>
<h2>Operations</h2>
<ul class="ops">
${items}
</ul>
<h2>Other services in this sandbox</h2>
<ul class="services">
${others}
</ul>`;
  return page({ title: `${service} ${version}`, trail: [[`${service} ${version}`, undefined]], body });
}
