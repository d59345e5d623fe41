/**
 * The business rules of CreatePickupRequest: a shipper the carrier can reach, a pickup day and
 * window it works, what the service level needs, and a linked bill of lading that exists.
 */
import type { JsonObject } from '../../core';
import { num, obj } from '../json';
import { laneEnd } from '../rating/lane';
import type { SandboxStore } from '../state/store';
import { missingRequired, serviceLevelRules, timeWindowRules } from './billOfLadingRules';
import { isBlank, parseUsDate, text } from './formats';
import { checkPickupDay } from './pickupDay';

export function pickupRules(request: JsonObject, store: SandboxStore, now: Date): string[] {
  if (request.Pickup === undefined || request.Pickup === null) return ['Pickup is required.'];
  const pickup = obj(request.Pickup);
  const messages: string[] = [];

  if (pickup.Shipper === undefined || pickup.Shipper === null) messages.push('Shipper is required.');
  else {
    const shipper = obj(pickup.Shipper);
    for (const name of missingRequired('PickupShipper', shipper)) messages.push(`Shipper ${name} is required.`);
    const country = text(shipper.ISO3Country);
    const zip = text(shipper.ZipCode);
    if (country && zip && !laneEnd(zip, country)) messages.push(`Shipper ZipCode ${zip} is not a valid postal code for ${country}.`);
  }

  if (pickup.PickupInformation === undefined || pickup.PickupInformation === null) messages.push('PickupInformation is required.');
  else {
    const info = obj(pickup.PickupInformation);
    const day = parseUsDate(info.PickupDate);
    if (isBlank(info.PickupDate)) messages.push('PickupInformation PickupDate is required. Accepted date format MM/DD/YYYY.');
    else if (!day) messages.push(`PickupInformation PickupDate ${text(info.PickupDate)} is not a valid date. Accepted date format MM/DD/YYYY.`);
    else checkPickupDay('PickupInformation PickupDate', day, now, messages);
    timeWindowRules('PickupInformation', info.ReadyTime, info.CloseTime, 'ReadyTime', 'CloseTime', messages);
  }

  serviceLevelRules(pickup, messages);

  (Array.isArray(pickup.Destinations) ? pickup.Destinations : []).forEach((raw, i) => {
    if (raw === null) return;
    const d = obj(raw);
    const zip = text(d.ZipCode);
    const country = text(d.ISO3Country) || 'USA';
    if (zip && !laneEnd(zip, country)) messages.push(`Destination ${i + 1} ZipCode ${zip} is not a valid postal code for ${country}.`);
    if (num(d.Pieces) < 0) messages.push(`Destination ${i + 1} Pieces must not be negative.`);
    if (num(d.Weight) < 0) messages.push(`Destination ${i + 1} Weight must not be negative.`);
  });

  const linked = typeof pickup.LinkedBolId === 'number' && pickup.LinkedBolId !== 0 ? pickup.LinkedBolId : undefined;
  if (linked !== undefined && !store.shipmentByBolId(linked)) messages.push(`LinkedBolId ${linked} does not match any bill of lading.`);
  for (const flag of ['IncludeBol', 'IncludeBolPdf']) {
    if (request[flag] === true && linked === undefined) messages.push(`${flag} needs a LinkedBolId: there is no bill of lading to include.`);
  }
  return messages;
}
