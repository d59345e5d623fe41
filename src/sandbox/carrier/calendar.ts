/**
 * The carrier calendar, day by day in a terminal's local time: which days freight is picked up
 * and delivered, how service days are counted, the hours drivers work, and how far ahead (and
 * back) a date may lie. The holidays themselves are core's (src/core/calendar.ts), shared with
 * the `run.*` variables of request files.
 */
import { addBusinessDays, holidayName, isBusinessDay } from '../../core';
import { formatUsDate, minutesText, WEEKDAY_NAMES } from './formats';
import { addDays, daysBetween, type Day } from './time';

export { holidayName, isBusinessDay };

/** Drivers deliver from 8:00 AM to 5:00 PM local time; "end of day" is 5:00 PM. */
export const DELIVERY_HOURS = { start: 8 * 60, end: 17 * 60 } as const;
/** Pickups are made from 7:00 AM to 7:00 PM local time (later than 5:00 PM is a late pickup). */
export const PICKUP_HOURS = { start: 7 * 60, end: 19 * 60 } as const;
/** Drivers finish their regular pickup runs at 5:00 PM; a later close needs a late driver. */
export const LATE_PICKUP_AFTER = 17 * 60;
/** A same-day pickup needs an hour between the request and the close of the window. */
export const SAME_DAY_LEAD_MINUTES = 60;
/** Pickups (and transit-time lookups, which plan one) reach 60 days ahead. */
export const PLANNING_HORIZON_DAYS = 60;
/** A bill of lading may be dated up to 7 days back (paperwork written before it was sent) and up to the planning horizon ahead. */
export const BOL_DATE_BACK_DAYS = 7;

/**
 * Which days a service works. Standard, guaranteed and expedited freight moves and delivers on
 * business days; Weekend Express also runs and delivers on Saturdays. No service works Sundays
 * or carrier holidays.
 */
export type WorkWeek = 'business' | 'saturday';

export function isWorkingDay(day: Day, week: WorkWeek = 'business'): boolean {
  if (isBusinessDay(day)) return true;
  return week === 'saturday' && day.getUTCDay() === 6 && holidayName(day) === undefined;
}

/** `n` working days after `day` (counting starts the next day). */
export function addWorkingDays(day: Day, n: number, week: WorkWeek = 'business'): Day {
  if (week === 'business') return addBusinessDays(day, n);
  let d = day;
  for (let left = n; left > 0;) {
    d = addDays(d, 1);
    if (isWorkingDay(d, week)) left--;
  }
  return d;
}

/** The day itself when the service works it, else the next day it does. */
export function rollToWorkingDay(day: Day, week: WorkWeek = 'business'): Day {
  let d = day;
  while (!isWorkingDay(d, week)) d = addDays(d, 1);
  return d;
}

/** The working day before `day`. */
export function previousWorkingDay(day: Day, week: WorkWeek = 'business'): Day {
  let d = addDays(day, -1);
  while (!isWorkingDay(d, week)) d = addDays(d, -1);
  return d;
}

/** Working days strictly after `from` up to and including `to`. */
export function workingDaysBetween(from: Day, to: Day, week: WorkWeek = 'business'): number {
  let n = 0;
  for (let d = addDays(from, 1); d.getTime() <= to.getTime(); d = addDays(d, 1)) if (isWorkingDay(d, week)) n++;
  return n;
}

/** Closures between two days (exclusive of `from`) that fall on weekdays: what pushed a delivery out. */
export function holidaysBetween(from: Day, to: Day): string[] {
  const out: string[] = [];
  for (let d = addDays(from, 1); d.getTime() <= to.getTime(); d = addDays(d, 1)) {
    const name = holidayName(d);
    if (name && d.getUTCDay() % 6 !== 0) out.push(`${name} (${formatUsDate(d)})`);
  }
  return out;
}

/** Why no pickup is made on `day` for this service, or undefined when one is. */
export function closedReason(day: Day, week: WorkWeek = 'business'): string | undefined {
  if (isWorkingDay(day, week)) return undefined;
  const holiday = holidayName(day);
  if (holiday) return `is a carrier holiday (${holiday}): no pickups that day`;
  const dow = day.getUTCDay();
  return week === 'saturday' ? `is a ${WEEKDAY_NAMES[dow]}: no pickups on ${WEEKDAY_NAMES[dow]}s` : `is a ${WEEKDAY_NAMES[dow]}: no pickups on weekends`;
}

/**
 * Why freight cannot be picked up on `day` at a terminal whose local day is `today` and local
 * time `nowMinutes`, or undefined. The window's close matters only for a pickup today.
 */
export function pickupDayProblem(day: Day, today: Day, nowMinutes: number, closeMinutes: number | undefined, week: WorkWeek = 'business'): string | undefined {
  const ahead = daysBetween(today, day);
  if (ahead < 0) return `is in the past: the terminal's date is ${formatUsDate(today)}, and a pickup can be requested for today or later`;
  if (ahead > PLANNING_HORIZON_DAYS)
    return `is too far ahead: pickups can be requested up to ${PLANNING_HORIZON_DAYS} days in advance (until ${formatUsDate(addDays(today, PLANNING_HORIZON_DAYS))})`;
  const closed = closedReason(day, week);
  if (closed) return closed;
  if (ahead === 0 && closeMinutes !== undefined && closeMinutes - SAME_DAY_LEAD_MINUTES < nowMinutes) {
    return `is today, and it is ${minutesText(nowMinutes)} at the terminal: a pickup today needs its window to close at least an hour from now; ask for the next working day`;
  }
  return undefined;
}
