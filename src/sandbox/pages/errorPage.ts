/** Refusals of the service pages (an unknown operation, a test form used from elsewhere) as pages, with their status. */
import type { OperationDef } from '../../core';
import type { Reply } from '../http/reply';
import { esc, page } from './html';
import { operationPageHref, relativeHref } from './links';

export function errorPage(status: number, title: string, messageHtml: string, path: string, shapes: readonly OperationDef[]): Reply {
  const service = shapes[0] ? `${shapes[0].service} ${shapes[0].version}` : path;
  const links = shapes.map((op) => `<li><a href="${esc(relativeHref(path, operationPageHref(path, op.operation)))}">${esc(op.operation)}</a></li>`).join('\n');
  const body = `<h1>${esc(title)}</h1>
<p class="notice">${messageHtml}</p>
<h2>Operations of <a href="${esc(relativeHref(path, path))}">${esc(service)}</a></h2>
<ul>
${links}
</ul>`;
  return page({
    status,
    title,
    trail: [
      [service, relativeHref(path, path)],
      [title, undefined],
    ],
    body,
  });
}

/** `?op=` naming no operation of this path; a name that differs only in case is pointed out (docs/wire.md#transport-rule-9). */
export function unknownOperationPage(path: string, shapes: readonly OperationDef[], name: string): Reply {
  const twin = shapes.find((s) => s.operation.toLowerCase() === name.toLowerCase());
  const hint = twin
    ? ` Operation names are case-sensitive: did you mean <a href="${esc(relativeHref(path, operationPageHref(path, twin.operation)))}">${esc(twin.operation)}</a>?`
    : '';
  return errorPage(404, 'Operation not found', `This service has no operation named <code>${esc(name)}</code>.${hint}`, path, shapes);
}
