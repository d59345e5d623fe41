/**
 * A bill of lading created over SOAP becomes a shipment like the seeded ones: the carrier model
 * plans it from its lane, service level and pickup, so tracing, documents and PDFs treat both
 * alike. The plan is a pure function of the stored bill of lading (and of the pickup that
 * collects it), so nothing but the requests needs persisting.
 */
import type { JsonObject } from '../../core';
import {
  atLocal,
  chargesFor,
  distinctAccessorials,
  firstPickupDay,
  laneBetween,
  laneEnd,
  localDay,
  localMinutes,
  normalizeCountry,
  normalizeFreightClass,
  parseUsDate,
  parseUsTime,
  planTimeline,
  serviceDays,
  isServiceLevel,
  type HandlingUnit,
  type HourlyWindow,
  type Party,
  type ServiceLevel,
  type Shipment,
  type ShipmentItem,
  type TraceType,
  MINUTE_MS,
  pickupTimes,
  type PickupTimes,
} from '../carrier';
import { pick, seededRandom } from '../history/random';
import { SIGNERS } from '../history/cast';
import { arr, num, obj } from '../json';
import { text } from '../text';
import type { TraceKeys } from '../trace/find';
import type { CreatedBol } from './records';

/** Without a pickup request the driver comes at 3:00 PM; with one, an hour after the ready time (never after the close). */
const DEFAULT_PICKUP_MINUTES = 15 * 60;

function party(p: JsonObject, contact: string): Party {
  return {
    Name: text(p.Name),
    AddressLine1: text(p.AddressLine1),
    AddressLine2: text(p.AddressLine2),
    City: text(p.City),
    State: text(p.State).toUpperCase(),
    ZipCode: text(p.ZipCode),
    Country: normalizeCountry(text(p.ISO3Country)) ?? 'USA',
    PhoneNumber: text(p.PhoneNumber),
    EmailAddress: text(p.EmailAddress),
    Contact: contact,
  };
}

function items(bol: JsonObject): ShipmentItem[] {
  return arr(bol.Items)
    .map(obj)
    .map((i) => ({
      Pieces: num(i.Pieces),
      PackageType: text(i.PackageType),
      Description: text(i.Description),
      NMFCItemNumber: text(i.NMFCItemNumber),
      NMFCSub: text(i.NMFCClass),
      Class: normalizeFreightClass(text(i.Class)) ?? text(i.Class),
      Weight: num(i.Weight),
      IsHazmat: i.IsHazmat === true,
    }));
}

export function levelOf(bol: JsonObject): ServiceLevel {
  const level = text(bol.ServiceLevel);
  return isServiceLevel(level) ? level : 'StandardService';
}

/** The booked window of a GuaranteedHourlyWindow bill of lading. */
export function windowOf(container: JsonObject): HourlyWindow | undefined {
  const w = obj(container.HourlyWindow);
  const start = parseUsTime(w.Start);
  const end = parseUsTime(w.End);
  return start !== undefined && end !== undefined ? { start, end } : undefined;
}

/** A pickup request as it bears on a shipment: its PickupInformation and when it was asked for. */
export interface PickupAsked {
  /** PickupDate, ReadyTime and CloseTime (a BOL's PickupRequestInfo, or a pickup's PickupInformation). */
  readonly info: JsonObject;
  readonly requestedAt: Date;
}

/**
 * When a requested pickup is made: on its day an hour after its ready time (capped at its close),
 * and never within an hour of the request (a pickup for today whose ready time has passed comes
 * an hour after it was asked for). Undefined when the request names no day or ready time.
 */
export function requestedPickup(asked: PickupAsked, zone: string): { day: Date; minutes: number } | undefined {
  const info = obj(asked.info);
  const earliest = new Date(asked.requestedAt.getTime() + 60 * MINUTE_MS);
  const day = parseUsDate(info.PickupDate);
  const ready = parseUsTime(info.ReadyTime);
  const close = parseUsTime(info.CloseTime);
  if (!day || ready === undefined) return undefined;
  let minutes = ready + 60;
  if (atLocal(day, minutes, zone).getTime() < earliest.getTime() && localDay(earliest, zone).getTime() === day.getTime())
    minutes = localMinutes(earliest, zone);
  return { day, minutes: Math.min(minutes, close ?? minutes) };
}

