/**
 * The sandbox's shipment history: 48 LTL shipments with every reference number a trace can ask
 * for, picked up from about ten days before the sandbox's day to two days after it, each planned
 * by the carrier model like any bill of lading: business days, working hours on the terminals'
 * own clocks, the promises of its service level.
 *
 * The history is a pure function of a day (a seeded PRNG, never Math.random or the clock): the
 * sandbox passes its start time, and only the date of it in the carrier's home zone (Eastern)
 * counts, so every start on one day gives the same shipments. Every bill of lading was created
 * before that day began. A few shipments are pinned to the day's last business day (B0) so that
 * on a business day between 8:30 AM and 4:45 PM Eastern there is one in every state: scheduled,
 * picked up, in transit, out for delivery, delivered, in exception and cancelled. At other hours
 * only the states a carrier can have then remain (nobody is out for delivery at midnight).
 */
import {
  addWorkingDays,
  atLocal,
  chargesFor,
  distinctAccessorials,
  formatUsDate,
  isWorkingDay,
  laneBetween,
  laneEnd,
  localDay,
  lookupHazmat,
  planTimeline,
  previousWorkingDay,
  quotedLevels,
  rollToWorkingDay,
  serviceDays,
  addDays,
  HOME_ZONE,
  type Day,
  type ExceptionKind,
  type Lane,
  type Party,
  type ServiceLevel,
  type Shipment,
  type ShipmentItem,
  type HandlingUnit,
  type StatusEvent,
  type TraceType,
} from '../carrier';
import { COMMODITIES, COMPANIES, LANES, SIGNERS, SPECIAL_INSTRUCTIONS, THIRD_PARTY_BILL_TO, type Company } from './cast';
import { digits, pick, randomInt, seededRandom, type Random } from './random';

const SHIPMENT_COUNT = 48;

/** Sample PROs README.md names: a real-looking one and the carrier's test PRO. */
export const SAMPLE_PRO = '056391174';
export const TEST_PRO = 'I111111111';

/**
 * The pinned shipments, relative to B0 (the history day, or the business day before it when
 * the day is not one). Times are local minutes at the place the event happens.
 */
type Pin =
  | { kind: 'scheduled'; index: number; lane: number }
  | { kind: 'pickedUp'; index: number; lane: number }
  | { kind: 'inTransit'; index: number; lane: number }
  | { kind: 'outForDelivery'; index: number; lane: number }
  | { kind: 'delivered'; index: number; lane: number; daysBefore: number; exception?: ExceptionKind; pro?: string }
  | { kind: 'exception'; index: number; lane: number; exception: 'ConsigneeClosed' | 'Refused'; daysBefore: number }
  | { kind: 'cancelled'; index: number; lane: number };

const PINNED: readonly Pin[] = [
  { kind: 'scheduled', index: 1, lane: 2 },
  { kind: 'pickedUp', index: 2, lane: 9 },
  { kind: 'inTransit', index: 3, lane: 4 },
  { kind: 'outForDelivery', index: 4, lane: 6 },
  { kind: 'delivered', index: 5, lane: 19, daysBefore: 1 },
  { kind: 'exception', index: 6, lane: 6, exception: 'ConsigneeClosed', daysBefore: 0 },
  { kind: 'exception', index: 7, lane: 8, exception: 'Refused', daysBefore: 1 },
  { kind: 'delivered', index: 8, lane: 0, daysBefore: 3, exception: 'Damaged', pro: TEST_PRO },
  { kind: 'cancelled', index: 9, lane: 1 },
];

function party(c: Company | typeof THIRD_PARTY_BILL_TO): Party {
  return {
    Name: c.Name,
    AddressLine1: c.AddressLine1,
    AddressLine2: c.AddressLine2,
    City: c.City,
    State: c.State,
    ZipCode: c.ZipCode,
    Country: c.Country,
    PhoneNumber: c.PhoneNumber,
    EmailAddress: c.EmailAddress,
    Contact: c.Contact,
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
        ? {
            hazmat: {
              Number: hazmatEntry.Number,
              Description: hazmatEntry.Description,
              hazardClass: hz.hazardClass,
              ...(hz.packingGroup ? { packingGroup: hz.packingGroup } : {}),
            },
          }
        : {}),
    });
  }
  return items;
}

function handlingUnitsFor(random: Random, items: readonly ShipmentItem[], piecesPerUnit: number): HandlingUnit[] {
  return items.map((item) => ({
    Type: piecesPerUnit > 1 ? 'PLT' : item.PackageType,
    Quantity: Math.max(1, Math.round(item.Pieces / piecesPerUnit)),
    Length: 48,
    Width: 40,
    Height: randomInt(random, 30, 72),
    Weight: item.Weight,
  }));
}

// A table laid out by hand (rows grouped by line): the formatter leaves it as written.
// prettier-ignore
const LEVEL_POOL: readonly ServiceLevel[] = [
  'StandardService', 'StandardService', 'StandardService', 'StandardService', 'StandardService', 'StandardService',
  'GuaranteedService', 'GuaranteedByNoon', 'GuaranteedHourlyWindow', 'ExpeditedService', 'WeekendExpress',
];
const ACCESSORIAL_POOL = [
  'DestinationLiftgate',
  'DeliveryNotification',
  'InsideDelivery',
  'LimitedAccessDelivery',
  'OriginLiftgate',
  'FreezeProtection',
] as const;

