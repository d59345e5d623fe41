/**
 * TraceShipment: one card per shipment, its status history as a timeline (date, code, what
 * happened, where), and the shipment's own error in place of it when the service reports one.
 */
import type { Exchange } from '../../../core/view';
import { h, icon } from '../../dom';
import { list, rec, text, type Rec } from './read';
import { capped, chip, copyable, copyButton, domainSection } from './widgets';

const MAX_CARDS = 25;
const MAX_EVENTS = 100;

export function renderTrace(exchange: Exchange): HTMLElement | undefined {
  // A card needs something to say: a number, a status or an error.
  const shipments = list(rec(exchange.parsed)?.Result)
    .map((s, index) => ({ s, index }))
    .filter(({ s }) => text(s.ShipmentNumber) || text(s.ShortStatus) || shipmentError(s));
  if (shipments.length === 0) return undefined;
  const { shown, more } = capped(shipments, MAX_CARDS, (n) => `${n} shipment${n === 1 ? '' : 's'}`);
  return domainSection(
    'trace',
    shipments.length === 1 ? 'Shipment' : `${shipments.length} shipments`,
    h('div', { className: 'cards' }, ...shown.map(({ s, index }) => shipmentCard(s, index))),
    more,
  );
}

function shipmentCard(s: Rec, index: number): HTMLElement {
  const number = text(s.ShipmentNumber);
  const headingId = `shipment-${index}`;
  const error = shipmentError(s);
  const status = text(s.ShortStatus);
  const refs = rec(s.ReferenceNumbers);
  const dates = rec(s.ShipmentDates);
  const parties = rec(s.Parties);
  const party = (r: Rec | undefined) => {
    if (!r) return undefined;
    const where = [text(r.City), text(r.State)].filter(Boolean).join(', ');
    return [text(r.Name), where].filter(Boolean).join(' · ') || undefined;
  };
  const events = list(rec(s.StatusHistory)?.StatusEvent);
  const facts: Array<[string, Node | string | undefined]> = [
    ['From', party(rec(parties?.Shipper))],
    ['To', party(rec(parties?.Consignee))],
    ['Picked up', text(dates?.PickupDate)],
    ['Delivered', text(dates?.DeliveryDate)],
    ['Signed by', text(dates?.SignedBy)],
    ['Freight', [text(s.Piece) && `${text(s.Piece)} piece${text(s.Piece) === '1' ? '' : 's'}`, text(s.Weight)].filter(Boolean).join(', ') || undefined],
    ['Service', text(s.ServiceLevel)],
    ['BOL', text(refs?.BOL) ? copyable(text(refs?.BOL)!, `BOL number ${text(refs?.BOL)}`) : undefined],
    ['PO', text(refs?.PO) ? copyable(text(refs?.PO)!, `PO number ${text(refs?.PO)}`) : undefined],
  ];
  const shown = facts.filter((f): f is [string, Node | string] => f[1] !== undefined);
  return h(
    'article',
    { className: `card shipment${error ? ' has-error' : ''}`, attrs: { 'aria-labelledby': headingId, 'data-path': `Result[${index}]` } },
    h(
      'header',
      { className: 'card-head' },
      h('h3', { id: headingId }, number ? `PRO ${number}` : `Shipment ${index + 1}`),
      number ? copyButton(number, `PRO ${number}`, { label: 'Copy the PRO' }) : null,
      status ? chip(status, 'Status', status.toLowerCase() === 'delivered' ? 'chip-ok' : '') : null,
    ),
    error
      ? h(
          'div',
          { className: 'callout callout-error', role: 'note' },
          icon('error'),
          h('div', {}, h('strong', {}, error.code ? `${error.code}` : 'Error'), h('p', {}, error.message)),
        )
      : null,
    text(s.LongStatus) ? h('p', { className: 'long-status' }, text(s.LongStatus)!) : null,
    shown.length > 0 ? h('dl', { className: 'facts-grid' }, ...shown.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])) : null,
    events.length > 0 ? timeline(events, number) : null,
  );
}

function shipmentError(s: Rec): { code?: string; message: string } | undefined {
  const err = rec(s.ErrResponse);
  const message = text(s.ErrorMessage) ?? text(err?.Message);
  if (!message && !text(err?.Code)) return undefined;
  return { code: text(err?.Code), message: message ?? '' };
}

function timeline(all: Rec[], number: string | undefined): HTMLElement {
  const { shown: events, more } = capped(all, MAX_EVENTS, (n) => `${n} event${n === 1 ? '' : 's'}`);
  return h(
    'div',
    {},
    h('h4', {}, 'Status history'),
    h(
      'ol',
      { className: 'timeline', attrs: { 'aria-label': `Status history${number ? ` of PRO ${number}` : ''}, oldest first` } },
      ...events.map((e, i) => {
        const where = [[text(e.City), text(e.State)].filter(Boolean).join(', '), text(e.TerminalCode) && `terminal ${text(e.TerminalCode)}`]
          .filter(Boolean)
          .join(' · ');
        const code = text(e.Code);
        return h(
          'li',
          { className: `event${i === events.length - 1 ? ' latest' : ''}` },
          h('span', { className: 'dot', attrs: { 'aria-hidden': 'true' } }),
          h(
            'div',
            { className: 'event-line' },
            h('span', { className: 'event-date' }, text(e.Date) ?? ''),
            code ? chip(code, text(e.Status) ? `${code}: ${text(e.Status)}` : 'Status code') : null,
            h('span', { className: 'event-what' }, text(e.Description) ?? text(e.Status) ?? ''),
          ),
          where ? h('div', { className: 'event-where muted' }, icon('location'), ` ${where}`) : null,
        );
      }),
    ),
    more,
  );
}
