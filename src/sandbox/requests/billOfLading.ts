/**
 * The rules of CreateBillOfLading: what the carrier's sample notes call required and required
 * together (README.md's sandbox section lists them), and everything the carrier model refuses:
 * dates outside the terminal's calendar, addresses that contradict their ZIP, freight beyond an
 * LTL shipment, service levels the lane does not offer, text longer than its field. Every broken
 * rule is one message and the reply lists them all (WasSuccess=false, Messages/string), so a
 * client fixes everything in one round; warnings go with a success.
 *
 * Leniency: IsHazmat and AddPickupRequest left out mean false (a boolean's default).
 */
import { getRecord, type JsonObject } from '../../core';
import {
  addDays,
  BOL_DATE_BACK_DAYS,
  checkHazmatDescription,
  isEmergencyPhone,
  daysBetween,
  formatUsDate,
  FREIGHT_CLASSES,
  HOME_ZONE,
  laneBetween,
  localDay,
  localMinutes,
  MAX_COD_DOLLARS,
  MAX_DECLARED_VALUE_DOLLARS,
  normalizeFreightClass,
  parseUsDate,
  PLANNING_HORIZON_DAYS,
  parseUsTime,
  type Lane,
  type LaneEnd,
} from '../carrier';
import { arr, num, obj } from '../json';
import { DOCUMENT_FIELDS, readAddress } from './address';
import {
  amountProblem,
  levelIn,
  missingRequired,
  pickupDayRules,
  pickupWindowRules,
  piecesProblems,
  serviceLevelRules,
  totalWeightProblem,
  weightProblem,
} from './common';
import { lengthProblems } from './fields';
import { isBlank, text } from '../text';

export interface BolCheck {
  readonly messages: string[];
  readonly warnings: string[];
}

const CONSIGNEE_SHAPE =
  ' The Consignee is an address block (Name, EmailAddress, AddressLine1, AddressLine2, ISO3Country, ZipCode, City, State, PhoneNumber, PhoneExtension), then Attention: the interface document shows Attention alone.';

/** The party a COD is remitted to: what a check needs to reach someone. */
const REMIT_FIELDS = ['Name', 'AddressLine1', 'ISO3Country', 'ZipCode', 'City', 'State'] as const;

/**
 * A COD names whom the carrier remits the collected amount to. The interface document gives
 * RemitCOD only CODAmount, CheckType and FeeType; the carrier's RemitCOD is the address block
 * first (docs/carrier-facts.md#contract-first), and the message says so.
 */
function remitRules(cod: JsonObject, messages: string[]): void {
  for (const name of REMIT_FIELDS)
    if (isBlank(cod[name]))
      messages.push(
        `RemitCOD ${name} is required with a CODAmount: the carrier remits the amount it collects to this party. RemitCOD is an address block (Name to PhoneExtension) before CODAmount, CheckType and FeeType: the interface document shows only the last three.`,
      );
}

function partyRules(label: string, recordName: string, party: unknown, required: boolean, result: BolCheck): LaneEnd | undefined {
  if (party === undefined || party === null) {
    if (required) result.messages.push(`${label} is required.`);
    return undefined;
  }
  const p = obj(party);
  // An optional party sent empty (the live client's <BillTo/>) is no party at all.
  if (!required && Object.values(p).every(isBlank)) return undefined;
  // The interface document gives Consignee only Attention; the carrier's Consignee is the address
  // block and then Attention (docs/carrier-facts.md#contract-first), and the message says so.
  const shape = recordName === 'BolConsignee' ? CONSIGNEE_SHAPE : '';
  for (const name of missingRequired(recordName, p)) result.messages.push(`${label} ${name} is required.${shape}`);
  const address = readAddress(label, p, DOCUMENT_FIELDS, true);
  result.messages.push(...address.problems);
  result.warnings.push(...address.warnings);
  return address.end;
}

function itemRules(items: unknown, messages: string[]): { hazmat: boolean; weight: number } {
  const list = arr(items);
  if (!list.length) {
    messages.push('At least one item is required.');
    return { hazmat: false, weight: 0 };
  }
  let hazmat = false;
  let total = 0;
  list.forEach((raw, i) => {
    const label = `Item ${i + 1}`;
    const item = obj(raw);
    if (raw === null) {
      messages.push(`${label} is empty.`);
      return;
    }
    for (const name of missingRequired('BolItem', item, ['IsHazmat', 'Pieces', 'Weight', 'Class'])) messages.push(`${label} ${name} is required.`);
    if (item.IsHazmat === true) {
      hazmat = true;
      // What the PDF certifies is the item's Description: it must be the table's (docs/sandbox.md).
      if (!isBlank(item.Description)) messages.push(...checkHazmatDescription(`${label} Description`, text(item.Description)).problems);
    }
    const weight = weightProblem(`${label} Weight`, item.Weight);
    const pounds = num(item.Weight);
    messages.push(...piecesProblems(label, item.Pieces, weight ? 0 : pounds));
    if (weight) messages.push(weight);
    else total += pounds;
    const cls = text(item.Class);
    if (!cls) messages.push(`${label} Class is required.`);
    else if (!normalizeFreightClass(cls)) messages.push(`${label} Class ${cls} is not a valid freight class. Valid classes: ${FREIGHT_CLASSES.join(', ')}.`);
  });
  const heavy = totalWeightProblem(total);
  if (heavy) messages.push(heavy);
  return { hazmat, weight: total };
}

