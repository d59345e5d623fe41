/**
 * A bill of lading created over SOAP becomes a shipment like the seeded ones: same terminals,
 * tariff and planned timeline, so tracing, documents and PDFs treat both alike. The plan is a
 * pure function of the stored BOL, so nothing but the request needs persisting.
 */
import { rollToBusinessDay, type JsonObject } from '../../core';
import { normalizeCountry } from '../data/geography';
import { pick, seededRandom } from '../data/prng';
import { SIGNERS } from '../data/shipment-catalog';
import type { HandlingUnit, Party, ServiceLevel, Shipment, ShipmentItem, TraceType } from '../data/shipments';
import { freightCharges, normalizeFreightClass } from '../data/tariff';
import { planTimeline } from '../data/timeline';
import { laneBetween, laneEnd } from '../rating/lane';
import { parseUsDate, parseUsTime, text } from '../rules/formats';
import type { TraceKeys } from '../trace/find';
import type { CreatedBol } from './records';
import { arr, obj } from '../json';

const HOUR = 3_600_000;
const MINUTE = 60_000;

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
  return arr(bol.Items).map(obj).map((i) => ({
    Pieces: typeof i.Pieces === 'number' ? i.Pieces : 0,
    PackageType: text(i.PackageType),
    Description: text(i.Description),
    NMFCItemNumber: text(i.NMFCItemNumber),
    NMFCSub: text(i.NMFCClass),
    Class: normalizeFreightClass(text(i.Class)) ?? text(i.Class),
    Weight: typeof i.Weight === 'number' ? i.Weight : 0,
    IsHazmat: i.IsHazmat === true,
  }));
}

/**
 * When the freight is picked up: the pickup's ready time plus an hour (capped at its close time),
 * else 3 PM on the BOL date; never on a closed day and never before the BOL exists.
 */
export function plannedPickupAt(created: CreatedBol, pickupInfo?: JsonObject): Date {
  const info = obj(pickupInfo ?? created.pickupRequestInfo);
  const day = parseUsDate(info.PickupDate) ?? parseUsDate(created.billOfLading.BOLDate) ?? new Date(created.createdAt);
  const ready = parseUsTime(info.ReadyTime);
  const close = parseUsTime(info.CloseTime);
  const minutes = ready !== undefined ? Math.min(ready + 60, close ?? Infinity) : 15 * 60;
  const dayStart = rollToBusinessDay(new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())));
  const planned = new Date(dayStart.getTime() + minutes * MINUTE);
  const earliest = new Date(created.createdAt).getTime() + HOUR;
  return planned.getTime() >= earliest ? planned : new Date(earliest);
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

/** `pickupInfo`: PickupDate, ReadyTime and CloseTime of the pickup that collects it, when there is one. */
export function shipmentFromBol(created: CreatedBol, pickupInfo?: JsonObject): Shipment {
  const bol = created.billOfLading;
  const shipperIn = obj(bol.Shipper);
  const consigneeIn = obj(bol.Consignee);
  const shipper = party(shipperIn, text(shipperIn.Name));
  const consignee = party(consigneeIn, text(consigneeIn.Attention));
  const billToIn = obj(bol.BillTo);
  const billTo = text(billToIn.Name) ? party(billToIn, text(billToIn.Name)) : shipper;
  const origin = laneEnd(shipper.ZipCode, shipper.Country);
  const destination = laneEnd(consignee.ZipCode, consignee.Country);
  // CreateBillOfLading only stores BOLs whose ends it can locate.
  if (!origin || !destination) throw new Error(`BOL ${created.bolId}: shipper or consignee ZIP cannot be located`);
  const lane = laneBetween(origin, destination);
  const random = seededRandom(0xb01_0000 + created.bolId);
  const signer = pick(random, SIGNERS);
  const shipmentItems = items(bol);
  const accessorials = arr(bol.AdditionalServices).filter((a): a is string => typeof a === 'string');
  const hazmat = shipmentItems.some((i) => i.IsHazmat);

  const plan = planTimeline({
    pickupAt: plannedPickupAt(created, pickupInfo),
    shipper: { City: shipper.City, State: shipper.State },
    consignee: { City: consignee.City, State: consignee.State },
    route: lane.route,
    transitDays: lane.serviceDays,
    signer,
    random,
  });
  // The plan backdates "information received"; for a BOL made here it is the moment of creation.
  const createdAt = new Date(created.createdAt);
  const events = plan.events.map((e) => (e.code === 'BOL' ? { ...e, at: createdAt } : e));

  const { references, shipperNumber, quoteNumber } = traceKeysOf(created);
  const handlingUnits: HandlingUnit[] = shipmentItems.map((i) => ({ Type: i.PackageType, Quantity: Math.max(1, i.Pieces), Length: 48, Width: 40, Height: 48, Weight: i.Weight }));
  const { lines, netCents } = freightCharges({
    items: shipmentItems.map((i) => ({ freightClass: i.Class, weight: i.Weight })),
    miles: lane.miles,
    accessorials: hazmat ? [...accessorials, 'Hazmat'] : accessorials,
  });
  const hazInfo = obj(bol.HazmatInformation);
  const declared = obj(bol.DeclaredValue);
  const window = obj(bol.HourlyWindow);
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
    serviceLevel: (text(bol.ServiceLevel) || 'StandardService') as ServiceLevel,
    ...(text(window.Start) || text(window.End) ? { hourlyWindow: { Start: text(window.Start), End: text(window.End) } } : {}),
    accessorials,
    ...(text(bol.SpecialInstructions) ? { specialInstructions: text(bol.SpecialInstructions) } : {}),
    ...(text(declared.Value) ? { declaredValue: { Value: text(declared.Value), Per: text(declared.Per) } } : {}),
    ...(hazmat ? { hazmatContact: { EmergencyNumber: text(hazInfo.EmergenyNumber), ContractNumber: text(hazInfo.ContractNumber), ContractHolder: text(hazInfo.ContractHolder) } } : {}),
    originTerminal: lane.route[0]!,
    destinationTerminal: lane.route[lane.route.length - 1]!,
    route: lane.route,
    miles: lane.miles,
    transitDays: lane.serviceDays,
    createdAt,
    pickupAt: events.find((e) => e.code === 'PU')!.at,
    estimatedDeliveryAt: plan.estimatedDeliveryAt,
    ...(plan.deliveredAt ? { deliveredAt: plan.deliveredAt, signedBy: signer } : {}),
    events,
    charges: lines,
    netChargeCents: netCents,
  };
}
