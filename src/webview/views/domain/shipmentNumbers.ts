/**
 * CreateBillOfLading and CreatePickupRequest: the numbers a user copies next (the BOL's id, the
 * PRO, the pickup number), each with one-click copy, and the next requests written for them: a
 * trace of the PRO, the BOL's PDF. Those are new request files the extension opens; the webview
 * only says which.
 */
import type { DecodedDocument, Exchange } from '../../../core/view';
import type { FollowUp } from '../../protocol';
import { button, h, icon, linkButton } from '../../dom';
import { rec, text, type Rec } from './read';
import { copyButton, domainSection } from './widgets';

export interface NumberActions {
  readonly followUp: (request: FollowUp) => void;
  readonly showDocuments: () => void;
}

interface Tile {
  readonly label: string;
  readonly value: string;
  readonly path: string;
  readonly action?: HTMLElement;
}

export function renderBillOfLading(exchange: Exchange, actions: NumberActions): HTMLElement | undefined {
  const r = rec(exchange.parsed);
  if (!r || r.WasSuccess === false) return undefined;
  const tiles = numberTiles(r, '', actions);
  const pickup = text(r.PickupRequestNumber);
  if (pickup) tiles.push({ label: 'Pickup request number', value: pickup, path: 'PickupRequestNumber' });
  if (tiles.length === 0) return undefined;
  return domainSection('bill-of-lading', 'Bill of lading created', tilesList(tiles), documentsLink(exchange.documents, actions));
}

export function renderPickup(exchange: Exchange, actions: NumberActions): HTMLElement | undefined {
  const r = rec(exchange.parsed);
  const pickup = rec(r?.Pickup);
  if (!r || pickup?.WasSuccess === false) return undefined;
  const details = rec(pickup?.Result);
  const number = text(r.PickupRequestID) ?? text(pickup?.Id);
  const tiles: Tile[] = number ? [{ label: 'Pickup number', value: number, path: text(r.PickupRequestID) ? 'PickupRequestID' : 'Pickup.Id' }] : [];
  // The linked bill of lading is a record the interface document leaves open: read what came.
  const bol = rec(details?.BOL);
  if (bol) tiles.push(...numberTiles(bol, 'Pickup.Result.BOL.', actions, 'Linked '));
  if (tiles.length === 0) return undefined;
  const window = [text(details?.ReadyTime), text(details?.CloseTime)].filter(Boolean).join(' – ');
  const when = [text(details?.PickupDate), window].filter(Boolean).join(', ');
  const terminal = text(details?.TerminalCode);
  return domainSection(
    'pickup',
    'Pickup requested',
    when || terminal ? h('p', { className: 'lane' }, icon('calendar'), ` ${when}${terminal ? ` · terminal ${terminal}` : ''}`) : null,
    tilesList(tiles),
    documentsLink(exchange.documents, actions),
  );
}

function numberTiles(r: Rec, prefix: string, actions: NumberActions, lead = ''): Tile[] {
  const tiles: Tile[] = [];
  const bolId = text(r.BolID);
  const pro = text(r.WebProNumber);
  if (bolId) {
    tiles.push({
      label: `${lead}BOL ID`,
      value: bolId,
      path: `${prefix}BolID`,
      action: button('Get this BOL’s PDF', 'file-pdf', () => actions.followUp({ kind: 'bol-pdf', bolId }), {
        secondary: true,
        title: `Open a new GetBillOfLadingPdf request for BOL ${bolId}`,
      }),
    });
  }
  if (pro) {
    tiles.push({
      label: `${lead}PRO number`,
      value: pro,
      path: `${prefix}WebProNumber`,
      action: button('Trace this PRO', 'search', () => actions.followUp({ kind: 'trace-pro', pro }), {
        secondary: true,
        title: `Open a new TraceShipment request for PRO ${pro}`,
      }),
    });
  }
  return tiles;
}

function tilesList(tiles: readonly Tile[]): HTMLElement {
  return h(
    'ul',
    { className: 'numbers', attrs: { 'aria-label': 'Numbers to copy' } },
    ...tiles.map((t) => {
      const id = `number-${t.path.replace(/\W+/g, '-')}`;
      return h(
        'li',
        { className: 'number-tile', attrs: { 'aria-labelledby': id, 'data-path': t.path } },
        h('span', { className: 'number-label', id }, t.label),
        h(
          'span',
          { className: 'number-line' },
          h('code', { className: 'number-value' }, t.value),
          copyButton(t.value, `${t.label} ${t.value}`, { label: `Copy ${t.label}` }),
        ),
        t.action ? h('span', { className: 'number-actions' }, t.action) : null,
      );
    }),
  );
}

function documentsLink(documents: readonly DecodedDocument[], actions: NumberActions): HTMLElement | null {
  const pdf = documents.find((d) => d.mediaType === 'application/pdf');
  if (!pdf) return null;
  return h(
    'p',
    {},
    icon('file-pdf'),
    ' ',
    linkButton(
      `The reply carries ${pdf.name}${pdf.pages ? ` (${pdf.pages} page${pdf.pages === 1 ? '' : 's'})` : ''}: show it`,
      actions.showDocuments,
      'Open the Documents tab',
    ),
  );
}
