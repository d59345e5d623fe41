/**
 * The sandbox's shipment history: 48 LTL shipments with every reference number a trace can
 * ask for, picked up between about ten days before an anchor time and two days after it.
 *
 * The data is a pure function of the anchor (a seeded PRNG, never Math.random or the clock):
 * the same anchor gives the same shipments, and the sandbox passes its start time as anchor so
 * the history always looks recent. A few shipments are pinned relative to the anchor so that
 * at the anchor itself there is always one in every state (scheduled, picked up, in transit,
 * out for delivery, delivered, exception); the rest follow business-day timelines.
 */
import { rollToBusinessDay } from '../../core';
import { standardServiceDays } from './serviceDays';
import { formatUsDateTime } from './format';
import { distanceMiles, locate } from './geography';
import { lookupHazmat } from './hazmat';
import { digits, pick, randomInt, seededRandom, type Random } from './prng';
import { COMMODITIES, COMPANIES, LANES, SIGNERS, SPECIAL_INSTRUCTIONS, THIRD_PARTY_BILL_TO, type Company, type Party } from './shipment-catalog';
import { freightCharges, type ChargeLine } from './tariff';
import { breakbulkFor, findTerminalsFor, type Terminal } from './terminals';
import { planTimeline, type ExceptionKind, type ShortStatus, type StatusEvent } from './timeline';

export type { ExceptionKind, ShortStatus, StatusEvent } from './timeline';

/** The interface's TraceType values, in the document's order. */
export const TRACE_TYPES = ['PRO', 'BOL', 'Job', 'Manifest', 'PO', 'Sales', 'Account', 'CustomerOrder', 'CustomerPO', 'Lot', 'Order', 'Reference'] as const;
export type TraceType = (typeof TRACE_TYPES)[number];

export type ServiceLevel = 'StandardService' | 'GuaranteedService' | 'GuaranteedByNoon' | 'GuaranteedHourlyWindow' | 'ExpeditedService' | 'WeekendExpress';

export type { Party };

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
  readonly hourlyWindow?: { readonly Start: string; readonly End: string };
  readonly accessorials: readonly string[];
  readonly specialInstructions?: string;
  readonly declaredValue?: { readonly Value: string; readonly Per: string };
  readonly hazmatContact?: { readonly EmergencyNumber: string; readonly ContractNumber: string; readonly ContractHolder: string };
  readonly originTerminal: Terminal;
  readonly destinationTerminal: Terminal;
  /** Terminals the freight passes, origin first. */
  readonly route: readonly Terminal[];
  readonly miles: number;
  readonly transitDays: number;
  readonly exception?: ExceptionKind;
  readonly createdAt: Date;
  readonly pickupAt: Date;
  readonly estimatedDeliveryAt: Date;
  readonly deliveredAt?: Date;
  readonly signedBy?: string;
  /** The whole planned timeline; use shipmentStatusAt to see what has happened by a time. */
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

const SHIPMENT_COUNT = 48;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Reference carrier samples (service-facts §13): a real-looking PRO and the test PRO. */
export const SAMPLE_PRO = '056391174';
export const TEST_PRO = 'I111111111';

/**
 * Shipments whose timeline is placed relative to the anchor instant rather than on business
 * days, so that each state exists at the anchor. [index, lane, event to place, hours from anchor].
 */
const PINNED: ReadonlyArray<{ index: number; lane: number; code: StatusEvent['code']; hours: number; exception?: ExceptionKind; pro?: string }> = [
  { index: 1, lane: 1, code: 'PU', hours: 26 },
  { index: 2, lane: 2, code: 'PU', hours: -1 },
  { index: 3, lane: 4, code: 'PU', hours: -30 },
  { index: 4, lane: 5, code: 'OFD', hours: -1.5 },
  { index: 5, lane: 6, code: 'DL', hours: -5 },
  { index: 6, lane: 7, code: 'EX', hours: -3, exception: 'ConsigneeClosed' },
  { index: 7, lane: 8, code: 'EX', hours: -20, exception: 'Refused' },
  { index: 8, lane: 0, code: 'DL', hours: -72, exception: 'Damaged', pro: TEST_PRO },
];

function party(c: Company | typeof THIRD_PARTY_BILL_TO): Party {
  return {
    Name: c.Name, AddressLine1: c.AddressLine1, AddressLine2: c.AddressLine2, City: c.City, State: c.State,
    ZipCode: c.ZipCode, Country: c.Country, PhoneNumber: c.PhoneNumber, EmailAddress: c.EmailAddress, Contact: c.Contact,
  };
}

