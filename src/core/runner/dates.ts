/**
 * Dates for `lt`/`gt`/`equals` on date fields: xs:dateTime and xs:date as replies write them
 * (`2026-11-23T08:30:00`, `2026-11-23T08:30:00.5-05:00`, `2026-11-23`) and the service's
 * `MM/DD/YYYY` strings (`{{run.today}}`, `{{run.nextBusinessDay}}`). A value without a zone is
 * read as UTC, so it orders against zoned values the same way on every machine; a bare date is
 * its midnight, as src/core/xml/values.ts sends one.
 *
 * Instants are seconds since 1970 plus the fraction's digits, not JS Dates: those stop at year
 * 275760 and round to milliseconds.
 */

export interface Instant {
  readonly seconds: number;
  /** Fraction-of-second digits without trailing zeros. */
  readonly fraction: string;
}

// Years of at most six digits keep the seconds exact in a double.
const ISO = /^(-?\d{4,6})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?$/;
const US = /^(\d{2})\/(\d{2})\/(\d{4})$/;

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function instant(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, fraction = '', offsetMinutes = 0): Instant | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  // 24:00:00 is the end of the day in XML Schema; nothing else past 23:59:59.
  if (h > 24 || mi > 59 || s > 59 || (h === 24 && (mi || s || /[1-9]/.test(fraction)))) return undefined;
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  return { seconds: daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offsetMinutes * 60, fraction: fraction.slice(0, end) };
}

/** The instant a date text stands for; undefined when the text is not a date in a form above. */
export function parseDate(value: unknown): Instant | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const us = US.exec(text);
  if (us) return instant(Number(us[3]), Number(us[1]), Number(us[2]));
  const iso = ISO.exec(text);
  if (!iso) return undefined;
  let offset = 0;
  const zone = iso[8];
  if (zone && zone !== 'Z') {
    const hours = Number(zone.slice(1, 3));
    const minutes = Number(zone.slice(4, 6));
    if (hours > 14 || minutes > 59 || (hours === 14 && minutes > 0)) return undefined;
    offset = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const n = (i: number) => (iso[i] === undefined ? 0 : Number(iso[i]));
  return instant(n(1), n(2), n(3), n(4), n(5), n(6), iso[7] ?? '', offset);
}

/** -1, 0 or 1, as a is earlier than, the same instant as, or later than b. */
export function compareDates(a: Instant, b: Instant): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  if (a.fraction === b.fraction) return 0;
  // Fraction digits without trailing zeros order as the fractions do.
  return a.fraction < b.fraction ? -1 : 1;
}
