/**
 * GetTerminalInformation: each terminal as a card, its mailing address and its phone numbers,
 * each copyable. Phone entries are a record the interface document does not expand, so any
 * field that arrives is shown, the number and its kind first.
 */
import type { Exchange } from '../../../core/view';
import { h } from '../../dom';
import { list, rec, text, type Rec } from './read';
import { capped, chip, copyable, copyButton, domainSection } from './widgets';

const MAX_CARDS = 25;

export function renderTerminals(exchange: Exchange): HTMLElement | undefined {
  const terminals = list(rec(exchange.parsed)?.Result).filter((t) => rec(t.TerminalDetails));
  if (terminals.length === 0) return undefined;
  const { shown, more } = capped(terminals, MAX_CARDS, (n) => `${n} terminal${n === 1 ? '' : 's'}`);
  return domainSection(
    'terminal',
    terminals.length === 1 ? 'Terminal' : `${terminals.length} terminals`,
    h('div', { className: 'cards' }, ...shown.map((t, i) => terminalCard(t, i))),
    more,
  );
}

function terminalCard(t: Rec, index: number): HTMLElement {
  const d = rec(t.TerminalDetails)!;
  const name = text(d.TerminalName) ?? text(d.TerminalLocationName) ?? `Terminal ${index + 1}`;
  const code = text(d.TerminalCode);
  const cityLine = [[text(d.TerminalMailingCity), text(d.TerminalMailingState)].filter(Boolean).join(', '), text(d.TerminalMailingZip)]
    .filter(Boolean)
    .join(' ');
  const address = [text(d.TerminalMailingAddress1), text(d.TerminalMailingAddress2), cityLine, text(d.TerminalMailingCountry)].filter((l): l is string =>
    Boolean(l),
  );
  const phones = list(t.TerminalPhoneNumbers)
    .map(phoneOf)
    .filter((p): p is { kind: string; number: string } => p !== undefined);
  const headingId = `terminal-${index}`;
  return h(
    'article',
    { className: 'card terminal', attrs: { 'aria-labelledby': headingId, 'data-path': `Result[${index}]` } },
    h(
      'header',
      { className: 'card-head' },
      h('h3', { id: headingId }, name),
      code ? chip(code, 'Terminal code') : null,
      text(d.TerminalType) ? chip(text(d.TerminalType)!, 'Terminal type', 'chip-quiet') : null,
    ),
    address.length > 0
      ? h(
          'div',
          { className: 'address-block' },
          h('address', {}, ...address.flatMap((line, i) => (i === 0 ? [line] : [h('br'), line]))),
          copyButton(`${name}\n${address.join('\n')}`, `address of ${name}`, { label: 'Copy address' }),
        )
      : null,
    phones.length > 0
      ? h(
          'dl',
          { className: 'facts-grid phones', attrs: { 'aria-label': `Phone numbers of ${name}` } },
          ...phones.flatMap((p) => [h('dt', {}, p.kind), h('dd', {}, copyable(p.number, `${p.kind.toLowerCase()} number of ${name}`))]),
        )
      : null,
  );
}

function phoneOf(p: Rec): { kind: string; number: string } | undefined {
  const number = text(p.PhoneNumber) ?? text(p.Number) ?? text(p.Phone);
  if (!number) {
    const any = Object.entries(p)
      .map(([k, v]) => [k, text(v)] as const)
      .find(([, v]) => v !== undefined);
    return any ? { kind: any[0], number: any[1]! } : undefined;
  }
  return { kind: text(p.PhoneType) ?? text(p.Type) ?? 'Phone', number };
}
