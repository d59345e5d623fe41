/**
 * Query strings and form bodies, counted before they are parsed: more fields than the limit is a
 * refusal, whatever their size, and the parse that follows (URLSearchParams, linear) only ever
 * sees a form of bounded length.
 */
import { tooManyFields } from './body';

/** Fields a query string or form body holds at most (empty ones between `&&` count too). */
function fieldCount(text: string): number {
  if (!text) return 0;
  let n = 1;
  for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1)) n++;
  return n;
}

/** Throws RequestRefused (400) when `text` holds more than `maxFields` fields. */
export function checkFieldCount(text: string, maxFields: number, what = 'form fields'): void {
  if (fieldCount(text) > maxFields) throw tooManyFields(maxFields, what);
}

export function readForm(text: string, maxFields: number): URLSearchParams {
  checkFieldCount(text, maxFields);
  return new URLSearchParams(text);
}

/** The query part of a request target (after `?`, without `#…`), as it came. */
export function queryOf(target: string): string {
  const q = target.indexOf('?');
  if (q < 0) return '';
  const h = target.indexOf('#', q);
  return target.slice(q + 1, h < 0 ? undefined : h);
}
