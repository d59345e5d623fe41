/**
 * A shipment and its whole life, planned up front from its lane, service level and pickup:
 * BOL received -> picked up -> origin terminal -> linehaul through breakbulks -> destination
 * terminal -> out for delivery -> delivered, with the exceptions LTL freight really meets (and a
 * bill of lading cancelled before pickup). Tracing shows the part of the plan that lies before
 * "now", which is how status moves as time passes without the sandbox keeping any state.
 *
 * Every time is chosen on the wall clock of the place it happens (time.ts): pickups in the
 * shipper's working hours, linehaul departures in the evening, deliveries between 8:00 AM and
 * the service level's hour, on the days the level works (calendar.ts). The delivery day is the
 * one the level promises (serviceLevels.ts), so the quote, the transit time, the bill of lading
 * and the trace name the same day; a linehaul that would arrive too late runs faster instead.
 */
import { addWorkingDays, DELIVERY_HOURS, rollToWorkingDay } from './calendar';
import type { CountryIso3 } from './geography';
import { distanceMiles } from './geography';
import { formatPounds, formatUsDate, formatUsDateTime } from './formats';
import type { Lane } from './lanes';
import { dueMinutes, RULES, serviceDays, type HourlyWindow, type ServiceLevel } from './serviceLevels';
import { price, surchargeCents, type ChargeLine, type Price, type TariffInput } from './tariff';
import type { Terminal } from './terminals';
import { atLocal, HOUR_MS, localDay, MINUTE_MS, wallClock, type Day } from './time';

/** The interface's TraceType values, in the document's order. */
export const TRACE_TYPES = ['PRO', 'BOL', 'Job', 'Manifest', 'PO', 'Sales', 'Account', 'CustomerOrder', 'CustomerPO', 'Lot', 'Order', 'Reference'] as const;
export type TraceType = (typeof TRACE_TYPES)[number];

export type ShortStatus = 'Pickup Scheduled' | 'Picked Up' | 'In Transit' | 'Out For Delivery' | 'Delivered' | 'Exception' | 'Cancelled';

/**
 * BOL: shipment information received; DS: driver dispatched for the pickup; PU: picked up; AR/DP: terminal arrival/departure;
 * RW: reweighed; AP: delivery appointment set; OFD: out for delivery; EX: exception;
 * RT: returned to terminal; DL: delivered; CX: cancelled before pickup.
 */
export type EventCode = 'BOL' | 'DS' | 'PU' | 'AR' | 'DP' | 'RW' | 'AP' | 'OFD' | 'EX' | 'RT' | 'DL' | 'CX';

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
  /** The zone of the place it happened: its time is printed on that wall clock. */
  readonly zone: string;
}

/** A shipper, consignee or bill-to party as shipments carry it. */
export interface Party {
  readonly Name: string;
  readonly AddressLine1: string;
  readonly AddressLine2: string;
  readonly City: string;
  readonly State: string;
  readonly ZipCode: string;
  readonly Country: CountryIso3;
  readonly PhoneNumber: string;
  readonly EmailAddress: string;
  readonly Contact: string;
}

export interface ShipmentItem {
  readonly Pieces: number;
  readonly PackageType: string;
  readonly Description: string;
  readonly NMFCItemNumber: string;
  readonly NMFCSub: string;
  readonly Class: string;
  readonly Weight: number;
  readonly IsHazmat: boolean;
  readonly hazmat?: { readonly Number: string; readonly Description: string; readonly hazardClass: string; readonly packingGroup?: string };
}

export interface HandlingUnit {
  readonly Type: string;
  readonly Quantity: number;
  readonly Length: number;
  readonly Width: number;
  readonly Height: number;
  readonly Weight: number;
}