function buildItems(random: Random, goods: string): ShipmentItem[] {
  const commodity = COMMODITIES[goods]!;
  const lines = random() < 0.3 ? 2 : 1;
  const items: ShipmentItem[] = [];
  for (let l = 0; l < lines; l++) {
    const units = commodity.piecesPerUnit > 1 ? randomInt(random, 1, 4) : randomInt(random, 1, 6);
    const pieces = units * commodity.piecesPerUnit;
    const [lo, hi] = commodity.weightPerPiece;
    const weight = Math.round((pieces * (lo + random() * (hi - lo))) / 5) * 5;
    const hz = commodity.hazmat;
    const hazmatEntry = hz ? lookupHazmat(hz.number)[0] : undefined;
    items.push({
      Pieces: pieces,
      PackageType: commodity.PackageType,
      Description: commodity.Description,
      NMFCItemNumber: commodity.NMFCItemNumber,
      NMFCSub: commodity.NMFCSub,
      Class: commodity.Class,
      Weight: weight,
      IsHazmat: hz !== undefined,
      ...(hz && hazmatEntry
        ? { hazmat: { Number: hazmatEntry.Number, Description: hazmatEntry.Description, hazardClass: hz.hazardClass, ...(hz.packingGroup ? { packingGroup: hz.packingGroup } : {}) } }
        : {}),
    });
  }
  return items;
}

function handlingUnitsFor(random: Random, items: readonly ShipmentItem[], piecesPerUnit: number): HandlingUnit[] {
  return items.map((item) => {
    const quantity = Math.max(1, Math.round(item.Pieces / piecesPerUnit));
    return {
      Type: piecesPerUnit > 1 ? 'PLT' : item.PackageType,
      Quantity: quantity,
      Length: 48,
      Width: 40,
      Height: randomInt(random, 30, 72),
      Weight: item.Weight,
    };
  });
}

function routeFor(shipper: Party, consignee: Party, miles: number): Terminal[] {
  const origin = findTerminalsFor(shipper.ZipCode, shipper.Country, 1)[0]!;
  const destination = findTerminalsFor(consignee.ZipCode, consignee.Country, 1)[0]!;
  if (origin === destination) return [origin];
  const dedupe = (list: Terminal[]): Terminal[] => list.filter((t, i) => i === 0 || list[i - 1] !== t);
  const length = (list: Terminal[]): number => list.slice(1).reduce((sum, t, i) => sum + distanceMiles(list[i]!, t), 0);
  const direct = [origin, destination];
  if (miles < 300) return direct;
  // Longer moves are sorted at breakbulks, but only where that is on the way: a breakbulk
  // that adds more than a quarter to the trip is skipped, as a real linehaul plan would.
  const candidates = [
    dedupe([origin, breakbulkFor(origin), breakbulkFor(destination), destination]),
    dedupe([origin, breakbulkFor(origin), destination]),
    dedupe([origin, breakbulkFor(destination), destination]),
  ];
  return candidates.find((c) => length(c) <= length(direct) * 1.25) ?? direct;
}

function pickupTimeFor(index: number, anchorDay: Date, random: Random): Date {
  // Spread evenly from 10 days before the anchor to 2 days after, with some jitter.
  const offsetDays = -10 + (12 * index) / (SHIPMENT_COUNT - 1) + (random() - 0.5);
  const day = rollToBusinessDay(new Date(anchorDay.getTime() + Math.round(offsetDays) * DAY));
  return new Date(day.getTime() + (13 * 60 + Math.floor(random() * 270)) * MINUTE);
}

const SERVICE_LEVELS: readonly ServiceLevel[] = [
  'StandardService', 'StandardService', 'StandardService', 'StandardService', 'StandardService', 'StandardService',
  'GuaranteedService', 'GuaranteedByNoon', 'GuaranteedHourlyWindow', 'ExpeditedService',
];
const ACCESSORIAL_POOL = ['DestinationLiftgate', 'DeliveryNotification', 'InsideDelivery', 'LimitedAccessDelivery', 'OriginLiftgate', 'FreezeProtection'] as const;

