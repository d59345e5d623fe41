/**
 * The ISO 8601 UTC timestamp an Exchange starts with (`2026-11-27T15:21:46.123Z`, as
 * `Date.prototype.toISOString` writes it). Formatting a date costs more than the rest of the
 * Exchange's bookkeeping; the part up to the second changes once a second, so it is formatted
 * once a second and the milliseconds appended.
 */
let second = Number.NaN;
let secondText = '';

export function timestamp(ms: number = Date.now()): string {
  const start = Math.floor(ms / 1000) * 1000;
  // Outside years 0–9999 toISOString writes a six-digit signed year; whole seconds still end in `.000Z`.
  if (start !== second) {
    second = start;
    secondText = new Date(start).toISOString().slice(0, -4);
  }
  const rest = ms - start;
  return `${secondText}${rest < 10 ? '00' : rest < 100 ? '0' : ''}${rest}Z`;
}
