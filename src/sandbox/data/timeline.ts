/**
 * A shipment's whole life as status events, planned up front from its pickup time and route:
 * BOL received -> picked up -> origin terminal -> linehaul through breakbulks -> destination
 * terminal -> out for delivery -> delivered, with the exceptions LTL freight really meets.
 * Tracing shows the prefix of this plan that lies before "now", which is how status moves as
 * time passes without the sandbox keeping any state.
 *
 * Clock times are chosen in UTC to look like a working day (pickups in the afternoon, linehaul
 * departures in the evening, deliveries from 07:00), since the sandbox reads time in UTC.
 */
import { addBusinessDays } from '../../core';
import { formatPounds, formatUsDate } from './format';
import { distanceMiles } from './geography';
import { randomInt, type Random } from './prng';
import type { Terminal } from './terminals';

export type ShortStatus = 'Pickup Scheduled' | 'Picked Up' | 'In Transit' | 'Out For Delivery' | 'Delivered' | 'Exception';

/**
 * BOL: shipment information received; PU: picked up; AR/DP: terminal arrival/departure;
 * RW: reweighed; AP: delivery appointment set; OFD: out for delivery; EX: exception;
 * RT: returned to terminal; DL: delivered.
 */
export type EventCode = 'BOL' | 'PU' | 'AR' | 'DP' | 'RW' | 'AP' | 'OFD' | 'EX' | 'RT' | 'DL';

export type ExceptionKind = 'ConsigneeClosed' | 'Refused' | 'Damaged' | 'Appointment';

export interface StatusEvent {
  readonly at: Date;
  readonly code: EventCode;
  /** The shipment's short status once this event has happened. */
  readonly status: ShortStatus;
  readonly description: string;
  readonly city: string;
  readonly state: string;
  readonly terminalCode?: string;
}

export interface TimelinePlan {
  readonly events: StatusEvent[];
  readonly estimatedDeliveryAt: Date;
  readonly deliveredAt?: Date;
}

export interface TimelineInput {
  readonly pickupAt: Date;
  readonly shipper: { City: string; State: string };
  readonly consignee: { City: string; State: string };
  /** Terminals the freight passes through, origin first, destination last (may be one). */
  readonly route: readonly Terminal[];
  readonly transitDays: number;
  readonly exception?: ExceptionKind;
  /** Scale weight when the origin reweighs the freight. */
  readonly reweighedTo?: number;
  readonly signer: string;
  readonly random: Random;
  /**
   * Move the finished plan so that the first event with this code happens at this time
   * (gaps between events are kept; dates written into descriptions follow the move).
   */
  readonly pin?: { readonly code: EventCode; readonly at: Date };
}

/** Descriptions that name a later date are written once the plan's times are final. */
type Text = string | ((nextOutForDelivery: Date | undefined) => string);
type Draft = Omit<StatusEvent, 'description' | 'at'> & { at: Date; text: Text };

const HOUR = 3_600_000;
const MINUTE = 60_000;
const LINEHAUL_MPH = 48;

function at(base: Date, hours: number): Date {
  return new Date(base.getTime() + Math.round(hours * 60) * MINUTE);
}

function dayStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function render(drafts: readonly Draft[]): StatusEvent[] {
  return drafts.map((d, i) => {
    const { text, ...event } = d;
    const nextOfd = drafts.slice(i + 1).find((e) => e.code === 'OFD')?.at;
    return { ...event, description: typeof text === 'string' ? text : text(nextOfd) };
  });
}