/** The business day the pins hang on: the history's day, or the business day before it. */
export function historyDay(anchor: Date): Day {
  const day = localDay(anchor, HOME_ZONE);
  return isWorkingDay(day) ? day : previousWorkingDay(day);
}

const back = (day: Day, n: number): Day => (n === 0 ? day : addWorkingDays(day, -n));

interface Schedule {
  readonly pickupDay: Day;
  readonly pickupMinutes: number;
  readonly createdAt: Date;
  readonly exception?: ExceptionKind;
  readonly outForDeliveryMinutes?: number;
  readonly deliveryMinutes?: number;
  readonly cancelledAt?: Date;
}

/** When a pinned shipment is picked up (and what happens to it), so that it is in its state on B0. */
function pinnedSchedule(pin: Pin, lane: Lane, b0: Day): Schedule {
  const origin = lane.origin.terminal.zone;
  const days = serviceDays('StandardService', lane);
  const latest = atLocal(previousWorkingDay(b0), 16 * 60, origin);
  const createdBefore = (pickupDay: Day) => {
    const created = atLocal(previousWorkingDay(pickupDay), 15 * 60 + 40, origin);
    return created.getTime() <= latest.getTime() ? created : latest;
  };
  const at = (pickupDay: Day, minutes: number, extra: Partial<Schedule> = {}): Schedule => ({
    pickupDay,
    pickupMinutes: minutes,
    createdAt: createdBefore(pickupDay),
    ...extra,
  });
  switch (pin.kind) {
    case 'scheduled':
      return at(addWorkingDays(b0, 1), 14 * 60);
    case 'pickedUp':
      return { ...at(b0, 8 * 60 + 30), createdAt: atLocal(previousWorkingDay(b0), 16 * 60, origin) };
    case 'inTransit':
      return at(back(b0, 1), 14 * 60 + 10);
    // Out on the truck from 7:05 AM, delivered late in the afternoon: out for delivery all working day.
    case 'outForDelivery':
      return at(back(b0, days), 14 * 60 + 30, { outForDeliveryMinutes: 7 * 60 + 5, deliveryMinutes: 16 * 60 + 45 });
    case 'delivered':
      return at(back(b0, days + pin.daysBefore), 13 * 60 + 50, pin.exception ? { exception: pin.exception } : {});
    case 'exception':
      return at(back(b0, days + pin.daysBefore), 15 * 60, {
        exception: pin.exception,
        ...(pin.daysBefore === 0 ? { outForDeliveryMinutes: 7 * 60, deliveryMinutes: 9 * 60 + 20 } : {}),
      });
    case 'cancelled': {
      const created = atLocal(back(b0, 2), 10 * 60 + 15, origin);
      return { pickupDay: addWorkingDays(b0, 1), pickupMinutes: 14 * 60, createdAt: created, cancelledAt: atLocal(back(b0, 1), 11 * 60 + 30, origin) };
    }
  }
}

/** Spread from 10 days before B0 to 2 days after, with some jitter; created one to three business days before pickup, and before B0. */
function spreadSchedule(index: number, lane: Lane, b0: Day, random: Random, exception: ExceptionKind | undefined): Schedule {
  const offsetDays = -10 + (12 * index) / (SHIPMENT_COUNT - 1) + (random() - 0.5);
  const pickupDay = rollToWorkingDay(addDays(b0, Math.round(offsetDays)));
  const origin = lane.origin.terminal.zone;
  const lead = randomInt(random, 1, 3);
  const createdDay = addWorkingDays(pickupDay, -lead);
  const created = atLocal(createdDay, 9 * 60 + Math.floor(random() * 420), origin);
  const latest = atLocal(previousWorkingDay(b0), 16 * 60, origin);
  return {
    pickupDay,
    pickupMinutes: 13 * 60 + Math.floor(random() * 210),
    createdAt: created.getTime() <= latest.getTime() ? created : latest,
    ...(exception ? { exception } : {}),
  };
}