/** A requested pickup's times on the carrier clock (pending, dispatched, picked up: carrier/pickup.ts). */
export function requestedPickupTimes(asked: PickupAsked, zone: string): PickupTimes | undefined {
  const planned = requestedPickup(asked, zone);
  return planned && pickupTimes(asked.requestedAt, atLocal(planned.day, planned.minutes, zone));
}

/** The pickup a bill of lading asked for itself (AddPickupRequest), at its creation. */
export function ownPickup(created: CreatedBol): PickupAsked | undefined {
  return created.pickupRequestInfo ? { info: created.pickupRequestInfo, requestedAt: new Date(created.createdAt) } : undefined;
}

/**
 * When the freight is picked up: as its pickup request says (requestedPickup), else at 3:00 PM on
 * the BOL date; never on a day the service does not work, and never within an hour of the bill of
 * lading's creation.
 */
export function plannedPickup(created: CreatedBol, zone: string, level: ServiceLevel, asked = ownPickup(created)): { day: Date; minutes: number } {
  const requested = asked && requestedPickup(asked, zone);
  if (requested) return requested;
  const createdAt = new Date(created.createdAt);
  const earliest = new Date(createdAt.getTime() + 60 * MINUTE_MS);
  const bolDay = parseUsDate(created.billOfLading.BOLDate) ?? localDay(createdAt, zone);
  return { day: firstPickupDay(bolDay, DEFAULT_PICKUP_MINUTES, zone, earliest, level), minutes: DEFAULT_PICKUP_MINUTES };
}

/** The numbers a trace finds a stored bill of lading by: read from the request alone, without planning it. */
export function traceKeysOf(created: CreatedBol): TraceKeys {
  const refs = obj(created.billOfLading.ReferenceNumbers);
  const shipperNumber = text(refs.ShipperNumber);
  const quoteNumber = text(refs.QuoteNumber);
  const po = text(refs.PONumber);
  const references: Record<TraceType, string> = {
    PRO: created.pro,
    BOL: String(created.bolId),
    Job: '',
    Manifest: '',
    PO: po,
    Sales: quoteNumber,
    Account: '',
    CustomerOrder: shipperNumber,
    CustomerPO: po,
    Lot: '',
    Order: shipperNumber,
    Reference: shipperNumber || quoteNumber || po,
  };
  return { references, shipperNumber, quoteNumber, bolId: created.bolId };
}

