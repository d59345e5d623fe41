/**
 * The service levels: what each promises (days, the calendar it runs on, the hour it delivers
 * by), where it is offered and what it costs on top of standard service. Bills of lading and
 * pickups name them as the interface's ServiceLevel enumeration; rate quotes and transit times
 * list them by the codes and titles of docs/carrier-facts.md (docs/sandbox-model.md has the table).
 *
 *   StandardService         STD   standard days, business days, by 5:00 PM (end of the delivery day)
 *   GuaranteedService       GSDS  standard days, guaranteed by 5:00 PM                    +18 %
 *   GuaranteedByNoon        GSAM  standard days, guaranteed by 12:00 PM                   +28 %
 *   GuaranteedHourlyWindow  GSHW  standard days, inside the booked window (quotes offer
 *                                 01:00 PM-03:00 PM)                                      +35 %
 *   ExpeditedService        EXPD  half the standard days (at least one): team drivers     +65 %
 *   WeekendExpress          -     standard days counted Monday to Saturday, so freight
 *                                 also moves and delivers on Saturday, by 5:00 PM         +40 %
 *
 * Everything but StandardService runs only where the carrier's own linehaul does (both ends in
 * the contiguous US); Weekend Express is booked on a bill of lading or pickup and has no code in
 * quotes. Surcharges are a percentage of the discounted freight charge (DISCNF), never of
 * accessorials, COD fees, excess liability or fuel (tariff.ts).
 */
import { DELIVERY_HOURS, type WorkWeek } from './calendar';
import type { Lane } from './lanes';

export const SERVICE_LEVELS = [
  'StandardService',
  'GuaranteedService',
  'GuaranteedByNoon',
  'GuaranteedHourlyWindow',
  'ExpeditedService',
  'WeekendExpress',
] as const;
export type ServiceLevel = (typeof SERVICE_LEVELS)[number];

export type QuoteCode = 'STD' | 'GSDS' | 'GSAM' | 'GSHW' | 'EXPD';

export interface HourlyWindow {
  /** Minutes after local midnight. */
  readonly start: number;
  readonly end: number;
}

export interface ServiceLevelRule {
  readonly level: ServiceLevel;
  /** Code and title in rate quotes and transit times; absent for a level quotes do not list. */
  readonly code?: QuoteCode;
  readonly title: string;
  /** As printed on paper and spoken by IVR. */
  readonly paperTitle: string;
  readonly surchargePercent: number;
  readonly week: WorkWeek;
  readonly guaranteed: boolean;
  /** Only on lanes whose both ends are in the contiguous US. */
  readonly contiguousOnly: boolean;
  /** Local minutes the delivery is due by, when the level names no window of its own. */
  readonly dueBy: number;
}

/** The window a quote offers for GSHW (docs/carrier-facts.md's 01:00 PM-03:00 PM). */
export const QUOTED_WINDOW: HourlyWindow = { start: 13 * 60, end: 15 * 60 };
/** Windows must fit the delivery hours and last at least this long. */
export const MIN_WINDOW_MINUTES = 60;

const NOON = 12 * 60;

export const RULES: Readonly<Record<ServiceLevel, ServiceLevelRule>> = {
  StandardService: {
    level: 'StandardService',
    code: 'STD',
    title: 'Standard Service',
    paperTitle: 'Standard Service',
    surchargePercent: 0,
    week: 'business',
    guaranteed: false,
    contiguousOnly: false,
    dueBy: DELIVERY_HOURS.end,
  },
  GuaranteedService: {
    level: 'GuaranteedService',
    code: 'GSDS',
    title: 'Guaranteed Service',
    paperTitle: 'Guaranteed Service',
    surchargePercent: 18,
    week: 'business',
    guaranteed: true,
    contiguousOnly: true,
    dueBy: DELIVERY_HOURS.end,
  },
  GuaranteedByNoon: {
    level: 'GuaranteedByNoon',
    code: 'GSAM',
    title: 'Guaranteed AM Service',
    paperTitle: 'Guaranteed by Noon',
    surchargePercent: 28,
    week: 'business',
    guaranteed: true,
    contiguousOnly: true,
    dueBy: NOON,
  },
  GuaranteedHourlyWindow: {
    level: 'GuaranteedHourlyWindow',
    code: 'GSHW',
    title: 'Guaranteed HW Service',
    paperTitle: 'Guaranteed Hourly Window',
    surchargePercent: 35,
    week: 'business',
    guaranteed: true,
    contiguousOnly: true,
    dueBy: QUOTED_WINDOW.end,
  },
  ExpeditedService: {
    level: 'ExpeditedService',
    code: 'EXPD',
    title: 'Expedited Service',
    paperTitle: 'Expedited Service',
    surchargePercent: 65,
    week: 'business',
    guaranteed: false,
    contiguousOnly: true,
    dueBy: DELIVERY_HOURS.end,
  },
  WeekendExpress: {
    level: 'WeekendExpress',
    title: 'Weekend Express',
    paperTitle: 'Weekend Express',
    surchargePercent: 40,
    week: 'saturday',
    guaranteed: false,
    contiguousOnly: true,
    dueBy: DELIVERY_HOURS.end,
  },
};

export function isServiceLevel(value: string): value is ServiceLevel {
  return (SERVICE_LEVELS as readonly string[]).includes(value);
}

export function ruleOf(level: ServiceLevel): ServiceLevelRule {
  return RULES[level];
}

/** Service days of a level on a lane. */
export function serviceDays(level: ServiceLevel, lane: Lane): number {
  return level === 'ExpeditedService' ? Math.max(1, Math.ceil(lane.standardDays / 2)) : lane.standardDays;
}

/** Why the level is not offered on the lane, or undefined when it is. */
export function notOfferedReason(level: ServiceLevel, lane: Lane): string | undefined {
  if (!RULES[level].contiguousOnly || lane.contiguous) return undefined;
  return `${level} is offered only between points in the contiguous US (the carrier's own linehaul); this lane is served through partners: use StandardService`;
}

/** The levels a lane offers, in the order quotes list them (Weekend Express is not quoted). */
export function quotedLevels(lane: Lane): ServiceLevelRule[] {
  return SERVICE_LEVELS.map((l) => RULES[l]).filter((r) => r.code && notOfferedReason(r.level, lane) === undefined);
}

/** Local minutes the delivery is due by: the window's end for GSHW, else the level's hour. */
export function dueMinutes(level: ServiceLevel, window?: HourlyWindow): number {
  return level === 'GuaranteedHourlyWindow' ? (window ?? QUOTED_WINDOW).end : RULES[level].dueBy;
}

/** Why a delivery window cannot be served, or undefined. */
export function windowProblem(window: HourlyWindow): string | undefined {
  if (window.start < DELIVERY_HOURS.start || window.end > DELIVERY_HOURS.end) return 'must fall within the delivery hours, 08:00 AM to 05:00 PM';
  if (window.end - window.start < MIN_WINDOW_MINUTES) return `must be at least ${MIN_WINDOW_MINUTES} minutes long`;
  return undefined;
}
