/**
 * Time as a terminal keeps it. A carrier runs on its terminals' wall clocks: a pickup "today"
 * is today where the freight is, a delivery "by noon" is noon where the consignee is, and the
 * dates a trace or a PDF prints are the local dates of the place they describe. Everything in
 * the model that names a day or a time of day goes through here.
 *
 * A calendar day is a `Day`: the Date at UTC midnight of that date, the form core's holiday
 * calendar reads (it looks only at the UTC fields). A wall clock is a `Wall`: a Date whose UTC
 * fields spell the local date and time, so the same formatters print UTC and local alike.
 * Zones are IANA names resolved by the runtime (Intl), so daylight saving follows the real rules.
 */
export type Day = Date;
export type Wall = Date;

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export function dayOf(year: number, monthIndex: number, date: number): Day {
  return new Date(Date.UTC(year, monthIndex, date));
}

export function addDays(day: Day, n: number): Day {
  return new Date(day.getTime() + n * DAY_MS);
}

/** Whole days from `a` to `b` (negative when b is earlier). */
export function daysBetween(a: Day, b: Day): number {
  return Math.round((b.getTime() - a.getTime()) / DAY_MS);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/**
 * Offsets change only at whole quarter hours; the cache is per zone and UTC quarter hour, and
 * bounded, because a seeded history asks for the same few hours thousands of times.
 */
const offsets = new Map<string, number>();
const OFFSET_CACHE_LIMIT = 20_000;
const QUARTER_MS = 15 * MINUTE_MS;

/** Minutes the zone's wall clock is ahead of UTC at `at` (negative west of Greenwich). */
export function zoneOffsetMinutes(zone: string, at: Date): number {
  const slot = Math.floor(at.getTime() / QUARTER_MS);
  const key = `${zone}|${slot}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(slot * QUARTER_MS))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  const offset = Math.round((asUtc - slot * QUARTER_MS) / MINUTE_MS);
  if (offsets.size >= OFFSET_CACHE_LIMIT) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/** The wall clock of `zone` at `at`. */
export function wallClock(at: Date, zone: string): Wall {
  return new Date(at.getTime() + zoneOffsetMinutes(zone, at) * MINUTE_MS);
}

/** The local calendar day of `at` in `zone`. */
export function localDay(at: Date, zone: string): Day {
  const w = wallClock(at, zone);
  return dayOf(w.getUTCFullYear(), w.getUTCMonth(), w.getUTCDate());
}

/** Minutes after local midnight of `at` in `zone`. */
export function localMinutes(at: Date, zone: string): number {
  const w = wallClock(at, zone);
  return w.getUTCHours() * 60 + w.getUTCMinutes();
}

/**
 * The instant the wall clock of `zone` shows `minutes` after midnight of `day`. In the hour a
 * spring-forward skips, the time an hour later is taken; in the hour a fall-back repeats, the
 * first of the two.
 */
export function atLocal(day: Day, minutes: number, zone: string): Date {
  const wall = day.getTime() + Math.round(minutes * MINUTE_MS);
  let guess = wall - zoneOffsetMinutes(zone, new Date(wall)) * MINUTE_MS;
  for (let i = 0; i < 2; i++) {
    const next = wall - zoneOffsetMinutes(zone, new Date(guess)) * MINUTE_MS;
    if (next === guess) break;
    guess = next;
  }
  const earlier = guess - HOUR_MS;
  if (earlier + zoneOffsetMinutes(zone, new Date(earlier)) * MINUTE_MS === wall) return new Date(earlier);
  return new Date(guess);
}

/**
 * The carrier's home zone (Eastern): it names the seeded history's day, and the day of a date
 * checked before a request names a terminal (a bill of lading whose shipper's ZIP is wrong).
 */
export const HOME_ZONE = 'America/New_York';
