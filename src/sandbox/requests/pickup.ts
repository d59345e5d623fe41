/**
 * The rules of CreatePickupRequest: a shipper the carrier reaches, a pickup day the shipper's
 * terminal works (on its own clock) and a window its drivers work, what the service level needs,
 * destinations that are real places within LTL weights, and a linked bill of lading the pickup
 * may collect: one that exists, is this shipper's, is not cancelled, picked up or delivered,
 * has no pickup yet, and is dated no later than the pickup.
 */
import { getRecord, type JsonObject } from '../../core';
import { formatUsDate, HOME_ZONE, laneBetween, localDay, localMinutes, parseUsDate, parseUsTime, type Lane, type LaneEnd, type Shipment } from '../carrier';
import { num, obj, records } from '../json';
import type { SandboxStore } from '../state/store';
import { DOCUMENT_FIELDS, readAddress } from './address';
import { levelIn, missingRequired, pickupDayRules, pickupWindowRules, serviceLevelRules, totalWeightProblem, weightProblem } from './common';
import { lengthProblems } from './fields';
import { isBlank, text } from '../text';

export interface PickupCheck {
  readonly messages: string[];
  readonly warnings: string[];
  /** Where the pickup is made, when the Shipper's address is good. */
  readonly shipper?: LaneEnd;
  readonly linkedBolId?: number;
}

/** LinkedBolId as an int; 0 (what .NET writes for "none") links nothing. */
export function linkedBolIdOf(pickup: JsonObject): number | undefined {
  return typeof pickup.LinkedBolId === 'number' && pickup.LinkedBolId !== 0 ? pickup.LinkedBolId : undefined;
}

const sameName = (a: string, b: string) => a.toLowerCase().replace(/[^a-z0-9]/g, '') === b.toLowerCase().replace(/[^a-z0-9]/g, '');
const sameZip = (a: string, b: string) => a.toUpperCase().replace(/[\s-]/g, '').slice(0, 6) === b.toUpperCase().replace(/[\s-]/g, '').slice(0, 6);

function happened(s: Shipment, code: string, now: Date): Date | undefined {
  return s.events.find((e) => e.code === code && e.at.getTime() <= now.getTime())?.at;
}

/** Why this pickup may not collect the bill of lading, or undefined. */
function linkProblem(id: number, shipper: JsonObject, pickupDay: Date | undefined, store: SandboxStore, now: Date): string | undefined {
  const s = store.shipmentByBolId(id);
  if (!s) return `LinkedBolId ${id} does not match any bill of lading.`;
  const day = (at: Date, zone: string) => formatUsDate(localDay(at, zone));
  const cancelled = happened(s, 'CX', now);
  if (cancelled) return `LinkedBolId ${id} was cancelled on ${day(cancelled, s.originTerminal.zone)}: its bill of lading is void.`;
  const delivered = happened(s, 'DL', now);
  if (delivered) return `LinkedBolId ${id} was delivered on ${day(delivered, s.destinationTerminal.zone)}: there is nothing left to pick up.`;
  const pickedUp = happened(s, 'PU', now);
  if (pickedUp) return `LinkedBolId ${id} was already picked up on ${day(pickedUp, s.originTerminal.zone)}.`;
  const existing = store.pickupOf(id);
  if (existing) return `LinkedBolId ${id} already has ${existing}: one pickup collects a bill of lading.`;
  const name = text(shipper.Name);
  const zip = text(shipper.ZipCode);
  if ((name && !sameName(name, s.shipper.Name)) || (zip && !sameZip(zip, s.shipper.ZipCode))) {
    return `LinkedBolId ${id} belongs to another shipper (${s.shipper.Name}, ${s.shipper.City}, ${s.shipper.State} ${s.shipper.ZipCode}), not to ${name || 'this Shipper'}${zip ? ` at ${zip}` : ''}.`;
  }
  const bolDay = parseUsDate(s.bolDate);
  if (pickupDay && bolDay && pickupDay.getTime() < bolDay.getTime()) {
    return `PickupInformation PickupDate ${formatUsDate(pickupDay)} is before the BOLDate ${formatUsDate(bolDay)} of bill of lading ${id}: freight is picked up on or after the day its bill of lading is dated.`;
  }
  return undefined;
}