function buildShipment(index: number, anchor: Date): Shipment {
  const random = seededRandom(0x5eed_0000 + index * 7919);
  // Numbers come from their own stream so they stay put when the freight model changes.
  const idRandom = seededRandom(0x1d00_0000 + index * 104_723);
  const pinned = PINNED.find((p) => p.index === index);
  const laneIndex = pinned?.lane ?? index % LANES.length;
  const [a, b] = LANES[laneIndex]!;
  // The second pass over the lanes runs them backwards, so freight flows both ways.
  const reverse = !pinned && index >= LANES.length;
  const shipperCo = COMPANIES[reverse ? b : a]!;
  const consigneeCo = COMPANIES[reverse ? a : b]!;
  const shipper = party(shipperCo);
  const consignee = party(consigneeCo);
  const is3PL = index % 6 === 4;
  const billTo = is3PL ? party(THIRD_PARTY_BILL_TO) : shipper;

  const proNumber = pinned?.pro ?? (index === 0 ? SAMPLE_PRO : `0${String(10_000_000 + index * 1_979_341 + randomInt(idRandom, 0, 999)).slice(-8)}`);
  const bolNumber = String(70_314_000 + index * 104_729 + randomInt(idRandom, 0, 999));
  const n = (base: number): string => String(base + index * 1_013 + randomInt(idRandom, 0, 999));
  const references: Record<TraceType, string> = {
    PRO: proNumber,
    BOL: bolNumber,
    Job: `JOB-${n(40_000)}`,
    Manifest: `M${n(7_100_000)}`,
    PO: `PO${n(450_000)}`,
    Sales: `SO-${n(880_000)}`,
    Account: String(310_000 + (laneIndex % 12) * 4_177),
    CustomerOrder: `CO${n(2_200_000)}`,
    CustomerPO: `CPO-${n(61_000)}`,
    Lot: `LOT-${String.fromCharCode(65 + (index % 26))}${n(10_000)}`,
    Order: `ORD${n(900_000)}`,
    Reference: `REF-${digits(idRandom, 4)}-${String(index).padStart(2, '0')}`,
  };
  const shipperNumber = `SH${n(120_000)}`;
  const quoteNumber = n(7_300_000);
  const items = buildItems(random, shipperCo.goods);
  const commodity = COMMODITIES[shipperCo.goods]!;
  const handlingUnits = handlingUnitsFor(random, items, commodity.piecesPerUnit);
  const pieces = items.reduce((s, i) => s + i.Pieces, 0);
  const weight = items.reduce((s, i) => s + i.Weight, 0);
  const reweighed = index % 3 === 0;
  const scaleWeight = reweighed ? Math.round((weight * (0.98 + random() * 0.08)) / 5) * 5 : undefined;

  const from = locate(shipper.ZipCode, shipper.Country)!;
  const to = locate(consignee.ZipCode, consignee.Country)!;
  const miles = distanceMiles(from, to);
  const route = routeFor(shipper, consignee, miles);
  const transitDays = standardServiceDays(miles, { state: shipper.State, country: shipper.Country }, { state: consignee.State, country: consignee.Country });

  const serviceLevel = index === 0 ? 'StandardService' : pick(random, SERVICE_LEVELS);
  const accessorials = ACCESSORIAL_POOL.filter(() => random() < 0.18);
  const hazmat = items.some((i) => i.IsHazmat);
  const exceptionRoll = random();
  const exception: ExceptionKind | undefined = pinned
    ? pinned.exception
    : exceptionRoll < 0.06 ? 'ConsigneeClosed' : exceptionRoll < 0.1 ? 'Damaged' : exceptionRoll < 0.13 ? 'Refused' : exceptionRoll < 0.18 ? 'Appointment' : undefined;
  const signer = pick(random, SIGNERS);

  const anchorDay = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), anchor.getUTCDate()));
  const pickupBase = pinned ? new Date(rollToBusinessDay(anchorDay).getTime() + 15 * HOUR) : pickupTimeFor(index, anchorDay, random);
  // Whole minutes, rounded down, so a pinned event never slips past the anchor it is placed before.
  const pinAt = pinned ? new Date(Math.floor((anchor.getTime() + pinned.hours * HOUR) / MINUTE) * MINUTE) : undefined;
  const plan = planTimeline({
    pickupAt: pickupBase, shipper, consignee, route, transitDays, signer, random,
    ...(exception ? { exception } : {}),
    ...(scaleWeight !== undefined ? { reweighedTo: scaleWeight } : {}),
    ...(pinned && pinAt ? { pin: { code: pinned.code, at: pinAt } } : {}),
  });

  const { lines, netCents } = freightCharges({
    items: items.map((i) => ({ freightClass: i.Class, weight: i.Weight })),
    miles,
    accessorials: hazmat ? [...accessorials, 'Hazmat'] : accessorials,
  });

  const hourlyWindow = serviceLevel === 'GuaranteedHourlyWindow' ? { Start: '01:00 PM', End: '03:00 PM' } : undefined;
  const specialInstructions = random() < 0.45 ? pick(random, SPECIAL_INSTRUCTIONS) : undefined;
  const declaredValue = random() < 0.2 ? { Value: String(randomInt(random, 2, 40) * 500), Per: 'Shipment' } : undefined;
  return {
    proNumber,
    bolId: 500_100 + index * 17,
    references,
    shipperNumber,
    quoteNumber,
    shipper,
    consignee,
    billTo,
    paymentTerms: is3PL || index % 4 !== 3 ? 'Prepaid' : 'Collect',
    is3PL,
    blind: is3PL && index % 12 === 4,
    items,
    handlingUnits,
    pieces,
    weight,
    ...(scaleWeight !== undefined ? { scaleWeight } : {}),
    serviceLevel,
    ...(hourlyWindow ? { hourlyWindow } : {}),
    accessorials,
    ...(specialInstructions ? { specialInstructions } : {}),
    ...(declaredValue ? { declaredValue } : {}),
    ...(hazmat ? { hazmatContact: { EmergencyNumber: '800-555-0142', ContractNumber: `CCN${digits(idRandom, 6)}`, ContractHolder: shipper.Name } } : {}),
    originTerminal: route[0]!,
    destinationTerminal: route[route.length - 1]!,
    route,
    miles,
    transitDays,
    ...(exception ? { exception } : {}),
    createdAt: plan.events[0]!.at,
    pickupAt: plan.events.find((e) => e.code === 'PU')!.at,
    estimatedDeliveryAt: plan.estimatedDeliveryAt,
    ...(plan.deliveredAt ? { deliveredAt: plan.deliveredAt, signedBy: signer } : {}),
    events: plan.events,
    charges: lines,
    netChargeCents: netCents,
  };
}

