/**
 * The carrier's operating calendar: which days freight is picked up and delivered.
 *
 * LTL carriers do not close on every federal holiday. The set below is the one most US LTL
 * carriers publish as "no pickup or delivery" days; MLK Day, Presidents' Day, Juneteenth,
 * Columbus Day and Veterans Day are normal operating days for them, because their customers'
 * docks are open:
 *
 *   New Year's Day (Jan 1), Memorial Day (last Monday of May), Independence Day (Jul 4),
 *   Labor Day (first Monday of September), Thanksgiving (fourth Thursday of November),
 *   the Friday after Thanksgiving, Christmas Eve (Dec 24) and Christmas Day (Dec 25).
 *
 * Fixed-date holidays that fall on a weekend are observed as the federal rule does: Saturday
 * moves to the Friday before, Sunday to the Monday after. Christmas Eve is observed on the last
 * weekday before observed Christmas, so the two never collapse into one day and never land on a
 * weekend (Christmas on Saturday: Eve Thu 23, Christmas Fri 24; Christmas on Sunday: Eve Fri 23,
 * Christmas Mon 26; Christmas on Monday: Eve Fri 22). New Year's Day on a Saturday is observed on
 * Friday December 31 of the year before, which therefore belongs to that earlier year's closures.
 *
 * A day is a Date at UTC midnight of that calendar date: only its UTC fields are read. The
 * built-in `run.*` variables of request files count UTC days; the sandbox counts the days of a
 * terminal's own wall clock in the same form (src/sandbox/carrier/time.ts).
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the UTC calendar day: the key the holiday calendar uses. */
export function isoDay(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

export interface Holiday {
  /** Observed day, `YYYY-MM-DD`. */
  readonly date: string;
  readonly name: string;
}

const DAY_MS = 86_400_000;

function utcDay(year: number, monthIndex: number, day: number): Date {
  return new Date(Date.UTC(year, monthIndex, day));
}

/** The n-th (1-based) given weekday of a month; n = -1 means the last one. */
function nthWeekday(year: number, monthIndex: number, weekday: number, n: number): Date {
  if (n > 0) {
    const first = utcDay(year, monthIndex, 1);
    const offset = (weekday - first.getUTCDay() + 7) % 7;
    return utcDay(year, monthIndex, 1 + offset + (n - 1) * 7);
  }
  const last = utcDay(year, monthIndex + 1, 0);
  const back = (last.getUTCDay() - weekday + 7) % 7;
  return utcDay(year, monthIndex, last.getUTCDate() - back);
}

/** Federal weekend rule: Saturday -> Friday before, Sunday -> Monday after. */
function observed(actual: Date): Date {
  const dow = actual.getUTCDay();
  if (dow === 6) return new Date(actual.getTime() - DAY_MS);
  if (dow === 0) return new Date(actual.getTime() + DAY_MS);
  return actual;
}

function previousWeekday(date: Date): Date {
  let d = new Date(date.getTime() - DAY_MS);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d = new Date(d.getTime() - DAY_MS);
  return d;
}

/** The closures whose holiday belongs to `year` (one may be observed on Dec 31 of year - 1). */
function closuresOfHolidayYear(year: number): Holiday[] {
  const thanksgiving = nthWeekday(year, 10, 4, 4);
  const christmas = observed(utcDay(year, 11, 25));
  return [
    { date: isoDay(observed(utcDay(year, 0, 1))), name: "New Year's Day" },
    { date: isoDay(nthWeekday(year, 4, 1, -1)), name: 'Memorial Day' },
    { date: isoDay(observed(utcDay(year, 6, 4))), name: 'Independence Day' },
    { date: isoDay(nthWeekday(year, 8, 1, 1)), name: 'Labor Day' },
    { date: isoDay(thanksgiving), name: 'Thanksgiving Day' },
    { date: isoDay(new Date(thanksgiving.getTime() + DAY_MS)), name: 'Day after Thanksgiving' },
    { date: isoDay(previousWeekday(christmas)), name: 'Christmas Eve' },
    { date: isoDay(christmas), name: 'Christmas Day' },
  ];
}

/** Every closure whose observed day falls in calendar year `year`, in date order. */
export function holidaysFor(year: number): Holiday[] {
  const prefix = `${year}-`;
  // ISO days sort as plain text; localeCompare's first call loads the locale's collation (several ms of every run's start).
  return [...closuresOfHolidayYear(year), ...closuresOfHolidayYear(year + 1)]
    .filter((h) => h.date.startsWith(prefix))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

const cache = new Map<number, Map<string, string>>();

function closuresByDay(year: number): Map<string, string> {
  let byDay = cache.get(year);
  if (!byDay) {
    byDay = new Map(holidaysFor(year).map((h) => [h.date, h.name]));
    cache.set(year, byDay);
  }
  return byDay;
}

/** The closure's name when `date` (its UTC day) is an observed carrier holiday. */
export function holidayName(date: Date): string | undefined {
  return closuresByDay(date.getUTCFullYear()).get(isoDay(date));
}

/** Monday to Friday and not a carrier holiday. */
export function isBusinessDay(date: Date): boolean {
  const dow = date.getUTCDay();
  return dow !== 0 && dow !== 6 && holidayName(date) === undefined;
}

/**
 * Moves `n` business days forward (n > 0) or back (n < 0), keeping the time of day.
 * Counting starts from the next day, so a Saturday plus one business day is the Monday;
 * n = 0 returns the date unchanged even when it is not a business day (use
 * `rollToBusinessDay` for that).
 */
export function addBusinessDays(date: Date, n: number): Date {
  if (!Number.isInteger(n)) throw new RangeError(`addBusinessDays: n must be an integer, got ${n}`);
  const step = n < 0 ? -DAY_MS : DAY_MS;
  let remaining = Math.abs(n);
  let d = new Date(date.getTime());
  while (remaining > 0) {
    d = new Date(d.getTime() + step);
    if (isBusinessDay(d)) remaining--;
  }
  return d;
}

/** The date itself when it is a business day, else the next business day (same time of day). */
export function rollToBusinessDay(date: Date): Date {
  let d = new Date(date.getTime());
  while (!isBusinessDay(d)) d = new Date(d.getTime() + DAY_MS);
  return d;
}

/** Business days strictly after `from`'s day up to and including `to`'s day (0 when to <= from). */
export function businessDaysBetween(from: Date, to: Date): number {
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  const end = Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate());
  let count = 0;
  for (let t = start + DAY_MS; t <= end; t += DAY_MS) if (isBusinessDay(new Date(t))) count++;
  return count;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * The day of a calendar date that exists (month 1-12, the month's own number of days, years
 * 0001-9999 as .NET's DateTime holds them), else undefined.
 */
export function calendarDate(year: number, month: number, day: number): Date | undefined {
  if (![year, month, day].every(Number.isInteger) || year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return undefined;
  const d = new Date(Date.UTC(2000, month - 1, day));
  // Date.UTC reads years 0-99 as 1900-1999; the year is set apart so that 0001 stays 0001.
  d.setUTCFullYear(year);
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? d : undefined;
}

/** Why year/month/day names no date, in words (`February 2026 has no day 30`), or undefined. */
export function calendarDateProblem(year: number, month: number, day: number): string | undefined {
  if (year < 1 || year > 9999) return `year ${year} is out of range (0001 to 9999)`;
  if (month < 1 || month > 12) return `there is no month ${month}`;
  return calendarDate(year, month, day) ? undefined : `${MONTHS[month - 1]} ${year} has no day ${day}`;
}

const XSD_DATE_TIME = /^(-?\d{4,})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):(\d{2}))?$/;

/**
 * Why an xs:dateTime (or xs:date) names no real moment (`2026-02-30`, `2026-13-01`, `T24:00:00`,
 * year 0000), or undefined when it does. Text that is not in the form at all is left to the
 * type check that reads it.
 */
export function dateTimeProblem(text: string): string | undefined {
  const m = XSD_DATE_TIME.exec(text.trim());
  if (!m) return undefined;
  const problem = calendarDateProblem(Number(m[1]), Number(m[2]), Number(m[3]));
  if (problem) return problem;
  if (Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59 || Number(m[6] ?? 0) > 59) return `${m[4]}:${m[5]}:${m[6]} is not a time of day`;
  if (m[8] !== undefined && (Number(m[8]) > 14 || Number(m[9]) > 59)) return `${m[7]} is not a time zone offset`;
  return undefined;
}

/** Why `MM/DD/YYYY` text names no real date (`02/30/2026`), or undefined (also for text not in that form). */
export function usDateProblem(text: string): string | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  return m ? calendarDateProblem(Number(m[3]), Number(m[1]), Number(m[2])) : undefined;
}
