/**
 * GetRateQuote, every version: the service levels side by side (net charge, days, the guaranteed
 * window) with a bar each, and the charges as a table whose lines are summed here, so the reader
 * sees that they come to the net charge, or by how much they do not.
 */
import type { Exchange } from '../../../core/view';
import { h, icon } from '../../dom';
import { plural } from '../../format';
import { formatMoney, parseMoney } from './money';
import { fieldDoc, fieldHolding, list, place, rec, resultRecord, text, int, type Rec } from './read';
import { chip, copyable, copyButton, domainSection } from './widgets';

interface ChargeLine {
  readonly type: string;
  readonly title: string;
  readonly weight?: string;
  readonly rate?: string;
  readonly amount?: string;
  readonly cents?: number;
}

/** Charge types that are subtotals or the total: never added again. */
const SUBTOTALS = new Set(['GROSS', 'DISCNF', 'NET']);

export function renderRateQuote(exchange: Exchange): HTMLElement | undefined {
  const parsed = rec(exchange.parsed);
  const result = rec(parsed?.Result);
  if (!result) return undefined;
  const record = resultRecord(exchange.operation, exchange.version, 'Result');
  const levelsField = fieldHolding(record, 'RateServiceLevel')?.name ?? 'ServiceLevels';
  const chargesField = fieldHolding(record, 'Charge', 'ChargeType')?.name ?? 'Charges';
  const levels = list(result[levelsField]);
  const charges = list(result[chargesField]).map(chargeLine);
  if (levels.length === 0 && charges.length === 0) return undefined;

  return domainSection(
    'rate-quote',
    'Rate quote',
    lane(result),
    levels.length > 0 ? serviceLevels(levels, int(result.ServiceDays), levelsField) : null,
    charges.length > 0 ? chargesTable(charges, chargesField, resultRecord(exchange.operation, exchange.version, 'Result', chargesField)) : null,
  );
}

function lane(result: Rec): HTMLElement | null {
  const from = place(rec(result.Origin));
  const to = place(rec(result.Destination));
  if (!from && !to) return null;
  const center = (r: Rec | undefined) => {
    const code = text(r?.Code);
    return code ? `${code} ${text(r?.Location) ?? ''}`.trim() : undefined;
  };
  const via = [center(rec(result.OriginServiceCenter)), center(rec(result.DestinationServiceCenter))];
  const discount = text(result.CustomerDiscounts);
  return h(
    'p',
    { className: 'lane' },
    h('strong', {}, from ?? '?'),
    h('span', { className: 'arrow', attrs: { 'aria-label': 'to' } }, ' → '),
    h('strong', {}, to ?? '?'),
    via[0] || via[1] ? h('span', { className: 'muted' }, ` · service centers ${via[0] ?? '?'} → ${via[1] ?? '?'}`) : null,
    discount && discount !== '0' ? h('span', { className: 'muted' }, ` · customer discount ${discount}`) : null,
  );
}

function serviceLevels(levels: Rec[], quoteDays: number | undefined, field: string): HTMLElement {
  const nets = levels.map((l) => parseMoney(text(l.NetCharge)));
  const known = nets.filter((n): n is number => n !== undefined);
  const max = Math.max(0, ...known);
  const min = known.length > 0 ? Math.min(...known) : undefined;
  return h(
    'div',
    {},
    h('h3', {}, 'Service levels'),
    h(
      'ul',
      { className: 'levels', attrs: { 'aria-label': `${plural(levels.length, 'service level')} (${field})` } },
      ...levels.map((level, i) => levelCard(level, nets[i], max, nets[i] !== undefined && nets[i] === min && known.length > 1, quoteDays, `${field}[${i}]`)),
    ),
  );
}

