/**
 * GetTransitTimes: service days and delivery dates from one origin to each destination for a
 * pickup date, counting business days only (weekends and carrier holidays skipped), with the
 * service center at each end. A destination that cannot be served carries its own Result
 * {Level, Message}; a bad origin or date fails the whole request (WasSuccess=false).
 */
import { addBusinessDays, holidayName, isBusinessDay, rollToBusinessDay } from '../../core';
import { formatUsDate, xsdDateTime } from '../data/format';
import type { Terminal } from '../data/terminals';
import type { OperationHandler } from '../context';
import { obj, records } from '../json';
import { laneBetween, laneEnd, type LaneEnd } from '../rating/lane';
import { serviceLevelsFor } from '../rating/serviceLevels';
import { text } from '../rules/formats';
import { myCarrierId } from './customer';

/** What .NET writes for a DateTime nobody set. */
const NO_DATE = '0001-01-01T00:00:00';
const DAY = 86_400_000;

/** The calendar day an xs:dateTime names, as written (its zone does not move the day). */
function pickupDay(value: unknown): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text(value));
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(d.getTime()) ? undefined : d;
}

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

function pointProblem(label: string, p: Record<string, unknown>): string | undefined {
  const zip = text(p.ZipOrPostalCode);
  const country = text(p.CountryCode);
  if (!zip) return `${label} ZipOrPostalCode is required.`;
  if (!country) return `${label} CountryCode is required.`;
  if (!laneEnd(zip, country)) return `${label} ZipOrPostalCode ${zip} is not a valid postal code for ${country}.`;
  return undefined;
}

/** Holidays between pickup and delivery that pushed the date out. */
function skippedHolidays(from: Date, to: Date): string[] {
  const out: string[] = [];
  for (let t = from.getTime() + DAY; t <= to.getTime(); t += DAY) {
    const name = holidayName(new Date(t));
    if (name && new Date(t).getUTCDay() % 6 !== 0) out.push(`${name} (${formatUsDate(new Date(t))})`);
  }
  return out;
}

export const getTransitTimes: OperationHandler = ({ params }, ctx) => {
  const input = obj(params.input);
  const customerData = text(input.CustomerData);
  const base = { ...(customerData ? { CustomerData: customerData } : {}) };
  const messages: string[] = [];
  const requested = pickupDay(input.DateOfPickup);
  if (!requested) messages.push('DateOfPickup is required.');
  const originIn = obj(input.OriginPoint);
  const originProblem = pointProblem('OriginPoint', originIn);
  if (originProblem) messages.push(originProblem);
  const destinations = records(obj(input.Destinations).DestinationPoint);
  if (!destinations.length) messages.push('At least one destination ServicePoint is required.');
  if (messages.length) return { ...base, WasSuccess: false, Messages: messages };

  const origin = laneEnd(text(originIn.ZipOrPostalCode), text(originIn.CountryCode))!;
  const day = rollToBusinessDay(requested!);
  const moved = isBusinessDay(requested!) ? undefined : `Pickup moved from ${formatUsDate(requested!)} to ${formatUsDate(day)}, the next business day.`;

  const result = destinations.map((d) => {
    const problem = pointProblem('DestinationPoint', d);
    const end = problem ? undefined : laneEnd(text(d.ZipOrPostalCode), text(d.CountryCode));
    if (!end) return { DestinationPoint: point(d, undefined), ServiceDays: 0, DeliveryDate: NO_DATE, Result: { Level: 'Error', Message: problem } };
    const lane = laneBetween(origin, end);
    const delivery = addBusinessDays(day, lane.serviceDays);
    const notes = [moved];
    const holidays = skippedHolidays(day, delivery);
    if (holidays.length) notes.push(`Delivery date skips ${holidays.join(', ')}.`);
    const state = text(d.StateOrProvince).toUpperCase();
    if (state && state !== end.place.state) notes.push(`StateOrProvince ${state} does not match ZIP ${text(d.ZipOrPostalCode)} (${end.place.state}); the ZIP decides.`);
    return {
      DestinationPoint: point(d, end),
      ServiceCenterInfo: serviceCenterInfo(end.terminal),
      ServiceLevels: serviceLevelsFor(lane).map((l) => ({ ServiceLevelCode: l.code, ServiceLevelName: l.title })),
      ServiceDays: lane.serviceDays,
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
      Origin: { OriginPoint: point(originIn, origin), ServiceCenterInfo: serviceCenterInfo(origin.terminal) },
      Destinations: result,
    },
  };
};