export interface Shipment {
  readonly proNumber: string;
  readonly bolId: number;
  /** Every trace type's number; `PRO` and `BOL` repeat proNumber and the BOL number. */
  readonly references: Readonly<Record<TraceType, string>>;
  readonly shipperNumber: string;
  readonly quoteNumber: string;
  readonly shipper: Party;
  readonly consignee: Party;
  readonly billTo: Party;
  readonly paymentTerms: 'Prepaid' | 'Collect';
  readonly is3PL: boolean;
  /** Blind shipment: the consignee must not see the shipper (a 3PL arranges the move). */
  readonly blind: boolean;
  readonly items: readonly ShipmentItem[];
  readonly handlingUnits: readonly HandlingUnit[];
  readonly pieces: number;
  readonly weight: number;
  /** Weight the origin's scale found; only set when the freight was reweighed. */
  readonly scaleWeight?: number;
  readonly serviceLevel: ServiceLevel;
  /** As booked, `hh:mm AM/PM`; set for GuaranteedHourlyWindow. */
  readonly hourlyWindow?: { readonly Start: string; readonly End: string };
  readonly accessorials: readonly string[];
  readonly specialInstructions?: string;
  readonly declaredValue?: { readonly Value: string; readonly Per: string };
  readonly hazmatContact?: { readonly EmergencyNumber: string; readonly ContractNumber: string; readonly ContractHolder: string };
  readonly lane: Lane;
  readonly originTerminal: Terminal;
  readonly destinationTerminal: Terminal;
  /** Terminals the freight passes, origin first. */
  readonly route: readonly Terminal[];
  readonly miles: number;
  /** Service days of its level on its lane. */
  readonly transitDays: number;
  readonly exception?: ExceptionKind;
  /** The `MM/DD/YYYY` the bill of lading is dated. */
  readonly bolDate: string;
  readonly createdAt: Date;
  /** The local day at the origin the freight is picked up (planned). */
  readonly pickupDay: Day;
  readonly pickupAt: Date;
  /** The local day at the destination the level promises delivery. */
  readonly dueDay: Day;
  /** When delivery is due: the level's hour (or the window's end) on dueDay, destination time. */
  readonly dueAt: Date;
  readonly estimatedDeliveryAt: Date;
  readonly deliveredAt?: Date;
  readonly signedBy?: string;
  readonly cancelledAt?: Date;
  /** The whole planned timeline; statusAt tells what has happened by a time. */
  readonly events: readonly StatusEvent[];
  readonly charges: readonly ChargeLine[];
  readonly netChargeCents: number;
}

export interface ShipmentStatus {
  readonly ShortStatus: ShortStatus;
  readonly LongStatus: string;
  /** Events that have happened by `now`, oldest first. */
  readonly history: StatusEvent[];
  readonly delivered: boolean;
  /** Delivery time when delivered, else the current estimate (moves after an exception). */
  readonly expectedDeliveryAt?: Date;
}

/** Random numbers in [0, 1): a seeded generator, so a plan is the same every time it is made. */
export type Random = () => number;

export interface TimelineInput {
  readonly lane: Lane;
  readonly level: ServiceLevel;
  readonly window?: HourlyWindow;
  readonly createdAt: Date;
  /** Local day and minutes at the origin. */
  readonly pickupDay: Day;
  readonly pickupMinutes: number;
  readonly shipper: { readonly City: string; readonly State: string };
  readonly consignee: { readonly City: string; readonly State: string };
  readonly exception?: ExceptionKind;
  /** Scale weight when the origin reweighs the freight. */
  readonly reweighedTo?: number;
  readonly signer: string;
  readonly random: Random;
  /** Local minutes at the destination of going out for delivery and of delivery (or of the exception). */
  readonly outForDeliveryMinutes?: number;
  readonly deliveryMinutes?: number;
  /** Cancelled by the shipper before pickup, at this instant. */
  readonly cancelledAt?: Date;
  /** When a driver was dispatched for a requested pickup (pickup.ts); no DS event without one. */
  readonly dispatchedAt?: Date;
}

export interface TimelinePlan {
  readonly events: StatusEvent[];
  readonly pickupAt: Date;
  readonly dueDay: Day;
  readonly dueAt: Date;
  readonly estimatedDeliveryAt: Date;
  readonly deliveredAt?: Date;
}

const LINEHAUL_MPH = 48;
/** Freight must be at the destination terminal by 6:00 AM of the delivery day to go out on a truck. */
const ARRIVE_BY = 6 * 60;

const plus = (d: Date, hours: number): Date => new Date(d.getTime() + Math.round(hours * 60) * MINUTE_MS);

/** Descriptions that name a later date are written once the plan's times are final. */
type Text = string | ((nextOutForDelivery: Date | undefined) => string);
interface Draft {
  at: Date;
  code: EventCode;
  status: ShortStatus;
  text: Text;
  city: string;
  state: string;
  terminalCode?: string;
  zone: string;
}