function levelCard(level: Rec, net: number | undefined, max: number, cheapest: boolean, quoteDays: number | undefined, path: string): HTMLElement {
  const title = text(level.Title) ?? text(level.Code) ?? 'Service level';
  const code = text(level.Code);
  const days = int(level.ServiceDays) ?? quoteDays;
  const window = rec(level.HourlyWindow);
  const start = text(window?.Start);
  const end = text(window?.End);
  const premium = parseMoney(text(level.Charge));
  const quote = text(level.QuoteNumber);
  const netText = net !== undefined ? formatMoney(net) : (text(level.NetCharge) ?? '—');
  const titleId = `level-${path.replace(/\W+/g, '-')}`;
  const bar = h('span', { className: 'bar', attrs: { 'aria-hidden': 'true' } }, h('span', { className: 'bar-fill' }));
  if (net !== undefined && max > 0) (bar.firstChild as HTMLElement).style.width = `${Math.max(2, (net / max) * 100)}%`;
  const label = [
    `${title}${code ? ` (${code})` : ''}`,
    `net charge ${netText}`,
    days !== undefined ? plural(days, 'day') : undefined,
    start && end ? `guaranteed window ${start} to ${end}` : undefined,
    cheapest ? 'lowest net charge' : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  return h(
    'li',
    { className: `level${cheapest ? ' cheapest' : ''}`, attrs: { 'aria-label': label, 'data-path': path } },
    h('div', { className: 'level-head' }, h('strong', { id: titleId }, title), code ? chip(code, 'Service level code') : null),
    h('div', { className: 'level-net', attrs: { 'aria-hidden': 'true' } }, netText),
    bar,
    h('div', { className: 'level-line', attrs: { 'aria-hidden': 'true' } }, days !== undefined ? plural(days, 'day') : null),
    start && end ? h('div', { className: 'level-line window', attrs: { 'aria-hidden': 'true' } }, icon('watch'), ` ${start} – ${end}`) : null,
    premium !== undefined && premium !== 0 ? h('div', { className: 'level-line muted' }, `+${formatMoney(premium)} service charge`) : null,
    quote ? h('div', { className: 'level-line quote' }, h('span', { className: 'muted' }, 'Quote '), copyable(quote, `quote number ${quote}`)) : null,
    cheapest ? h('span', { className: 'level-tag', attrs: { 'aria-hidden': 'true' } }, 'Lowest') : null,
  );
}

function chargeLine(r: Rec): ChargeLine {
  const amount = text(r.Amount);
  return {
    type: (text(r.Type) ?? '').toUpperCase(),
    title: text(r.Title) ?? text(r.Type) ?? '',
    weight: text(r.Weight),
    rate: text(r.Rate),
    amount,
    cents: parseMoney(amount),
  };
}

/**
 * How the lines come to the net charge: the gross (or, without one, the item lines), plus every
 * line that is not a subtotal (discounts are negative, accessorials and fuel positive).
 */
export function sumCharges(lines: readonly ChargeLine[]): { sum?: number; net?: number; parts: number } {
  const items = lines.filter((l) => l.type === '');
  const gross = lines.find((l) => l.type === 'GROSS');
  const adders = lines.filter((l) => l.type !== '' && !SUBTOTALS.has(l.type));
  const net = lines.find((l) => l.type === 'NET')?.cents;
  const base = gross ? gross.cents : items.every((l) => l.cents !== undefined) && items.length > 0 ? items.reduce((s, l) => s + l.cents!, 0) : undefined;
  if (base === undefined || adders.some((l) => l.cents === undefined)) return { net, parts: 0 };
  return { sum: adders.reduce((s, l) => s + l.cents!, base), net, parts: adders.length + 1 };
}

function chargesTable(lines: ChargeLine[], field: string, record: ReturnType<typeof resultRecord>): HTMLElement {
  const net = lines.find((l) => l.type === 'NET');
  const body = lines.filter((l) => l !== net);
  const { sum, net: netCents } = sumCharges(lines);
  const row = (l: ChargeLine, className: string) =>
    h(
      'tr',
      { className, attrs: { 'data-type': l.type || undefined } },
      h('th', { attrs: { scope: 'row' } }, l.title),
      h('td', { className: 'num' }, l.weight ? `${l.weight} lb` : ''),
      h('td', { className: 'num' }, l.rate ?? ''),
      h('td', { className: 'num' }, l.amount ?? ''),
    );
  const tsv = [['Charge', 'Weight', 'Rate', 'Amount'], ...lines.map((l) => [l.title, l.weight ?? '', l.rate ?? '', l.amount ?? ''])]
    .map((r) => r.join('\t'))
    .join('\n');
  const check =
    sum === undefined || netCents === undefined
      ? null
      : sum === netCents
        ? h('p', { className: 'sum-check ok' }, icon('pass'), ` The lines add up to the net charge, ${formatMoney(netCents)}.`)
        : h(
            'p',
            { className: 'sum-check bad', role: 'note' },
            icon('warning'),
            ` The lines add up to ${formatMoney(sum)}, but the net charge is ${formatMoney(netCents)} (${formatMoney(netCents - sum)} apart).`,
          );
  return h(
    'div',
    {},
    h('div', { className: 'section-head' }, h('h3', {}, 'Charges'), copyButton(tsv, 'charges as a table', { label: 'Copy table', showLabel: true })),
    h(
      'table',
      { className: 'kv charges', attrs: { 'data-field': field } },
      h('caption', { className: 'visually-hidden' }, 'Charges of the quote, from the item lines to the net charge'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { attrs: { scope: 'col' }, title: fieldDoc(record, 'Title') }, 'Charge'),
          h('th', { className: 'num', attrs: { scope: 'col' } }, 'Weight'),
          h('th', { className: 'num', attrs: { scope: 'col' } }, 'Rate'),
          h('th', { className: 'num', attrs: { scope: 'col' }, title: fieldDoc(record, 'Amount') }, 'Amount'),
        ),
      ),
      h('tbody', {}, ...body.map((l) => row(l, l.type === '' ? 'item' : SUBTOTALS.has(l.type) ? 'subtotal' : 'adder'))),
      net ? h('tfoot', {}, row(net, 'total')) : null,
    ),
    check,
  );
}