function buildShipment(index: number, b0: Day): Shipment {
  const random = seededRandom(0x5eed_0000 + index * 7919);
  // Numbers come from their own stream so they stay put when the freight model changes.
  const idRandom = seededRandom(0x1d00_0000 + index * 104_723);
  const pin = PINNED.find((p) => p.index === index);
  const laneIndex = pin?.lane ?? index % LANES.length;
  const [a, b] = LANES[laneIndex]!;
  // The second pass over the lanes runs them backwards, so freight flows both ways.
  const reverse = !pin && index >= LANES.length;
  const shipperCo = COMPANIES[reverse ? b : a]!;
  const consigneeCo = COMPANIES[reverse ? a : b]!;
  const shipper = party(shipperCo);
  const consignee = party(consigneeCo);
  const is3PL = index % 6 === 4;
  const billTo = is3PL ? party(THIRD_PARTY_BILL_TO) : shipper;

  const proNumber =
    (pin?.kind === 'delivered' ? pin.pro : undefined) ??
    (index === 0 ? SAMPLE_PRO : `0${String(10_000_000 + index * 1_979_341 + randomInt(idRandom, 0, 999)).slice(-8)}`);
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
  const reweighed = index % 3 === 0 && pin?.kind !== 'cancelled';
  const scaleWeight = reweighed ? Math.round((weight * (0.98 + random() * 0.08)) / 5) * 5 : undefined;

  const lane = laneBetween(laneEnd(shipper.ZipCode, shipper.Country)!, laneEnd(consignee.ZipCode, consignee.Country)!);
  const offered = new Set(quotedLevels(lane).map((r) => r.level));
  const drawn = pick(random, LEVEL_POOL);
  // Pinned shipments keep standard service, so their days are the lane's standard days.
  const serviceLevel: ServiceLevel = index === 0 || pin || !(offered.has(drawn) || (drawn === 'WeekendExpress' && lane.contiguous)) ? 'StandardService' : drawn;
  const accessorials = distinctAccessorials(ACCESSORIAL_POOL.filter(() => random() < 0.18));
  const hazmat = items.some((i) => i.IsHazmat);
  const exceptionRoll = random();
  const drawnException: ExceptionKind | undefined =
    exceptionRoll < 0.06
      ? 'ConsigneeClosed'
      : exceptionRoll < 0.1
        ? 'Damaged'
        : exceptionRoll < 0.13
          ? 'Refused'
          : exceptionRoll < 0.18
            ? 'Appointment'
            : undefined;
  const signer = pick(random, SIGNERS);
  const schedule = pin ? pinnedSchedule(pin, lane, b0) : spreadSchedule(index, lane, b0, random, index === 0 ? undefined : drawnException);
  const window = serviceLevel === 'GuaranteedHourlyWindow' ? { start: 13 * 60, end: 15 * 60 } : undefined;

  const plan = planTimeline({
    lane,
    level: serviceLevel,
    ...(window ? { window } : {}),
    createdAt: schedule.createdAt,
    pickupDay: schedule.pickupDay,
    pickupMinutes: schedule.pickupMinutes,
    shipper,
    consignee,
    signer,
    random,
    ...(schedule.exception ? { exception: schedule.exception } : {}),
    ...(scaleWeight !== undefined ? { reweighedTo: scaleWeight } : {}),
    ...(schedule.outForDeliveryMinutes !== undefined ? { outForDeliveryMinutes: schedule.outForDeliveryMinutes } : {}),
    ...(schedule.deliveryMinutes !== undefined ? { deliveryMinutes: schedule.deliveryMinutes } : {}),
    ...(schedule.cancelledAt ? { cancelledAt: schedule.cancelledAt } : {}),
  });

  const specialInstructions = random() < 0.45 ? pick(random, SPECIAL_INSTRUCTIONS) : undefined;
  const declaredValue = random() < 0.2 ? { Value: String(randomInt(random, 2, 40) * 500), Per: 'Shipment' } : undefined;
  const { lines, netCents } = chargesFor({
    lane,
    level: serviceLevel,
    items: items.map((i) => ({ freightClass: i.Class, weight: i.Weight })),
    accessorials,
    hazmat,
    ...(declaredValue ? { declaredValue: Number(declaredValue.Value) } : {}),
  });
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
    ...(window ? { hourlyWindow: { Start: '01:00 PM', End: '03:00 PM' } } : {}),
    accessorials,
    ...(specialInstructions ? { specialInstructions } : {}),
    ...(declaredValue ? { declaredValue } : {}),
    ...(hazmat ? { hazmatContact: { EmergencyNumber: '800-555-0142', ContractNumber: `CCN${digits(idRandom, 6)}`, ContractHolder: shipper.Name } } : {}),
    lane,
    originTerminal: lane.route[0]!,
    destinationTerminal: lane.route[lane.route.length - 1]!,
    route: lane.route,
    miles: lane.miles,
    transitDays: serviceDays(serviceLevel, lane),
    ...(schedule.exception ? { exception: schedule.exception } : {}),
    bolDate: formatUsDate(schedule.pickupDay),
    createdAt: schedule.createdAt,
    pickupDay: schedule.pickupDay,
    pickupAt: plan.pickupAt,
    dueDay: plan.dueDay,
    dueAt: plan.dueAt,
    estimatedDeliveryAt: plan.estimatedDeliveryAt,
    ...(plan.deliveredAt ? { deliveredAt: plan.deliveredAt, signedBy: signer } : {}),
    ...(schedule.cancelledAt ? { cancelledAt: schedule.cancelledAt } : {}),
    events: plan.events,
    charges: lines,
    netChargeCents: netCents,
  };
}

/** The whole history for the day of `anchor` (pure: any instant of one day gives the same shipments). */
export function seededShipments(anchor: Date): Shipment[] {
  const b0 = historyDay(anchor);
  const list: Shipment[] = [];
  for (let i = 0; i < SHIPMENT_COUNT; i++) list.push(buildShipment(i, b0));
  return list;
}

export type { StatusEvent };

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
