/**
 * GetTransitTimes: standard service days and the delivery date from one origin to each
 * destination for a pickup date, as the carrier model plans them (the same days a quote gives
 * and a bill of lading's trace keeps), with the service center at each end and the levels the
 * lane offers. The pickup day is the origin terminal's: one in the past there, or beyond the
 * planning horizon, fails the whole request (WasSuccess=false); a weekend or holiday moves to
 * the next business day with a note. A destination that cannot be served carries its own Result
 * {Level, Message}. A DateOfPickup that names no real date never gets here: it is refused while
 * the request is read (decode/normalise.ts).
 */
import {
  addDays,
  addWorkingDays,
  daysBetween,
  formatUsDate,
  holidaysBetween,
  isWorkingDay,
  laneBetween,
  localDay,
  PLANNING_HORIZON_DAYS,
  quotedLevels,
  rollToWorkingDay,
  xsdDateTime,
  xsdDay,
  type LaneEnd,
  type Terminal,
} from '../carrier';
import type { OperationHandler } from '../context';
import { obj, records } from '../json';
import { POINT_FIELDS, readAddress } from '../requests/address';
import { text } from '../text';
import { myCarrierId } from './customer';

/** What .NET writes for a DateTime nobody set. */
const NO_DATE = '0001-01-01T00:00:00';

export function serviceCenterInfo(t: Terminal): Record<string, unknown> {
  return { ServiceCenterCode: t.TerminalCode, ServiceCenterLocation: t.TerminalLocationName, ServiceCenterPhone: t.phones[0]?.PhoneNumber ?? '' };
}

/** The point as sent, with the state filled in from the ZIP when the caller left it out. */
function point(p: Record<string, unknown>, end: LaneEnd | undefined): Record<string, unknown> {
  return {
    City: text(p.City) || end?.terminal.TerminalMailingCity,
    StateOrProvince: text(p.StateOrProvince) || end?.place.state,
    ZipOrPostalCode: text(p.ZipOrPostalCode),
    CountryCode: text(p.CountryCode),
  };
}

function readPoint(label: string, p: Record<string, unknown>): { end?: LaneEnd; problem?: string; warnings: string[] } {
  if (!text(p.ZipOrPostalCode)) return { problem: `${label} ZipOrPostalCode is required.`, warnings: [] };
  if (!text(p.CountryCode)) return { problem: `${label} CountryCode is required.`, warnings: [] };
  const address = readAddress(label, p, POINT_FIELDS, false);
  return { ...(address.end ? { end: address.end } : {}), ...(address.problems[0] ? { problem: address.problems[0] } : {}), warnings: address.warnings };
}

export const getTransitTimes: OperationHandler = ({ params }, ctx) => {
  const input = obj(params.input);
  const customerData = text(input.CustomerData);
  const base = { ...(customerData ? { CustomerData: customerData } : {}) };
  const messages: string[] = [];
  const requested = text(input.DateOfPickup) ? xsdDay(text(input.DateOfPickup)) : undefined;
  if (!requested) messages.push('DateOfPickup is required.');
  const originIn = obj(input.OriginPoint);
  const origin = readPoint('OriginPoint', originIn);
  if (origin.problem) messages.push(origin.problem);
  const destinations = records(obj(input.Destinations).DestinationPoint);
  if (!destinations.length) messages.push('At least one destination ServicePoint is required.');
  if (requested && origin.end) {
    const today = localDay(ctx.now(), origin.end.terminal.zone);
    const ahead = daysBetween(today, requested);
    if (ahead < 0)
      messages.push(
        `DateOfPickup ${formatUsDate(requested)} is in the past: the origin terminal's date is ${formatUsDate(today)}; ask for today or a later day.`,
      );
    else if (ahead > PLANNING_HORIZON_DAYS)
      messages.push(
        `DateOfPickup ${formatUsDate(requested)} is too far ahead: transit times are planned up to ${PLANNING_HORIZON_DAYS} days in advance (until ${formatUsDate(addDays(today, PLANNING_HORIZON_DAYS))}).`,
      );
  }
  if (messages.length || !origin.end) return { ...base, WasSuccess: false, Messages: messages };

  const day = rollToWorkingDay(requested!);
  const moved = isWorkingDay(requested!) ? undefined : `Pickup moved from ${formatUsDate(requested!)} to ${formatUsDate(day)}, the next business day.`;

  const result = destinations.map((d) => {
    const dest = readPoint('DestinationPoint', d);
    if (!dest.end) return { DestinationPoint: point(d, undefined), ServiceDays: 0, DeliveryDate: NO_DATE, Result: { Level: 'Error', Message: dest.problem } };
    const lane = laneBetween(origin.end!, dest.end);
    const delivery = addWorkingDays(day, lane.standardDays);
    const notes = [moved, ...origin.warnings, ...dest.warnings];
    const holidays = holidaysBetween(day, delivery);
    if (holidays.length) notes.push(`Delivery date skips ${holidays.join(', ')}.`);
    return {
      DestinationPoint: point(d, dest.end),
      ServiceCenterInfo: serviceCenterInfo(dest.end.terminal),
      ServiceLevels: quotedLevels(lane).map((l) => ({ ServiceLevelCode: l.code, ServiceLevelName: l.title })),
      ServiceDays: lane.standardDays,
      DeliveryDate: xsdDateTime(delivery),
      ...(notes.some(Boolean) ? { DestinationNotes: notes.filter(Boolean).join(' ') } : {}),
    };
  });
  return {
    ...base,
    WasSuccess: true,
    Messages: [],
    Result: {
      TransitTimesID: ctx.store.nextLookupId(),
      MyCarrierID: myCarrierId(params),
      PickupDate: xsdDateTime(day),
      Origin: { OriginPoint: point(originIn, origin.end), ServiceCenterInfo: serviceCenterInfo(origin.end.terminal) },
      Destinations: result,
    },
  };
};
