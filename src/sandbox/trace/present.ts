/**
 * A shipment as TraceShipment shows it at a moment, every time on the wall clock of the place it
 * describes (pickup and creation at the origin, delivery at the destination, each event where
 * it happened), as a carrier's tracing screen shows them: the Standard format for screens and
 * programs, and the IVR format for voice response systems (short texts a speech engine reads
 * well: words instead of codes, spelled-out dates, digits spaced out, no history tables).
 *
 * The Shipment sub-records are not expanded by the contract (docs/carrier-facts.md#tracing); they carry what a
 * tracing screen needs (parties, references, dates, events, handling units).
 */
import {
  formatPounds,
  formatUsDateTime,
  localDay,
  MONTH_NAMES,
  RULES,
  statusAt,
  wallClock,
  WEEKDAY_NAMES,
  xsdDateTime,
  type ShortStatus,
  type Shipment,
  type StatusEvent,
} from '../carrier';
import { compact } from '../json';

export interface TraceOptions {
  readonly formatResults: boolean;
  readonly includeBlind: boolean;
  readonly ivr: boolean;
}

type Json = Record<string, unknown>;

const yesNo = (b: boolean) => (b ? 'Y' : 'N');

/** "Monday, November 23" (of a wall clock or a day). */
export function spokenDay(d: Date): string {
  return `${WEEKDAY_NAMES[d.getUTCDay()]}, ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/** "2:15 PM" (no leading zero: it is read aloud). */
export function spokenTime(d: Date): string {
  const h = d.getUTCHours();
  return `${h % 12 === 0 ? 12 : h % 12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** "0 5 6 3 9 1 1 7 4": a speech engine reads a long number digit by digit only when told so. */
export const spokenDigits = (s: string) => s.split('').join(' ');

const SPOKEN_STATUS: Record<ShortStatus, string> = {
  'Pickup Scheduled': 'Pickup scheduled',
  'Picked Up': 'Picked up',
  'In Transit': 'In transit',
  'Out For Delivery': 'Out for delivery',
  Delivered: 'Delivered',
  Exception: 'Delivery exception',
  Cancelled: 'Cancelled',
};

function ivrSentence(s: Shipment, status: ShortStatus, last: StatusEvent | undefined, expected: Date | undefined, now: Date): string {
  const subject = `Pro number ${spokenDigits(s.proNumber)}`;
  const destZone = s.destinationTerminal.zone;
  const sameDay = (d: Date) => localDay(d, destZone).getTime() === localDay(now, destZone).getTime();
  const eta = expected ? ` It is expected to be delivered ${sameDay(expected) ? 'today' : `on ${spokenDay(wallClock(expected, destZone))}`}.` : '';
  const pickup = spokenDay(s.pickupDay);
  switch (status) {
    case 'Pickup Scheduled':
      return `${subject} is scheduled for pickup on ${pickup}.${eta}`;
    case 'Picked Up':
      return `${subject} was picked up on ${pickup}.${eta}`;
    case 'In Transit':
      return `${subject} is in transit.${eta}`;
    case 'Out For Delivery':
      return `${subject} is out for delivery today.`;
    case 'Delivered': {
      const at = wallClock(last!.at, last!.zone);
      return `${subject} was delivered on ${spokenDay(at)} at ${spokenTime(at)}.`;
    }
    case 'Exception':
      return `${subject} has a delivery exception. Please hold for a customer service representative.`;
    case 'Cancelled':
      return `${subject} was cancelled before pickup.`;
  }
}

function parties(s: Shipment, hideShipper: boolean): Json {
  const p = (x: Shipment['shipper']) =>
    compact({ Name: x.Name, AddressLine1: x.AddressLine1, AddressLine2: x.AddressLine2, City: x.City, State: x.State, ZipCode: x.ZipCode, Country: x.Country });
  return {
    Shipper: hideShipper ? { Name: 'BLIND SHIPMENT' } : p(s.shipper),
    Consignee: p(s.consignee),
    ...(hideShipper ? {} : { BillTo: p(s.billTo) }),
  };
}

function references(s: Shipment): Json {
  return compact({ ...s.references, ShipperNumber: s.shipperNumber, QuoteNumber: s.quoteNumber });
}

/** One traced shipment as a Shipment record (JSON for the catalog's writer). */
export function traceRecord(s: Shipment, now: Date, opts: TraceOptions): Json {
  const st = statusAt(s, now);
  const last = st.history[st.history.length - 1];
  const pickedUp = st.history.some((e) => e.code === 'PU');
  const deliveredAt = st.delivered ? last!.at : undefined;
  const hideShipper = s.blind && !opts.includeBlind;
  const origin = s.originTerminal.zone;
  const destination = s.destinationTerminal.zone;
  if (opts.ivr) {
    return {
      ShipmentNumber: s.proNumber,
      ShipmentDates: compact({
        PickupDate: spokenDay(s.pickupDay),
        EstimatedDeliveryDate: st.expectedDeliveryAt && !deliveredAt ? spokenDay(wallClock(st.expectedDeliveryAt, destination)) : undefined,
        DeliveryDate: deliveredAt ? spokenDay(wallClock(deliveredAt, destination)) : undefined,
      }),
      Piece: `${s.pieces} ${s.pieces === 1 ? 'piece' : 'pieces'}`,
      Weight: `${Math.round(s.weight * 10) / 10} pounds`,
      Blind: yesNo(s.blind),
      ShortStatus: SPOKEN_STATUS[st.ShortStatus],
      LongStatus: ivrSentence(s, st.ShortStatus, last, st.expectedDeliveryAt, now),
      Is3PL: yesNo(s.is3PL),
      ServiceLevel: RULES[s.serviceLevel].paperTitle,
    };
  }
  const when = (d: Date, zone: string) => {
    const wall = wallClock(d, zone);
    return opts.formatResults ? formatUsDateTime(wall) : xsdDateTime(wall);
  };
  return {
    Parties: parties(s, hideShipper),
    ShipmentNumber: s.proNumber,
    ReferenceNumbers: references(s),
    ShipmentDates: compact({
      CreatedDate: when(s.createdAt, origin),
      PickupDate: when(s.pickupAt, origin),
      PickedUp: yesNo(pickedUp),
      EstimatedDeliveryDate: st.expectedDeliveryAt && !deliveredAt ? when(st.expectedDeliveryAt, destination) : undefined,
      DeliveryWindow: s.hourlyWindow ? `${s.hourlyWindow.Start} - ${s.hourlyWindow.End}` : undefined,
      DeliveryDate: deliveredAt ? when(deliveredAt, destination) : undefined,
      SignedBy: deliveredAt ? s.signedBy : undefined,
      CancelledDate: s.cancelledAt && s.cancelledAt.getTime() <= now.getTime() ? when(s.cancelledAt, origin) : undefined,
    }),
    Piece: String(s.pieces),
    Weight: opts.formatResults ? `${formatPounds(s.weight)} lb` : String(s.weight),
    Blind: yesNo(s.blind),
    ShortStatus: st.ShortStatus,
    LongStatus: st.LongStatus,
    StatusHistory: {
      StatusEvent: st.history.map((e) =>
        compact({
          Date: when(e.at, e.zone),
          Code: e.code,
          Status: e.status,
          Description: e.description,
          City: e.city,
          State: e.state,
          TerminalCode: e.terminalCode,
        }),
      ),
    },
    Is3PL: yesNo(s.is3PL),
    ServiceLevel: s.serviceLevel,
    HandlingUnits: {
      HandlingUnit: s.handlingUnits.map((h) => ({ Type: h.Type, Quantity: h.Quantity, Length: h.Length, Width: h.Width, Height: h.Height, Weight: h.Weight })),
    },
  };
}

/** The record for a number that matches nothing: ErrorMessage (and ErrResponse) filled, HTTP 200. */
export function notFoundRecord(type: string, number: string, opts: TraceOptions): Json {
  const message = opts.ivr ? 'We could not find a shipment with that number.' : `No shipment found for ${type} number ${number}.`;
  return {
    ErrResponse: { Code: 'NOT_FOUND', Message: message },
    ShipmentNumber: number,
    ErrorMessage: message,
  };
}