function pickupInfoRules(info: unknown, bolDay: Date | undefined, shipper: LaneEnd | undefined, request: JsonObject, now: Date, messages: string[]): void {
  if (info === undefined || info === null) {
    messages.push('PickupRequestInfo is required when AddPickupRequest is true.');
    return;
  }
  const p = obj(info);
  const zone = shipper?.terminal.zone ?? HOME_ZONE;
  const window = pickupWindowRules('PickupRequestInfo', p, messages);
  const date = parseUsDate(p.PickupDate);
  if (isBlank(p.PickupDate)) messages.push('PickupRequestInfo PickupDate is required when AddPickupRequest is true.');
  else if (!date) messages.push(`PickupRequestInfo PickupDate ${text(p.PickupDate)} is not a valid date. Accepted date format MM/DD/YYYY.`);
  else {
    pickupDayRules(
      'PickupRequestInfo PickupDate',
      date,
      localDay(now, zone),
      localMinutes(now, zone),
      window?.end ?? parseUsTime(p.CloseTime),
      levelIn(obj(obj(request).BillOfLading)),
      messages,
    );
    if (bolDay && date.getTime() < bolDay.getTime())
      messages.push(
        `PickupRequestInfo PickupDate ${formatUsDate(date)} is before the BOLDate ${formatUsDate(bolDay)}: freight is picked up on or after the day its bill of lading is dated.`,
      );
  }
  const third = obj(p.ThirdParty);
  const anyFilled = ['ContactName', 'CompanyName', 'PhoneNumber', 'PhoneExtension', 'EmailAddress'].some((k) => !isBlank(third[k]));
  if (anyFilled) {
    for (const k of ['ContactName', 'CompanyName'])
      if (isBlank(third[k])) messages.push(`ThirdParty ${k} is required when any ThirdParty field is filled out.`);
  }
}

/** A BOLDate from a week back to the planning horizon ahead, on the shipper terminal's calendar. */
function bolDateRules(raw: unknown, today: Date, messages: string[]): Date | undefined {
  if (isBlank(raw)) {
    messages.push('BOLDate is required. Accepted date format MM/DD/YYYY.');
    return undefined;
  }
  const day = parseUsDate(raw);
  if (!day) {
    messages.push(`BOLDate ${text(raw)} is not a valid date. Accepted date format MM/DD/YYYY.`);
    return undefined;
  }
  const ahead = daysBetween(today, day);
  if (ahead < -BOL_DATE_BACK_DAYS || ahead > PLANNING_HORIZON_DAYS) {
    messages.push(
      `BOLDate ${formatUsDate(day)} is out of range: a bill of lading can be dated from ${formatUsDate(addDays(today, -BOL_DATE_BACK_DAYS))} to ${formatUsDate(addDays(today, PLANNING_HORIZON_DAYS))} (the shipper's terminal date is ${formatUsDate(today)}).`,
    );
    return undefined;
  }
  return day;
}

export function billOfLadingRules(request: JsonObject, now: Date): BolCheck {
  const result: BolCheck = { messages: [], warnings: [] };
  const { messages } = result;
  if (request.BillOfLading === undefined || request.BillOfLading === null) return { messages: ['BillOfLading is required.'], warnings: [] };
  const bol = obj(request.BillOfLading);

  const shipperForDate = readAddress('Shipper', obj(bol.Shipper), DOCUMENT_FIELDS, true).end;
  const bolDay = bolDateRules(bol.BOLDate, localDay(now, shipperForDate?.terminal.zone ?? HOME_ZONE), messages);

  const shipper = partyRules('Shipper', 'BolShipper', bol.Shipper, true, result);
  const consignee = partyRules('Consignee', 'BolConsignee', bol.Consignee, true, result);
  partyRules('BillTo', 'BolParty', bol.BillTo, false, result);
  partyRules('Broker', 'BolParty', bol.Broker, false, result);
  partyRules('RemitCOD', 'RemitCOD', bol.RemitCOD, false, result);
  const lanes: Lane[] = shipper && consignee ? [laneBetween(shipper, consignee)] : [];
  serviceLevelRules(bol, lanes, messages);
  const { hazmat } = itemRules(bol.Items, messages);
  if (hazmat) {
    const h = bol.HazmatInformation;
    if (h === undefined || h === null) messages.push('HazmatInformation is required if any item is marked IsHazmat.');
    else if (isBlank(obj(h).EmergenyNumber)) messages.push('HazmatInformation EmergenyNumber is required if any item is marked IsHazmat.');
    else if (!isEmergencyPhone(text(obj(h).EmergenyNumber)))
      messages.push(
        `HazmatInformation EmergenyNumber ${text(obj(h).EmergenyNumber)} is not a 24-hour emergency response phone number: write a US or Canadian number's 10 digits, optionally after +1, with spaces, dots, dashes or parentheses if you like (800-555-0199).`,
      );
  }
  const cod = obj(bol.RemitCOD);
  if (!isBlank(cod.CODAmount)) {
    const problem = amountProblem('RemitCOD CODAmount', cod.CODAmount, MAX_COD_DOLLARS, false);
    if (problem) messages.push(problem);
    else remitRules(cod, messages);
  }
  const declared = obj(bol.DeclaredValue);
  if (!isBlank(declared.Value)) {
    const problem = amountProblem('DeclaredValue Value', declared.Value, MAX_DECLARED_VALUE_DOLLARS, true);
    if (problem) messages.push(problem);
  }
  if (isBlank(bol.FreightChargePaymentMethod)) messages.push('FreightChargePaymentMethod is required: Prepaid or Collect.');
  messages.push(...lengthProblems(getRecord('BillOfLading'), bol));

  if (request.AddPickupRequest === true) {
    pickupInfoRules(request.PickupRequestInfo, bolDay, shipper, request, now, messages);
    messages.push(...lengthProblems(getRecord('PickupRequestInfo'), request.PickupRequestInfo, 'PickupRequestInfo'));
  }
  return result;
}