export function planTimeline(input: TimelineInput): TimelinePlan {
  const { lane, random } = input;
  const route = lane.route;
  const origin = route[0]!;
  const destination = route[route.length - 1]!;
  const week = RULES[input.level].week;
  const drafts: Draft[] = [];
  const add = (e: Draft): void => void drafts.push(e);
  const atTerminal = (t: Terminal) => ({ city: t.TerminalMailingCity, state: t.TerminalMailingState, terminalCode: t.TerminalCode, zone: t.zone });
  const atShipper = { city: input.shipper.City, state: input.shipper.State, zone: origin.zone };
  const atConsignee = { city: input.consignee.City, state: input.consignee.State, zone: destination.zone };
  const onDate = (d: Date | undefined): string => (d ? formatUsDate(localDay(d, destination.zone)) : 'a later date');

  add({ at: input.createdAt, code: 'BOL', status: 'Pickup Scheduled', text: 'Shipment information received', ...atShipper });
  const pickupAt = atLocal(input.pickupDay, input.pickupMinutes, origin.zone);
  const dueDay = addWorkingDays(input.pickupDay, serviceDays(input.level, lane), week);
  const dueAt = atLocal(dueDay, dueMinutes(input.level, input.window), destination.zone);

  if (input.cancelledAt) {
    add({ at: input.cancelledAt, code: 'CX', status: 'Cancelled', text: 'Pickup cancelled by the shipper; bill of lading void', ...atShipper });
    return { events: render(drafts), pickupAt, dueDay, dueAt, estimatedDeliveryAt: dueAt };
  }

  if (input.dispatchedAt) {
    add({ at: input.dispatchedAt, code: 'DS', status: 'Pickup Scheduled', text: 'Driver dispatched for pickup', ...atTerminal(origin) });
  }
  add({ at: pickupAt, code: 'PU', status: 'Picked Up', text: 'Picked up', ...atShipper });
  let clock = plus(pickupAt, 1 + random() * 1.5);
  add({ at: clock, code: 'AR', status: 'Picked Up', text: `Arrived at ${origin.TerminalName}`, ...atTerminal(origin) });
  if (input.reweighedTo !== undefined) {
    clock = plus(clock, 0.25 + random() * 0.5);
    add({
      at: clock,
      code: 'RW',
      status: 'Picked Up',
      text: `Reweighed at ${origin.TerminalName}: ${formatPounds(input.reweighedTo)} lb`,
      ...atTerminal(origin),
    });
  }

  const arriveBy = atLocal(dueDay, ARRIVE_BY, destination.zone);
  if (route.length > 1) {
    // Linehaul leaves in the evening of the pickup day.
    let departs = atLocal(input.pickupDay, 18 * 60 + random() * 90, origin.zone);
    if (departs.getTime() < clock.getTime() + HOUR_MS) departs = plus(clock, 1);
    const legs: { terminal: Terminal; drive: number; dwell: number }[] = [];
    for (let i = 1; i < route.length; i++) {
      legs.push({
        terminal: route[i]!,
        drive: distanceMiles(route[i - 1]!, route[i]!) / LINEHAUL_MPH + 0.5 + random(),
        dwell: i < route.length - 1 ? 2.5 + random() * 2.5 : 0,
      });
    }
    const natural = legs.reduce((s, l) => s + l.drive + l.dwell, 0);
    // The promise is kept: a linehaul that would arrive too late runs straight through, faster.
    const available = (arriveBy.getTime() - departs.getTime()) / HOUR_MS - 0.5;
    const pace = natural > available && available > 0 ? available / natural : 1;
    clock = departs;
    add({ at: clock, code: 'DP', status: 'In Transit', text: `Departed ${origin.TerminalName}`, ...atTerminal(origin) });
    legs.forEach((leg, i) => {
      clock = plus(clock, leg.drive * pace);
      add({ at: clock, code: 'AR', status: 'In Transit', text: `Arrived at ${leg.terminal.TerminalName}`, ...atTerminal(leg.terminal) });
      if (i < legs.length - 1) {
        clock = plus(clock, leg.dwell * pace);
        add({ at: clock, code: 'DP', status: 'In Transit', text: `Departed ${leg.terminal.TerminalName}`, ...atTerminal(leg.terminal) });
      }
    });
  }
  const arrived = clock;

  let deliveryDay = dueDay;
  if (input.exception === 'Appointment') {
    deliveryDay = addWorkingDays(dueDay, 1, week);
    add({
      at: plus(arrived, 1 + random()),
      code: 'AP',
      status: 'In Transit',
      text: (d) => `Delivery appointment scheduled for ${onDate(d)}`,
      ...atTerminal(destination),
    });
  }
  const due = dueMinutes(input.level, input.window);
  const window = input.level === 'GuaranteedHourlyWindow' ? input.window : undefined;

  const outForDelivery = (day: Day, minutes?: number): Date => {
    let m = minutes ?? 7 * 60 + random() * 75;
    if (window) m = Math.min(m, window.start - 60);
    const t = atLocal(day, Math.max(m, 6 * 60 + 30), destination.zone);
    const at = t.getTime() > arrived.getTime() ? t : plus(arrived, 0.5);
    add({ at, code: 'OFD', status: 'Out For Delivery', text: `Out for delivery from ${destination.TerminalName}`, ...atTerminal(destination) });
    return at;
  };
  const deliveryTime = (day: Day, ofd: Date, minutes?: number): Date => {
    if (minutes !== undefined) return atLocal(day, minutes, destination.zone);
    const ofdAt = (ofd.getTime() - atLocal(day, 0, destination.zone).getTime()) / MINUTE_MS;
    const earliest = Math.max(ofdAt + (window ? 30 : 60), window ? window.start : DELIVERY_HOURS.start);
    const latest = Math.max(earliest, Math.min(due, DELIVERY_HOURS.end) - 10);
    return atLocal(day, earliest + random() * (latest - earliest), destination.zone);
  };

  let ofd = outForDelivery(deliveryDay, input.outForDeliveryMinutes);
  let deliveredAt: Date | undefined;
  if (input.exception === 'ConsigneeClosed') {
    const ex = input.deliveryMinutes !== undefined ? atLocal(deliveryDay, input.deliveryMinutes, destination.zone) : plus(ofd, 1.5 + random() * 2);
    add({ at: ex, code: 'EX', status: 'Exception', text: 'Delivery exception: consignee closed', ...atConsignee });
    add({
      at: plus(ex, 1 + random()),
      code: 'RT',
      status: 'Exception',
      text: (d) => `Returned to ${destination.TerminalName}; delivery will be reattempted ${onDate(d)}`,
      ...atTerminal(destination),
    });
    deliveryDay = addWorkingDays(deliveryDay, 1, week);
    ofd = outForDelivery(deliveryDay);
  }
  if (input.exception === 'Refused') {
    const ex = input.deliveryMinutes !== undefined ? atLocal(deliveryDay, input.deliveryMinutes, destination.zone) : plus(ofd, 1.5 + random() * 2);
    add({ at: ex, code: 'EX', status: 'Exception', text: 'Refused by consignee: not ordered', ...atConsignee });
    add({
      at: plus(ex, 1 + random()),
      code: 'RT',
      status: 'Exception',
      text: `Returned to ${destination.TerminalName}; awaiting disposition from shipper`,
      ...atTerminal(destination),
    });
  } else {
    deliveredAt = deliveryTime(deliveryDay, ofd, input.exception === 'ConsigneeClosed' ? undefined : input.deliveryMinutes);
    const signed = `signed by ${input.signer}`;
    const text = input.exception === 'Damaged' ? `Delivered with exception: 1 piece damaged, ${signed}` : `Delivered, ${signed}`;
    add({ at: deliveredAt, code: 'DL', status: 'Delivered', text, ...atConsignee });
  }
  const estimatedDeliveryAt = deliveryDay === dueDay ? dueAt : atLocal(deliveryDay, due, destination.zone);
  return { events: render(drafts), pickupAt, dueDay, dueAt, estimatedDeliveryAt, ...(deliveredAt ? { deliveredAt } : {}) };
}

