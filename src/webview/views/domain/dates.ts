/** Dates of a reply shown as a shipper reads them, without the time zone moving the day. */

/**
 * `2026-12-03T00:00:00` → `Thu, Dec 3, 2026`. The service writes calendar days as midnight
 * without a zone; reading that as local time would show the day before west of UTC.
 */
export function calendarDay(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(d.getTime())
    ? value
    : d.toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
}
