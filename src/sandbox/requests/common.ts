/**
 * Rules bills of lading and pickups share: required fields along the catalog, time windows,
 * what a service level needs, item weights, money amounts and dates against the terminal's day.
 */
import { getRecord, type JsonObject } from '../../core';
import {
  formatMoney,
  formatPounds,
  formatUsDate,
  isServiceLevel,
  notOfferedReason,
  parseUsTime,
  pickupDayProblem,
  RULES,
  windowProblem,
  MAX_PIECES,
  MAX_PIECE_WEIGHT_LB,
  MAX_SHIPMENT_WEIGHT_LB,
  PICKUP_HOURS,
  minutesText,
  type Day,
  type Lane,
  type ServiceLevel,
} from '../carrier';
import { num, obj } from '../json';
import { isBlank, text } from '../text';

/** Required fields of a catalog record that are missing or blank in `value`. */
export function missingRequired(recordName: string, value: JsonObject, skip: readonly string[] = []): string[] {
  return getRecord(recordName)
    .fields.filter((f) => f.required && !skip.includes(f.name) && isBlank(value[f.name]))
    .map((f) => f.name);
}

/** Two `hh:mm AM/PM` times that must both be there and in order; the minutes when they are. */
export function timeWindowRules(
  label: string,
  startText: unknown,
  endText: unknown,
  startName: string,
  endName: string,
  messages: string[],
): { start: number; end: number } | undefined {
  const start = parseUsTime(startText);
  const end = parseUsTime(endText);
  for (const [name, raw, value] of [
    [startName, startText, start],
    [endName, endText, end],
  ] as const) {
    if (isBlank(raw)) messages.push(`${label} ${name} is required.`);
    else if (value === undefined) messages.push(`${label} ${name} ${text(raw)} is not a valid time. Accepted time format hh:mm AM/PM.`);
  }
  if (start === undefined || end === undefined) return undefined;
  if (end <= start) {
    messages.push(`${label} ${endName} must be later than ${startName}.`);
    return undefined;
  }
  return { start, end };
}

/** A pickup window inside the hours drivers pick up. */
export function pickupWindowRules(label: string, info: JsonObject, messages: string[]): { start: number; end: number } | undefined {
  const w = timeWindowRules(label, info.ReadyTime, info.CloseTime, 'ReadyTime', 'CloseTime', messages);
  if (!w) return undefined;
  const hours = `pickups are made from ${minutesText(PICKUP_HOURS.start)} to ${minutesText(PICKUP_HOURS.end)}`;
  if (w.start < PICKUP_HOURS.start) messages.push(`${label} ReadyTime ${text(info.ReadyTime)} is before the pickup hours: ${hours}.`);
  if (w.end > PICKUP_HOURS.end) messages.push(`${label} CloseTime ${text(info.CloseTime)} is after the pickup hours: ${hours}.`);
  return w;
}

/** The service level of a bill of lading or pickup (StandardService when left out). */
export function levelIn(container: JsonObject): ServiceLevel {
  const level = text(container.ServiceLevel);
  return isServiceLevel(level) ? level : 'StandardService';
}

/** What a service level needs: a window for GSHW, a quote number for expedited, a lane it runs on. */
export function serviceLevelRules(container: JsonObject, lanes: readonly Lane[], messages: string[]): void {
  const level = levelIn(container);
  if (level === 'GuaranteedHourlyWindow') {
    if (container.HourlyWindow === undefined || container.HourlyWindow === null)
      messages.push('HourlyWindow is required if GuaranteedHourlyWindow is selected.');
    else {
      const w = obj(container.HourlyWindow);
      const window = timeWindowRules('HourlyWindow', w.Start, w.End, 'Start', 'End', messages);
      const problem = window && windowProblem(window);
      if (problem) messages.push(`HourlyWindow ${text(w.Start)} to ${text(w.End)} ${problem}.`);
    }
  }
  if (level === 'ExpeditedService' && isBlank(container.ExpeditedQuoteNumber))
    messages.push('ExpeditedQuoteNumber is required if ExpeditedService is selected.');
  for (const lane of lanes) {
    const reason = notOfferedReason(level, lane);
    if (reason) {
      messages.push(`ServiceLevel ${reason} (${lane.origin.place.state} to ${lane.destination.place.state}).`);
      break;
    }
  }
}

/** A pound figure, or why it is none (`1e40` is read by .NET as a float, then refused here). */
export function weightProblem(label: string, raw: unknown, allowZero = false): string | undefined {
  if (typeof raw === 'string' && raw.trim() !== '' && !Number.isFinite(Number(raw))) return `${label} ${raw.trim()} is not a number of pounds.`;
  const w = num(raw);
  if (w < 0 || (!allowZero && w === 0)) return `${label} must be greater than 0.`;
  if (w > MAX_SHIPMENT_WEIGHT_LB)
    return `${label} ${formatPounds(w)} lb is more than an LTL shipment can weigh (${formatPounds(MAX_SHIPMENT_WEIGHT_LB)} lb): quote it as volume or truckload freight.`;
  return undefined;
}

/** The whole shipment's weight against the LTL limit. */
export function totalWeightProblem(total: number): string | undefined {
  return total > MAX_SHIPMENT_WEIGHT_LB
    ? `The shipment weighs ${formatPounds(total)} lb, more than an LTL shipment can (${formatPounds(MAX_SHIPMENT_WEIGHT_LB)} lb): quote it as volume or truckload freight.`
    : undefined;
}

/** Pieces of an item line: a whole count a dock can handle, none heavier than a forklift lifts. */
export function piecesProblems(label: string, piecesRaw: unknown, weight: number): string[] {
  const pieces = num(piecesRaw);
  if (pieces <= 0) return [`${label} Pieces must be greater than 0.`];
  if (!Number.isInteger(pieces) || pieces > MAX_PIECES)
    return [`${label} Pieces ${text(piecesRaw)} must be a whole number up to ${MAX_PIECES.toLocaleString('en-US')}.`];
  if (weight / pieces > MAX_PIECE_WEIGHT_LB)
    return [
      `${label} averages ${formatPounds(weight / pieces)} lb a piece, more than a dock forklift lifts (${formatPounds(MAX_PIECE_WEIGHT_LB)} lb): split it into more pieces.`,
    ];
  return [];
}

/** A dollar amount text (`$1,500.00`, `1500`) as a number, or undefined when it is none. */
export function dollarsOf(raw: unknown): number | undefined {
  const t = text(raw).replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return undefined;
  return Number(t);
}

/** A money amount within what the carrier handles. */
export function amountProblem(label: string, raw: unknown, max: number, allowZero: boolean): string | undefined {
  const dollars = dollarsOf(raw);
  if (dollars === undefined || (!allowZero && dollars === 0)) return `${label} ${text(raw)} is not a valid amount.`;
  if (dollars > max) return `${label} ${formatMoney(dollars * 100)} is more than the carrier accepts (${formatMoney(max * 100)}).`;
  return undefined;
}

/** A pickup day for this service at a terminal (its local day and time), or why not. */
export function pickupDayRules(
  label: string,
  day: Day,
  today: Day,
  nowMinutes: number,
  closeMinutes: number | undefined,
  level: ServiceLevel,
  messages: string[],
): void {
  const problem = pickupDayProblem(day, today, nowMinutes, closeMinutes, RULES[level].week);
  if (problem) messages.push(`${label} ${formatUsDate(day)} ${problem}.`);
}