export function pickupRules(request: JsonObject, store: SandboxStore, now: Date): PickupCheck {
  if (request.Pickup === undefined || request.Pickup === null) return { messages: ['Pickup is required.'], warnings: [] };
  const pickup = obj(request.Pickup);
  const messages: string[] = [];
  const warnings: string[] = [];
  const level = levelIn(pickup);

  let shipper: LaneEnd | undefined;
  if (pickup.Shipper === undefined || pickup.Shipper === null) messages.push('Shipper is required.');
  else {
    const s = obj(pickup.Shipper);
    for (const name of missingRequired('PickupShipper', s)) messages.push(`Shipper ${name} is required.`);
    const address = readAddress('Shipper', s, DOCUMENT_FIELDS, true);
    messages.push(...address.problems);
    warnings.push(...address.warnings);
    shipper = address.end;
  }

  let pickupDay: Date | undefined;
  if (pickup.PickupInformation === undefined || pickup.PickupInformation === null) messages.push('PickupInformation is required.');
  else {
    const info = obj(pickup.PickupInformation);
    const window = pickupWindowRules('PickupInformation', info, messages);
    pickupDay = parseUsDate(info.PickupDate);
    const zone = shipper?.terminal.zone ?? HOME_ZONE;
    if (isBlank(info.PickupDate)) messages.push('PickupInformation PickupDate is required. Accepted date format MM/DD/YYYY.');
    else if (!pickupDay) messages.push(`PickupInformation PickupDate ${text(info.PickupDate)} is not a valid date. Accepted date format MM/DD/YYYY.`);
    else
      pickupDayRules(
        'PickupInformation PickupDate',
        pickupDay,
        localDay(now, zone),
        localMinutes(now, zone),
        window?.end ?? parseUsTime(info.CloseTime),
        level,
        messages,
      );
  }

  const lanes: Lane[] = [];
  let total = 0;
  records(pickup.Destinations).forEach((d, i) => {
    const label = `Destination ${i + 1}`;
    // A destination's country may be left out (the carrier's own template does): USA.
    const address = readAddress(label, d, DOCUMENT_FIELDS, true, 'USA');
    messages.push(...address.problems);
    warnings.push(...address.warnings);
    if (shipper && address.end) lanes.push(laneBetween(shipper, address.end));
    if (d.Pieces !== undefined && d.Pieces !== null && (num(d.Pieces) < 0 || !Number.isInteger(num(d.Pieces))))
      messages.push(`${label} Pieces must be a whole number, not negative.`);
    if (d.Weight !== undefined && d.Weight !== null) {
      const problem = weightProblem(`${label} Weight`, d.Weight, true);
      if (problem) messages.push(problem);
      else total += num(d.Weight);
    }
  });
  const heavy = totalWeightProblem(total);
  if (heavy) messages.push(heavy);
  serviceLevelRules(pickup, lanes, messages);

  const linkedBolId = linkedBolIdOf(pickup);
  if (linkedBolId !== undefined) {
    const problem = linkProblem(linkedBolId, obj(pickup.Shipper), pickupDay, store, now);
    if (problem) messages.push(problem);
  }
  for (const flag of ['IncludeBol', 'IncludeBolPdf']) {
    if (request[flag] === true && linkedBolId === undefined) messages.push(`${flag} needs a LinkedBolId: there is no bill of lading to include.`);
  }
  messages.push(...lengthProblems(getRecord('Pickup'), pickup));
  return { messages, warnings, ...(shipper ? { shipper } : {}), ...(linkedBolId !== undefined ? { linkedBolId } : {}) };
}