/** The whole history for an anchor time (pure: same anchor, same shipments). */
export function seededShipments(anchor: Date): Shipment[] {
  const list: Shipment[] = [];
  for (let i = 0; i < SHIPMENT_COUNT; i++) list.push(buildShipment(i, anchor));
  return list;
}

function longStatusOf(e: StatusEvent): string {
  return `${e.description} - ${e.city}, ${e.state} ${formatUsDateTime(e.at)}`;
}

/** What a trace shows at `now`: the last event decides the status. */
export function shipmentStatusAt(shipment: Shipment, now: Date): ShipmentStatus {
  const t = now.getTime();
  const history = shipment.events.filter((e) => e.at.getTime() <= t);
  const last = history[history.length - 1];
  const delivered = last?.code === 'DL';
  const rescheduled = shipment.exception === 'ConsigneeClosed' && history.some((e) => e.code === 'EX');
  const refused = shipment.exception === 'Refused';
  const expectedDeliveryAt = delivered || rescheduled ? shipment.deliveredAt : refused ? undefined : shipment.estimatedDeliveryAt;
  if (!last || last.code === 'BOL') {
    return {
      ShortStatus: 'Pickup Scheduled',
      LongStatus: `Pickup scheduled ${formatUsDateTime(shipment.pickupAt)} at ${shipment.shipper.City}, ${shipment.shipper.State}`,
      history,
      delivered: false,
      ...(expectedDeliveryAt ? { expectedDeliveryAt } : {}),
    };
  }
  return {
    ShortStatus: last.status,
    LongStatus: longStatusOf(last),
    history,
    delivered,
    ...(expectedDeliveryAt ? { expectedDeliveryAt } : {}),
  };
}

function normalizeReference(value: string): string {
  return value.trim().toUpperCase();
}

/**
 * Shipments whose number of the given trace type matches (case and surrounding blanks do not
 * matter). The PRO also matches without its leading zero, as people often drop it.
 */
export function findShipments(shipments: readonly Shipment[], traceType: TraceType, number: string): Shipment[] {
  const wanted = normalizeReference(number);
  if (!wanted) return [];
  return shipments.filter((s) => {
    const have = normalizeReference(s.references[traceType]);
    return have === wanted || (traceType === 'PRO' && have.replace(/^0+/, '') === wanted.replace(/^0+/, '') && /^\d+$/.test(wanted));
  });
}