export function planTimeline(input: TimelineInput): TimelinePlan {
  const { route, random } = input;
  const origin = route[0]!;
  const destination = route[route.length - 1]!;
  const drafts: Draft[] = [];
  const add = (e: Draft): void => void drafts.push(e);
  const atTerminal = (t: Terminal) => ({ city: t.TerminalMailingCity, state: t.TerminalMailingState, terminalCode: t.TerminalCode });
  const atShipper = { city: input.shipper.City, state: input.shipper.State };
  const atConsignee = { city: input.consignee.City, state: input.consignee.State };
  const onDate = (d: Date | undefined): string => (d ? formatUsDate(d) : 'a later date');

  add({ at: at(input.pickupAt, -randomInt(random, 4, 28)), code: 'BOL', status: 'Pickup Scheduled', text: 'Shipment information received', ...atShipper });
  add({ at: input.pickupAt, code: 'PU', status: 'Picked Up', text: 'Picked up', ...atShipper });

  let clock = at(input.pickupAt, 1.5 + random() * 1.5);
  add({ at: clock, code: 'AR', status: 'Picked Up', text: `Arrived at ${origin.TerminalName}`, ...atTerminal(origin) });
  if (input.reweighedTo !== undefined) {
    clock = at(clock, 0.5 + random());
    add({ at: clock, code: 'RW', status: 'Picked Up', text: `Reweighed at ${origin.TerminalName}: ${formatPounds(input.reweighedTo)} lb`, ...atTerminal(origin) });
  }

  if (route.length > 1) {
    // Linehaul leaves in the evening of the pickup day (or a few hours after arrival).
    const evening = at(dayStart(clock), 20 + random() * 2.5);
    clock = evening.getTime() > clock.getTime() + 2 * HOUR ? evening : at(clock, 2 + random());
    add({ at: clock, code: 'DP', status: 'In Transit', text: `Departed ${origin.TerminalName}`, ...atTerminal(origin) });
    for (let i = 1; i < route.length; i++) {
      const leg = distanceMiles(route[i - 1]!, route[i]!);
      clock = at(clock, leg / LINEHAUL_MPH + 0.5 + random());
      const t = route[i]!;
      add({ at: clock, code: 'AR', status: 'In Transit', text: `Arrived at ${t.TerminalName}`, ...atTerminal(t) });
      if (i < route.length - 1) {
        clock = at(clock, 2.5 + random() * 2.5);
        add({ at: clock, code: 'DP', status: 'In Transit', text: `Departed ${t.TerminalName}`, ...atTerminal(t) });
      }
    }
  }
  const arrived = clock;

  // Delivery day: the service standard, or later when the freight is not at the terminal by
  // early morning of that day.
  let deliveryDay = addBusinessDays(dayStart(input.pickupAt), Math.max(1, input.transitDays));
  while (deliveryDay.getTime() + 7 * HOUR < arrived.getTime() + 2 * HOUR) deliveryDay = addBusinessDays(deliveryDay, 1);
  let estimatedDeliveryAt = at(deliveryDay, 17);

  if (input.exception === 'Appointment') {
    deliveryDay = addBusinessDays(deliveryDay, 1);
    add({ at: at(arrived, 1 + random()), code: 'AP', status: 'In Transit', text: (d) => `Delivery appointment scheduled for ${onDate(d)}`, ...atTerminal(destination) });
  }

  const outForDelivery = (day: Date): Date => {
    const t = at(day, 7 + random() * 1.5);
    add({ at: t, code: 'OFD', status: 'Out For Delivery', text: `Out for delivery from ${destination.TerminalName}`, ...atTerminal(destination) });
    return t;
  };

  let ofd = outForDelivery(deliveryDay);
  let deliveredAt: Date | undefined;
  if (input.exception === 'ConsigneeClosed') {
    const ex = at(ofd, 2 + random() * 2);
    add({ at: ex, code: 'EX', status: 'Exception', text: 'Delivery exception: consignee closed', ...atConsignee });
    add({ at: at(ex, 1.5 + random()), code: 'RT', status: 'Exception', text: (d) => `Returned to ${destination.TerminalName}; delivery will be reattempted ${onDate(d)}`, ...atTerminal(destination) });
    ofd = outForDelivery(addBusinessDays(deliveryDay, 1));
  }
  if (input.exception === 'Refused') {
    const ex = at(ofd, 2 + random() * 2);
    add({ at: ex, code: 'EX', status: 'Exception', text: 'Refused by consignee: not ordered', ...atConsignee });
    add({ at: at(ex, 1.5 + random()), code: 'RT', status: 'Exception', text: `Returned to ${destination.TerminalName}; awaiting disposition from shipper`, ...atTerminal(destination) });
  } else {
    deliveredAt = at(ofd, 2.5 + random() * 3.5);
    const signed = `signed by ${input.signer}`;
    const text = input.exception === 'Damaged' ? `Delivered with exception: 1 piece damaged, ${signed}` : `Delivered, ${signed}`;
    add({ at: deliveredAt, code: 'DL', status: 'Delivered', text, ...atConsignee });
  }

  if (input.pin) {
    const target = drafts.find((e) => e.code === input.pin!.code);
    if (!target) throw new Error(`planTimeline: no ${input.pin.code} event to pin`);
    const delta = input.pin.at.getTime() - target.at.getTime();
    const move = (d: Date): Date => new Date(d.getTime() + delta);
    for (const d of drafts) d.at = move(d.at);
    estimatedDeliveryAt = move(estimatedDeliveryAt);
    if (deliveredAt) deliveredAt = move(deliveredAt);
  }
  return { events: render(drafts), estimatedDeliveryAt, ...(deliveredAt ? { deliveredAt } : {}) };
}
