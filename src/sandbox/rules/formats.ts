/**
 * Reading the text formats the service expects (service-facts §12): dates `MM/DD/YYYY` (one-digit
 * month and day accepted, as culture short dates write them) and times `hh:mm AM/PM`.
 * Everything is a UTC calendar day or clock, like the rest of the sandbox.
 */

/** The UTC midnight of `MM/DD/YYYY`, or undefined when the text is not a real date in that format. */
export function parseUsDate(text: unknown): Date | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? d : undefined;
}

/** Minutes after midnight of `hh:mm AM/PM` (also `h:mm pm`), or undefined. */
export function parseUsTime(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{1,2}):(\d{2})\s*([AaPp][Mm])$/.exec(text.trim());
  if (!m) return undefined;
  const [h, min] = [Number(m[1]), Number(m[2])];
  if (h < 1 || h > 12 || min > 59) return undefined;
  return ((h % 12) + (m[3].toUpperCase() === 'PM' ? 12 : 0)) * 60 + min;
}

/** True for absent, null and blank text: what .NET code of this kind treats as "not filled in". */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

export function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}
