/** HTTP headers as a two-column table, names as sent. */
import { h } from '../dom';

export function headersTable(headers: ReadonlyArray<readonly [string, string]>, caption: string): HTMLElement {
  if (headers.length === 0) return h('p', { className: 'muted' }, 'No headers.');
  return h(
    'table',
    { className: 'kv headers' },
    h('caption', { className: 'visually-hidden' }, caption),
    h('tbody', {}, ...headers.map(([name, value]) => h('tr', {}, h('th', { attrs: { scope: 'row' } }, name), h('td', {}, value)))),
  );
}

/** A key/value fact list; rows whose value is missing are left out. */
export function factsTable(rows: ReadonlyArray<readonly [string, Node | string | number | undefined]>, caption: string): HTMLElement {
  return h(
    'table',
    { className: 'kv facts' },
    h('caption', { className: 'visually-hidden' }, caption),
    h(
      'tbody',
      {},
      ...rows
        .filter(([, v]) => v !== undefined && v !== '')
        .map(([k, v]) => h('tr', {}, h('th', { attrs: { scope: 'row' } }, k), h('td', {}, v as Node | string | number))),
    ),
  );
}