function render(drafts: readonly Draft[]): StatusEvent[] {
  const sorted = [...drafts].sort((a, b) => a.at.getTime() - b.at.getTime());
  return sorted.map((d, i) => {
    const { text, ...event } = d;
    const nextOfd = sorted.slice(i + 1).find((e) => e.code === 'OFD')?.at;
    return { ...event, description: typeof text === 'string' ? text : text(nextOfd) };
  });
}

/** The first working day on or after `day` at which a pickup at `minutes` is not before `notBefore`. */
export function firstPickupDay(day: Day, minutes: number, zone: string, notBefore: Date, level: ServiceLevel): Day {
  const week = RULES[level].week;
  let d = rollToWorkingDay(day, week);
  while (atLocal(d, minutes, zone).getTime() < notBefore.getTime()) d = addWorkingDays(d, 1, week);
  return d;
}

export interface ChargesInput extends Omit<TariffInput, 'miles'> {
  readonly lane: Lane;
  readonly level: ServiceLevel;
}

/**
 * What a shipment costs: the tariff's lines for its freight, plus the service level's surcharge
 * (on the discounted freight charge) as its own line, so an invoice's total is the NetCharge the
 * quote gave for that level.
 */
export function chargesFor(input: ChargesInput): { lines: ChargeLine[]; netCents: number; price: Price } {
  const p = price({ ...input, miles: input.lane.miles });
  const rule = RULES[input.level];
  const extra = surchargeCents(p, rule.surchargePercent);
  if (!extra) return { lines: [...p.lines], netCents: p.netCents, price: p };
  const lines = [...p.lines];
  const fuelAt = lines.findIndex((l) => l.Type === 'FUEL');
  lines.splice(fuelAt, 0, { Type: 'ACC', Title: `${rule.paperTitle} (${rule.surchargePercent}% of freight)`, amountCents: extra });
  const net = p.netCents + extra;
  lines[lines.length - 1] = { ...lines[lines.length - 1]!, amountCents: net };
  return { lines, netCents: net, price: p };
}

