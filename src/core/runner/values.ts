/**
 * Comparing an expected value from a request file with a value from the parsed reply, and
 * printing both for failure messages.
 *
 * Typed numbers compare as exact decimals ("0.10" equals 0.1, "$1,234.56" equals 1234.56);
 * two strings compare as text, so PRO "056391174" never equals "56391174".
 */
import { compareDecimals, parseDecimal, type Decimal } from './decimal';
import { asList } from './replyPath';

/**
 * A JSON number literal from a request file, kept as its source text so `0.10` or a 25-digit
 * amount stays exact (JSON.parse would turn it into a float).
 */
export class NumberLiteral {
  constructor(readonly raw: string) {}
  toJSON(): number { return Number(this.raw); }
}

export type Expected = string | boolean | null | NumberLiteral | readonly Expected[] | { readonly [key: string]: Expected };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof NumberLiteral);

/** A value for a failure message: JSON-ish, cut short, `nothing` for an absent value. */
export function show(value: unknown, max = 120): string {
  if (value === undefined) return 'nothing (absent)';
  if (value instanceof NumberLiteral) return value.raw;
  let text: string;
  try { text = JSON.stringify(value) ?? String(value); } catch { text = String(value); }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The decimal an operand or a reply value stands for, when it is a number in any accepted form. */
export function decimalOf(value: unknown): Decimal | undefined {
  return parseDecimal(value instanceof NumberLiteral ? value.raw : value);
}

export function valuesEqual(expected: Expected, actual: unknown): boolean {
  if (expected instanceof NumberLiteral) {
    const a = decimalOf(actual);
    const e = decimalOf(expected);
    return !!a && !!e && compareDecimals(a, e) === 0;
  }
  if (typeof expected === 'string') {
    if (typeof actual === 'string') return actual === expected;
    if (typeof actual === 'number') {
      // A variable substituted into `equals` arrives as text ("{{bolId}}" → "123456") while the
      // reply typed BolID as an int: compare the numbers.
      const e = parseDecimal(expected);
      const a = parseDecimal(actual);
      return e && a ? compareDecimals(a, e) === 0 : String(actual) === expected;
    }
    if (typeof actual === 'boolean') return String(actual) === expected;
    return false;
  }
  if (typeof expected === 'boolean') return actual === expected || (typeof actual === 'string' && actual.trim() === String(expected));
  if (expected === null) return actual === null;
  if (Array.isArray(expected)) {
    if (actual === undefined) return false;
    const items = asList(actual);
    return items.length === expected.length && expected.every((e, i) => valuesEqual(e, items[i]));
  }
  if (isRecord(expected) && isRecord(actual)) {
    const keys = Object.keys(expected);
    return keys.length === Object.keys(actual).length && keys.every((k) => k in actual && valuesEqual((expected as Record<string, Expected>)[k], actual[k]));
  }
  return false;
}

/** The text `matches` tests: strings as they are, numbers and booleans as written. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** How many items a value holds when read as a list (absent: 0, one value: 1). */
export function countOf(value: unknown): number {
  return asList(value).length;
}
