/**
 * Text formats the reference carrier uses on the wire and on paper (service-facts §12):
 * dates `MM/DD/YYYY`, times `hh:mm AM/PM`, money `$1,234.56`.
 *
 * Sandbox time is read in UTC everywhere, so the same instant prints the same way on every
 * machine and in every test, whatever the local time zone.
 */
import { isoDay } from '../../core';

export { isoDay };

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Thousands commas by hand: locale data differs between Node builds (small-icu). */
function group(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `MM/DD/YYYY` of the UTC calendar day. */
export function formatUsDate(date: Date): string {
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

/** `hh:mm AM` / `hh:mm PM` of the UTC clock. */
export function formatUsTime(date: Date): string {
  const h24 = date.getUTCHours();
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  return `${pad(h12)}:${pad(date.getUTCMinutes())} ${h24 < 12 ? 'AM' : 'PM'}`;
}

/** `MM/DD/YYYY hh:mm AM`. */
export function formatUsDateTime(date: Date): string {
  return `${formatUsDate(date)} ${formatUsTime(date)}`;
}


/**
 * xs:dateTime without a zone suffix, as .NET services of this kind write it
 * (`2025-11-21T14:05:00`). Callers that want an explicit `Z` can add it.
 */
export function xsdDateTime(date: Date): string {
  return `${isoDay(date)}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** Cents to `$1,234.56` (negative amounts as `-$12.00`). Integer cents avoid float drift in totals. */
export function formatMoney(cents: number): string {
  const negative = cents < 0;
  const abs = Math.round(Math.abs(cents));
  const dollars = group(Math.floor(abs / 100));
  return `${negative ? '-' : ''}$${dollars}.${pad(abs % 100)}`;
}

/** Pounds with thousands separators, no decimals: `12,450`. */
export function formatPounds(lb: number): string {
  const rounded = Math.round(lb);
  return (rounded < 0 ? '-' : '') + group(Math.abs(rounded));
}
