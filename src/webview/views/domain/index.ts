/**
 * The operation's own view at the top of the Summary, drawn from the parsed reply: a rate quote
 * as a price comparison, a trace as a timeline, transit times as a table of days. Operations
 * without one keep the generic summary, and so does a reply whose shape a view cannot read.
 */
import type { Exchange } from '../../../core/view';
import { renderRateQuote } from './rateQuote';
import { renderBillOfLading, renderPickup, type NumberActions } from './shipmentNumbers';
import { renderTerminals } from './terminal';
import { renderTrace } from './trace';
import { renderTransitTimes } from './transitTimes';

export type DomainActions = NumberActions;

const VIEWS: ReadonlyMap<string, (exchange: Exchange, actions: DomainActions) => HTMLElement | undefined> = new Map([
  ['GetRateQuote', renderRateQuote],
  ['TraceShipment', renderTrace],
  ['GetTransitTimes', renderTransitTimes],
  ['GetTerminalInformation', renderTerminals],
  ['CreateBillOfLading', renderBillOfLading],
  ['CreatePickupRequest', renderPickup],
]);

/** Whether the operation has a view of its own: the panel then opens on the Summary. */
export function hasDomainView(exchange: Exchange): boolean {
  return exchange.operation !== undefined && VIEWS.has(exchange.operation) && !exchange.fault && exchange.parsed !== undefined;
}

/** The view and its name (for the render report), or undefined when the summary stays generic. */
export function renderDomainView(exchange: Exchange, actions: DomainActions): { id: string; element: HTMLElement } | undefined {
  const view = hasDomainView(exchange) ? VIEWS.get(exchange.operation!) : undefined;
  const element = view?.(exchange, actions);
  return element ? { id: element.dataset.domain ?? exchange.operation!, element } : undefined;
}
