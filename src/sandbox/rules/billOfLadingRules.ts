/**
 * The business rules of CreateBillOfLading (service-facts §8): the carrier's sample notes say
 * which parts are required and which are required only together with others. Every broken rule
 * is one message; the reply lists them all (WasSuccess=false, Messages/string), so a client
 * fixes everything in one round.
 *
 * Leniency: IsHazmat and AddPickupRequest left out mean false (a boolean's default); every
 * other field the sample notes call required must be there.
 */
import { getRecord, type JsonObject } from '../../core';
import { normalizeFreightClass, FREIGHT_CLASSES } from '../data/tariff';
import { arr, num, obj } from '../json';
import { laneEnd } from '../rating/lane';
import { isBlank, parseUsDate, parseUsTime, text } from './formats';
import { checkPickupDay } from './pickupDay';

/** Required fields of a catalog record that are missing or blank in `value`. */
export function missingRequired(recordName: string, value: JsonObject, skip: readonly string[] = []): string[] {
  return getRecord(recordName).fields.filter((f) => f.required && !skip.includes(f.name) && isBlank(value[f.name])).map((f) => f.name);
}

function partyRules(label: string, recordName: string, party: unknown, messages: string[]): void {
  if (party === undefined || party === null) {
    messages.push(`${label} is required.`);
    return;
  }
  const p = obj(party);
  for (const name of missingRequired(recordName, p)) messages.push(`${label} ${name} is required.`);
  const country = text(p.ISO3Country);
  const zip = text(p.ZipCode);
  if (country && !['USA', 'CAN', 'PRI'].includes(country.toUpperCase())) messages.push(`${label} ISO3Country ${country} is not valid: use USA, CAN or PRI.`);
  else if (country && zip && !laneEnd(zip, country)) messages.push(`${label} ZipCode ${zip} is not a valid postal code for ${country}.`);
}

function itemRules(items: unknown, messages: string[]): boolean {
  const list = arr(items);
  if (!list.length) {
    messages.push('At least one item is required.');
    return false;
  }
  let hazmat = false;
  list.forEach((raw, i) => {
    const label = `Item ${i + 1}`;
    const item = obj(raw);
    if (raw === null) { messages.push(`${label} is empty.`); return; }
    for (const name of missingRequired('BolItem', item, ['IsHazmat', 'Pieces', 'Weight', 'Class'])) messages.push(`${label} ${name} is required.`);
    if (item.IsHazmat === true) hazmat = true;
    if (num(item.Pieces) <= 0) messages.push(`${label} Pieces must be greater than 0.`);
    if (num(item.Weight) <= 0) messages.push(`${label} Weight must be greater than 0.`);
    const cls = text(item.Class);
    if (!cls) messages.push(`${label} Class is required.`);
    else if (!normalizeFreightClass(cls)) messages.push(`${label} Class ${cls} is not a valid freight class. Valid classes: ${FREIGHT_CLASSES.join(', ')}.`);
  });
  return hazmat;
}

function pickupInfoRules(info: unknown, now: Date, messages: string[]): void {
  if (info === undefined || info === null) {
    messages.push('PickupRequestInfo is required when AddPickupRequest is true.');
    return;
  }
  const p = obj(info);
  const date = parseUsDate(p.PickupDate);
  if (isBlank(p.PickupDate)) messages.push('PickupRequestInfo PickupDate is required when AddPickupRequest is true.');
  else if (!date) messages.push(`PickupRequestInfo PickupDate ${text(p.PickupDate)} is not a valid date. Accepted date format MM/DD/YYYY.`);
  else checkPickupDay('PickupRequestInfo PickupDate', date, now, messages);
  timeWindowRules('PickupRequestInfo', p.ReadyTime, p.CloseTime, 'ReadyTime', 'CloseTime', messages);
  const third = obj(p.ThirdParty);
  const anyFilled = ['ContactName', 'CompanyName', 'PhoneNumber', 'PhoneExtension', 'EmailAddress'].some((k) => !isBlank(third[k]));
  if (anyFilled) {
    for (const k of ['ContactName', 'CompanyName']) if (isBlank(third[k])) messages.push(`ThirdParty ${k} is required when any ThirdParty field is filled out.`);
  }
}

/** Two `hh:mm AM/PM` times that must both be there and in order. */
export function timeWindowRules(label: string, startText: unknown, endText: unknown, startName: string, endName: string, messages: string[]): void {
  const start = parseUsTime(startText);
  const end = parseUsTime(endText);
  for (const [name, raw, value] of [[startName, startText, start], [endName, endText, end]] as const) {
    if (isBlank(raw)) messages.push(`${label} ${name} is required.`);
    else if (value === undefined) messages.push(`${label} ${name} ${text(raw)} is not a valid time. Accepted time format hh:mm AM/PM.`);
  }
  if (start !== undefined && end !== undefined && end <= start) messages.push(`${label} ${endName} must be later than ${startName}.`);
}

/** Rules shared by bills of lading and pickups: what a service level needs. */
export function serviceLevelRules(container: JsonObject, messages: string[]): void {
  const level = text(container.ServiceLevel);
  if (level === 'GuaranteedHourlyWindow') {
    if (container.HourlyWindow === undefined || container.HourlyWindow === null) messages.push('HourlyWindow is required if GuaranteedHourlyWindow is selected.');
    else {
      const w = obj(container.HourlyWindow);
      timeWindowRules('HourlyWindow', w.Start, w.End, 'Start', 'End', messages);
    }
  }
  if (level === 'ExpeditedService' && isBlank(container.ExpeditedQuoteNumber)) messages.push('ExpeditedQuoteNumber is required if ExpeditedService is selected.');
}

export function billOfLadingRules(request: JsonObject, now: Date): string[] {
  const messages: string[] = [];
  if (request.BillOfLading === undefined || request.BillOfLading === null) return ['BillOfLading is required.'];
  const bol = obj(request.BillOfLading);

  if (isBlank(bol.BOLDate)) messages.push('BOLDate is required. Accepted date format MM/DD/YYYY.');
  else if (!parseUsDate(bol.BOLDate)) messages.push(`BOLDate ${text(bol.BOLDate)} is not a valid date. Accepted date format MM/DD/YYYY.`);

  partyRules('Shipper', 'BolShipper', bol.Shipper, messages);
  partyRules('Consignee', 'BolConsignee', bol.Consignee, messages);
  serviceLevelRules(bol, messages);
  const hazmat = itemRules(bol.Items, messages);
  if (hazmat) {
    const h = bol.HazmatInformation;
    if (h === undefined || h === null) messages.push('HazmatInformation is required if any item is marked IsHazmat.');
    else if (isBlank(obj(h).EmergenyNumber)) messages.push('HazmatInformation EmergenyNumber is required if any item is marked IsHazmat.');
  }
  const cod = obj(bol.RemitCOD);
  if (!isBlank(cod.CODAmount) && !(num(String(cod.CODAmount).replace(/[$,]/g, ''), -1) > 0)) messages.push(`RemitCOD CODAmount ${text(cod.CODAmount)} is not a valid amount.`);
  const declared = obj(bol.DeclaredValue);
  if (!isBlank(declared.Value) && !(num(String(declared.Value).replace(/[$,]/g, ''), -1) >= 0)) messages.push(`DeclaredValue Value ${text(declared.Value)} is not a valid amount.`);
  if (isBlank(bol.FreightChargePaymentMethod)) messages.push('FreightChargePaymentMethod is required: Prepaid or Collect.');

  if (request.AddPickupRequest === true) pickupInfoRules(request.PickupRequestInfo, now, messages);
  return messages;
}