/** `asked`: the pickup request that collects it, when there is one (its own AddPickupRequest, or a linked pickup). */
export function shipmentFromBol(created: CreatedBol, asked = ownPickup(created)): Shipment {
  const bol = created.billOfLading;
  const shipperIn = obj(bol.Shipper);
  const consigneeIn = obj(bol.Consignee);
  const shipper = party(shipperIn, text(shipperIn.Name));
  const consignee = party(consigneeIn, text(consigneeIn.Attention));
  const billToIn = obj(bol.BillTo);
  const billTo = text(billToIn.Name) ? party(billToIn, text(billToIn.Name)) : shipper;
  const origin = laneEnd(shipper.ZipCode, shipper.Country);
  const destination = laneEnd(consignee.ZipCode, consignee.Country);
  // CreateBillOfLading only stores bills of lading whose ends it can locate.
  if (!origin || !destination) throw new Error(`BOL ${created.bolId}: shipper or consignee ZIP cannot be located`);
  const lane = laneBetween(origin, destination);
  const level = levelOf(bol);
  const window = level === 'GuaranteedHourlyWindow' ? windowOf(bol) : undefined;
  const random = seededRandom(0xb01_0000 + created.bolId);
  const signer = pick(random, SIGNERS);
  const shipmentItems = items(bol);
  const accessorials = distinctAccessorials(arr(bol.AdditionalServices).filter((a): a is string => typeof a === 'string'));
  const hazmat = shipmentItems.some((i) => i.IsHazmat);
  const createdAt = new Date(created.createdAt);
  const zone = lane.origin.terminal.zone;
  const pickup = plannedPickup(created, zone, level, asked);
  // A requested pickup has its driver dispatched on the clock (DS); a route stop without one does not.
  const times = asked && requestedPickupTimes(asked, zone);

  const plan = planTimeline({
    lane,
    level,
    ...(window ? { window } : {}),
    createdAt,
    pickupDay: pickup.day,
    pickupMinutes: pickup.minutes,
    shipper: { City: shipper.City, State: shipper.State },
    consignee: { City: consignee.City, State: consignee.State },
    signer,
    random,
    ...(times ? { dispatchedAt: times.dispatchedAt } : {}),
  });

  const { references, shipperNumber, quoteNumber } = traceKeysOf(created);
  const handlingUnits: HandlingUnit[] = shipmentItems.map((i) => ({
    Type: i.PackageType,
    Quantity: Math.max(1, i.Pieces),
    Length: 48,
    Width: 40,
    Height: 48,
    Weight: i.Weight,
  }));
  const hazInfo = obj(bol.HazmatInformation);
  const declared = obj(bol.DeclaredValue);
  const cod = obj(bol.RemitCOD);
  const dollars = (v: unknown) => num(String(v ?? '').replace(/[$,]/g, ''));
  const { lines, netCents } = chargesFor({
    lane,
    level,
    items: shipmentItems.map((i) => ({ freightClass: i.Class, weight: i.Weight })),
    accessorials,
    hazmat,
    codAmount: dollars(cod.CODAmount),
    declaredValue: dollars(declared.Value),
  });
  const w = obj(bol.HourlyWindow);
  return {
    proNumber: created.pro,
    bolId: created.bolId,
    references,
    shipperNumber,
    quoteNumber,
    shipper,
    consignee,
    billTo,
    paymentTerms: text(bol.FreightChargePaymentMethod) === 'Collect' ? 'Collect' : 'Prepaid',
    is3PL: billTo !== shipper && billTo.Name !== shipper.Name,
    blind: false,
    items: shipmentItems,
    handlingUnits,
    pieces: shipmentItems.reduce((s, i) => s + i.Pieces, 0),
    weight: shipmentItems.reduce((s, i) => s + i.Weight, 0),
    serviceLevel: level,
    ...(window ? { hourlyWindow: { Start: text(w.Start), End: text(w.End) } } : {}),
    accessorials,
    ...(text(bol.SpecialInstructions) ? { specialInstructions: text(bol.SpecialInstructions) } : {}),
    ...(text(declared.Value) ? { declaredValue: { Value: text(declared.Value), Per: text(declared.Per) } } : {}),
    ...(hazmat
      ? {
          hazmatContact: {
            EmergencyNumber: text(hazInfo.EmergenyNumber),
            ContractNumber: text(hazInfo.ContractNumber),
            ContractHolder: text(hazInfo.ContractHolder),
          },
        }
      : {}),
    lane,
    originTerminal: lane.route[0]!,
    destinationTerminal: lane.route[lane.route.length - 1]!,
    route: lane.route,
    miles: lane.miles,
    transitDays: serviceDays(level, lane),
    bolDate: text(bol.BOLDate),
    createdAt,
    pickupDay: pickup.day,
    pickupAt: plan.pickupAt,
    dueDay: plan.dueDay,
    dueAt: plan.dueAt,
    estimatedDeliveryAt: plan.estimatedDeliveryAt,
    ...(plan.deliveredAt ? { deliveredAt: plan.deliveredAt, signedBy: signer } : {}),
    events: plan.events,
    charges: lines,
    netChargeCents: netCents,
  };
}
