/**
 * GetTransitTimes: the origin and pickup day, then one row per destination with its service
 * center, service days (with a bar, so the lanes compare at a glance) and delivery date; a
 * destination's own error or note stays on its row. In a narrow panel (beside an editor) each row
 * is drawn stacked instead (panel.css, a container query): five columns leave the notes a sliver.
 */
import type { Exchange } from '../../../core/view';
import { h, icon } from '../../dom';
import { plural } from '../../format';
import { calendarDay } from './dates';
import { int, list, place, rec, text, type Rec } from './read';
import { capped, chip, domainSection } from './widgets';

const MAX_ROWS = 200;

export function renderTransitTimes(exchange: Exchange): HTMLElement | undefined {
  const result = rec(rec(exchange.parsed)?.Result);
  const destinations = list(result?.Destinations);
  if (!result || destinations.length === 0) return undefined;
  const origin = rec(result.Origin);
  const originCenter = rec(origin?.ServiceCenterInfo);
  const maxDays = Math.max(1, ...destinations.map((d) => int(d.ServiceDays) ?? 0));
  const pickup = text(result.PickupDate);
  const { shown, more } = capped(destinations, MAX_ROWS, (n) => `${n} destination${n === 1 ? '' : 's'}`);
  return domainSection(
    'transit-times',
    'Transit times',
    h(
      'p',
      { className: 'lane' },
      'From ',
      h('strong', {}, place(rec(origin?.OriginPoint)) ?? '?'),
      originCenter
        ? h(
            'span',
            { className: 'muted' },
            ` · service center ${[text(originCenter.ServiceCenterCode), text(originCenter.ServiceCenterLocation)].filter(Boolean).join(' ')}`,
          )
        : null,
      pickup ? [' · picked up ', h('time', { attrs: { datetime: pickup } }, calendarDay(pickup) ?? pickup)] : null,
    ),
    h(
      'div',
      { className: 'table-scroll' },
      h(
        'table',
        // Roles stated: the stacked layout (panel.css) changes the rows' display, not what they are.
        { className: 'kv transit', role: 'table' },
        h('caption', { className: 'visually-hidden' }, `Transit times to ${plural(destinations.length, 'destination')}`),
        h(
          'thead',
          { role: 'rowgroup' },
          h(
            'tr',
            { role: 'row' },
            h('th', { role: 'columnheader', attrs: { scope: 'col' } }, 'Destination'),
            h('th', { role: 'columnheader', attrs: { scope: 'col' } }, 'Service center'),
            h('th', { className: 'num', role: 'columnheader', attrs: { scope: 'col' } }, 'Service days'),
            h('th', { role: 'columnheader', attrs: { scope: 'col' } }, 'Delivery'),
            h('th', { role: 'columnheader', attrs: { scope: 'col' } }, 'Notes'),
          ),
        ),
        h('tbody', { role: 'rowgroup' }, ...shown.map((d, i) => destinationRow(d, i, maxDays))),
      ),
    ),
    more,
  );
}

function destinationRow(d: Rec, index: number, maxDays: number): HTMLElement {
  const days = int(d.ServiceDays);
  const center = rec(d.ServiceCenterInfo);
  const delivery = text(d.DeliveryDate);
  const problem = rec(d.Result);
  const level = text(problem?.Level);
  const bar = h('span', { className: 'bar small', attrs: { 'aria-hidden': 'true' } }, h('span', { className: 'bar-fill' }));
  if (days !== undefined) (bar.firstChild as HTMLElement).style.width = `${Math.max(4, (days / maxDays) * 100)}%`;
  const levels = list(d.ServiceLevels)
    .map((l) => text(l.ServiceLevelCode))
    .filter((c): c is string => c !== undefined);
  return h(
    'tr',
    { role: 'row', attrs: { 'data-path': `Result.Destinations[${index}]` } },
    h('th', { role: 'rowheader', attrs: { scope: 'row' } }, place(rec(d.DestinationPoint)) ?? `Destination ${index + 1}`),
    h(
      'td',
      { className: 'center', role: 'cell' },
      center ? [text(center.ServiceCenterCode) ?? '', h('span', { className: 'muted' }, ` ${text(center.ServiceCenterLocation) ?? ''}`)] : '—',
    ),
    h(
      'td',
      { className: 'num days', role: 'cell' },
      days !== undefined ? [h('span', { className: 'days-count', attrs: { 'data-unit': days === 1 ? 'day' : 'days' } }, String(days)), bar] : '—',
    ),
    h('td', { className: 'delivery', role: 'cell' }, delivery ? h('time', { attrs: { datetime: delivery } }, calendarDay(delivery) ?? delivery) : '—'),
    h(
      'td',
      { className: 'notes', role: 'cell' },
      problem && text(problem.Message)
        ? h(
            'span',
            { className: `note-${(level ?? 'info').toLowerCase()}` },
            icon(level === 'Error' ? 'error' : level === 'Warning' ? 'warning' : 'info'),
            ` ${text(problem.Message)}`,
          )
        : null,
      text(d.DestinationNotes) ? h('span', {}, text(d.DestinationNotes)!) : null,
      levels.length > 0
        ? h('span', { className: 'levels-line', attrs: { 'aria-label': `Service levels: ${levels.join(', ')}` } }, ...levels.map((c) => chip(c)))
        : null,
    ),
  );
}
