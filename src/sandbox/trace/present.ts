/**
 * A shipment as TraceShipment shows it at a moment: the Standard format for screens and
 * programs, and the IVR format for voice response systems (short texts a speech engine reads
 * well: words instead of codes, spelled-out dates, digits spaced out, no history tables).
 *
 * The Shipment sub-records are not expanded by the interface document; they carry what a
 * tracing screen needs (parties, references, dates, events, handling units).
 */
import { formatPounds, formatUsDateTime, xsdDateTime } from '../data/format';
import { compact } from '../json';
import { shipmentStatusAt, type ShortStatus, type Shipment, type StatusEvent } from '../data/shipments';

export interface TraceOptions {
  readonly formatResults: boolean;
  readonly includeBlind: boolean;
  readonly ivr: boolean;
}

type Json = Record<string, unknown>;

const yesNo = (b: boolean) => (b ? 'Y' : 'N');

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "Monday, November 23". */
export function spokenDay(d: Date): string {
  return `${WEEKDAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
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
};

const SPOKEN_LEVEL: Record<string, string> = {
  StandardService: 'Standard service',
  GuaranteedService: 'Guaranteed service',
  GuaranteedByNoon: 'Guaranteed by noon',
  GuaranteedHourlyWindow: 'Guaranteed hourly window',
  ExpeditedService: 'Expedited service',
  WeekendExpress: 'Weekend express',
};

function ivrSentence(s: Shipment, status: ShortStatus, last: StatusEvent | undefined, expected: Date | undefined, now: Date): string {
  const subject = `Pro number ${spokenDigits(s.proNumber)}`;
  const sameDay = (d: Date) => d.toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
  const eta = expected ? ` It is expected to be delivered ${sameDay(expected) ? 'today' : `on ${spokenDay(expected)}`}.` : '';
  switch (status) {
    case 'Pickup Scheduled': return `${subject} is scheduled for pickup on ${spokenDay(s.pickupAt)}.${eta}`;
    case 'Picked Up': return `${subject} was picked up on ${spokenDay(s.pickupAt)}.${eta}`;
    case 'In Transit': return `${subject} is in transit.${eta}`;
    case 'Out For Delivery': return `${subject} is out for delivery today.`;
    case 'Delivered': return `${subject} was delivered on ${spokenDay(last!.at)} at ${spokenTime(last!.at)}.`;
    case 'Exception': return `${subject} has a delivery exception. Please hold for a customer service representative.`;
  }
}

function parties(s: Shipment, hideShipper: boolean): Json {
  const p = (x: Shipment['shipper']) => compact({ Name: x.Name, AddressLine1: x.AddressLine1, AddressLine2: x.AddressLine2, City: x.City, State: x.State, ZipCode: x.ZipCode, Country: x.Country });
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
  const st = shipmentStatusAt(s, now);
  const last = st.history[st.history.length - 1];
  const pickedUp = st.history.some((e) => e.code === 'PU');
  const deliveredAt = st.delivered ? last!.at : undefined;
  const hideShipper = s.blind && !opts.includeBlind;
  if (opts.ivr) {
    return {
      ShipmentNumber: s.proNumber,
      ShipmentDates: compact({
        PickupDate: spokenDay(s.pickupAt),
        EstimatedDeliveryDate: st.expectedDeliveryAt && !deliveredAt ? spokenDay(st.expectedDeliveryAt) : undefined,
        DeliveryDate: deliveredAt ? spokenDay(deliveredAt) : undefined,
      }),
      Piece: `${s.pieces} ${s.pieces === 1 ? 'piece' : 'pieces'}`,
      Weight: `${Math.round(s.weight)} pounds`,
      Blind: yesNo(s.blind),
      ShortStatus: SPOKEN_STATUS[st.ShortStatus],
      LongStatus: ivrSentence(s, st.ShortStatus, last, st.expectedDeliveryAt, now),
      Is3PL: yesNo(s.is3PL),
      ServiceLevel: SPOKEN_LEVEL[s.serviceLevel] ?? s.serviceLevel,
    };
  }
  const when = (d: Date) => (opts.formatResults ? formatUsDateTime(d) : xsdDateTime(d));
  return {
    Parties: parties(s, hideShipper),
    ShipmentNumber: s.proNumber,
    ReferenceNumbers: references(s),
    ShipmentDates: compact({
      CreatedDate: when(s.createdAt),
      PickupDate: when(s.pickupAt),
      PickedUp: yesNo(pickedUp),
      EstimatedDeliveryDate: st.expectedDeliveryAt && !deliveredAt ? when(st.expectedDeliveryAt) : undefined,
      DeliveryDate: deliveredAt ? when(deliveredAt) : undefined,
      SignedBy: deliveredAt ? s.signedBy : undefined,
    }),
    Piece: String(s.pieces),
    Weight: opts.formatResults ? `${formatPounds(s.weight)} lb` : String(s.weight),
    Blind: yesNo(s.blind),
    ShortStatus: st.ShortStatus,
    LongStatus: st.LongStatus,
    StatusHistory: {
      StatusEvent: st.history.map((e) => compact({ Date: when(e.at), Code: e.code, Status: e.status, Description: e.description, City: e.city, State: e.state, TerminalCode: e.terminalCode })),
    },
    Is3PL: yesNo(s.is3PL),
    ServiceLevel: s.serviceLevel,
    HandlingUnits: { HandlingUnit: s.handlingUnits.map((h) => ({ Type: h.Type, Quantity: h.Quantity, Length: h.Length, Width: h.Width, Height: h.Height, Weight: h.Weight })) },
  };
}

/** The record for a number that matches nothing: ErrorMessage (and ErrResponse) filled, HTTP 200. */
export function notFoundRecord(type: string, number: string, opts: TraceOptions): Json {
  const message = opts.ivr
    ? 'We could not find a shipment with that number.'
    : `No shipment found for ${type} number ${number}.`;
  return {
    ErrResponse: { Code: 'NOT_FOUND', Message: message },
    ShipmentNumber: number,
    ErrorMessage: message,
  };
}