/** What a trace shows at `now`: the last event decides the status. */
export function statusAt(shipment: Shipment, now: Date): ShipmentStatus {
  const t = now.getTime();
  const history = shipment.events.filter((e) => e.at.getTime() <= t);
  const last = history[history.length - 1];
  const delivered = last?.code === 'DL';
  const cancelled = last?.code === 'CX';
  // A refused shipment has no delivery to expect once the consignee has refused it.
  const refused = shipment.exception === 'Refused' && history.some((e) => e.code === 'EX');
  // The promise stands until an exception or an appointment moves it; the plan's later date is not known before.
  const moved = history.some((e) => e.code === 'EX' || e.code === 'AP');
  const expectedDeliveryAt = delivered ? last!.at : moved ? shipment.estimatedDeliveryAt : shipment.dueAt;
  const place = (e: StatusEvent) => `${e.city}, ${e.state}`;
  if (!last || last.code === 'BOL') {
    return {
      ShortStatus: 'Pickup Scheduled',
      LongStatus: `Pickup scheduled ${wallText(shipment.pickupAt, shipment.originTerminal.zone)} at ${shipment.shipper.City}, ${shipment.shipper.State}`,
      history,
      delivered: false,
      ...(cancelled ? {} : { expectedDeliveryAt: shipment.dueAt }),
    };
  }
  return {
    ShortStatus: last.status,
    LongStatus: `${last.description} - ${place(last)} ${wallText(last.at, last.zone)}`,
    history,
    delivered,
    ...(expectedDeliveryAt && !cancelled && !refused ? { expectedDeliveryAt } : {}),
  };
}

/** When delivery is due, as paper states it: `11/23/2026 by 05:00 PM` or `11/23/2026 between 01:00 PM and 03:00 PM`. */
export function dueText(s: Pick<Shipment, 'dueDay' | 'serviceLevel' | 'hourlyWindow' | 'dueAt' | 'destinationTerminal'>): string {
  const day = formatUsDate(s.dueDay);
  if (s.serviceLevel === 'GuaranteedHourlyWindow' && s.hourlyWindow) return `${day} between ${s.hourlyWindow.Start} and ${s.hourlyWindow.End}`;
  return `${day} by ${formatUsDateTime(wallClock(s.dueAt, s.destinationTerminal.zone)).slice(11)}`;
}

/** `MM/DD/YYYY hh:mm AM` on a zone's wall clock (as a trace or a PDF prints a time). */
export function wallText(at: Date, zone: string): string {
  return formatUsDateTime(wallClock(at, zone));
}
