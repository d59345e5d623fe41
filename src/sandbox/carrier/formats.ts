/**
 * The text formats the carrier writes and reads (docs/carrier-facts.md, docs/sandbox-model.md):
 * dates `MM/DD/YYYY`, times `hh:mm AM/PM`, money `$1,234.56`, weights
 * `2,120.5`. Formatters read a Date's UTC fields, so they print a UTC instant and a terminal's
 * wall clock (time.ts) alike; which one a reply shows is the caller's choice, made once per
 * place in the model.
 */
import { calendarDate, isoDay } from '../../core';
import type { Day } from './time';

export { isoDay };

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Thousands commas by hand: locale data differs between Node builds (small-icu). */
function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `MM/DD/YYYY`. */
export function formatUsDate(date: Date): string {
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

/** `hh:mm AM` / `hh:mm PM`. */
export function formatUsTime(date: Date): string {
  return minutesText(date.getUTCHours() * 60 + date.getUTCMinutes());
}

/** Minutes after midnight as `hh:mm AM/PM`. */
export function minutesText(minutes: number): string {
  const h24 = Math.floor(minutes / 60) % 24;
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  return `${pad(h12)}:${pad(Math.floor(minutes % 60))} ${h24 < 12 ? 'AM' : 'PM'}`;
}

/** `MM/DD/YYYY hh:mm AM`. */
export function formatUsDateTime(date: Date): string {
  return `${formatUsDate(date)} ${formatUsTime(date)}`;
}

/**
 * xs:dateTime without a zone suffix, as .NET services of this kind write a local DateTime
 * (`2025-11-21T14:05:00`).
 */
export function xsdDateTime(date: Date): string {
  return `${isoDay(date)}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/**
 * Cents to `$1,234.56` (negative amounts `-$12.00`). Integer cents keep totals exact; the digits
 * are written from a BigInt, so no amount, however large, comes out in exponent form.
 */
export function formatMoney(cents: number): string {
  if (!Number.isFinite(cents)) throw new RangeError(`formatMoney: ${cents} is not an amount`);
  const negative = cents < 0;
  const abs = BigInt(Math.round(Math.abs(cents)));
  const dollars = group((abs / 100n).toString());
  return `${negative ? '-' : ''}$${dollars}.${pad(Number(abs % 100n))}`;
}

/** Dollars (a rate per hundredweight) as money. */
export function formatDollars(dollars: number): string {
  return formatMoney(Math.round(dollars * 100));
}

/** Pounds as printed: `12,450`, and `2,120.5` when the weight has a tenth (never rounded to a whole pound). */
export function formatPounds(lb: number): string {
  if (!Number.isFinite(lb)) return '';
  const tenths = BigInt(Math.round(Math.abs(lb) * 10));
  const whole = group((tenths / 10n).toString());
  const frac = Number(tenths % 10n);
  return `${lb < 0 && tenths > 0n ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** The day `MM/DD/YYYY` names (one-digit month and day accepted, as culture short dates write them), or undefined when it is no real date. */
export function parseUsDate(text: unknown): Day | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  return m ? calendarDate(Number(m[3]), Number(m[1]), Number(m[2])) : undefined;
}

/** Minutes after midnight of `hh:mm AM/PM` (also `h:mm pm`), or undefined. */
export function parseUsTime(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{1,2}):(\d{2})\s*([AaPp][Mm])$/.exec(text.trim());
  if (!m) return undefined;
  const [h, min] = [Number(m[1]), Number(m[2])];
  if (h < 1 || h > 12 || min > 59) return undefined;
  return ((h % 12) + (m[3]!.toUpperCase() === 'PM' ? 12 : 0)) * 60 + min;
}

/**
 * The day an xs:dateTime (or xs:date) names, as written: a zone suffix does not move it, since
 * a pickup date is the date the caller wrote. Undefined when the text names no real date.
 */
export function xsdDay(text: string): Day | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T|$)/.exec(text.trim());
  return m ? calendarDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
