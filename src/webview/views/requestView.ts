/** The request exactly as sent (redacted): method, URL, headers, body, and trailers a relay saw after it. */
import type { HttpRequestSpec, WireFacts } from '../../core/view';
import { button, h } from '../dom';
import { copy } from '../vscodeApi';
import { bodyBlock } from './codeView';
import { headersTable } from './headersTable';

export function renderRequest(panel: HTMLElement, request: HttpRequestSpec, wire?: WireFacts): void {
  panel.append(
    h(
      'div',
      { className: 'request-line' },
      h('span', { className: `method method-${request.method.toLowerCase()}` }, request.method),
      h('code', { className: 'url' }, request.url),
      button('Copy URL', 'copy', () => copy(request.url, 'URL'), { secondary: true, iconOnly: true }),
    ),
    h('h2', {}, 'Headers'),
    headersTable(request.headers, 'Request headers'),
  );
  if (wire?.requestTrailers) panel.append(h('h2', {}, 'Trailers'), headersTable(wire.requestTrailers, 'Request trailers'));
  if (request.body === '') return;
  panel.append(
    h(
      'div',
      { className: 'section-head' },
      h('h2', {}, request.headers.some(([k, v]) => k.toLowerCase() === 'content-type' && /soap|xml/i.test(v)) ? 'Envelope' : 'Body'),
      button('Copy', 'copy', () => copy(request.body, 'request body'), { secondary: true }),
    ),
    bodyBlock(request.body, 'Request body'),
  );
}
