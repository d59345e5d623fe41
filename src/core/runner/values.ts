/**
 * Comparing an expected value from a request file with a value from the parsed reply, and
 * printing both for failure messages.
 *
 * Typed numbers compare as exact decimals ("0.10" equals 0.1, "$1,234.56" equals 1234.56);
 * two strings compare as text, so PRO "056391174" never equals "56391174". Where the catalog
 * types the field (replyTypes.ts) its type decides instead: an int, float or decimal field
 * compares as a number even when both sides are strings ("0.1" equals a decimal "0.10"), a
 * date field as a date, and text that is not of the field's type is no number at all.
 */
import { isObject } from '../objects';
import { parseDate } from './dates';
import { compareDecimals, infinity, parseDecimal, type Decimal } from './decimal';
import { asList } from './replyPath';
import { DATE_TYPES, itemType, memberType, NUMERIC_TYPES, type ScalarType, type ValueType } from './replyTypes';

/**
 * A JSON number literal from a request file, kept as its source text so `0.10` or a 25-digit
 * amount stays exact (JSON.parse would turn it into a float).
 */
export class NumberLiteral {
  /** Its decimal, read on first use: a literal is judged against every reply of a run (null: none). */
  private decimal: Decimal | null | undefined;
  constructor(readonly raw: string) {}
  toJSON(): number {
    return Number(this.raw);
  }
  /** The decimal this literal stands for; undefined when it is not a number in any accepted form. */
  value(): Decimal | undefined {
    if (this.decimal === undefined) this.decimal = parseDecimal(this.raw) ?? null;
    return this.decimal ?? undefined;
  }
}

export type Expected = string | boolean | null | NumberLiteral | readonly Expected[] | { readonly [key: string]: Expected };

/** A record to compare field by field; a number literal is an object too, but a scalar here. */
const isRecord = (v: unknown): v is Record<string, unknown> => isObject(v) && !(v instanceof NumberLiteral);

/** A value for a failure message: JSON-ish, cut short, `nothing` for an absent value. */
export function show(value: unknown, max = 120): string {
  if (value === undefined) return 'nothing (absent)';
  if (value instanceof NumberLiteral) return value.raw;
  // JSON would print an xs:float INF that overflowed to Infinity as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The decimal an operand or a reply value stands for, when it is a number in any accepted form. */
export function decimalOf(value: unknown): Decimal | undefined {
  return value instanceof NumberLiteral ? value.value() : parseDecimal(value);
}

// The lexical forms of XML Schema's numbers; text of another form in a typed field is no number.
const INT_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const FLOAT_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const FLOAT_INFINITY = /^([+-]?)INF$/;

/**
 * The number a reply value stands for, read as its field's type says: an int field holds
 * integers, a decimal field xs:decimal text, a float field may be ±INF (or a number too large
 * for a double, which the reader turns into ±Infinity). Untyped, any accepted form is read.
 */
export function numberOf(value: unknown, scalar?: ScalarType): Decimal | undefined {
  if (!scalar || !NUMERIC_TYPES.has(scalar)) return decimalOf(value);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return undefined;
    if (!Number.isFinite(value)) return scalar === 'float' ? infinity(value < 0) : undefined;
    return scalar === 'int' && !Number.isInteger(value) ? undefined : parseDecimal(value);
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  switch (scalar) {
    case 'int':
      return INT_TEXT.test(text) ? parseDecimal(text) : undefined;
    case 'decimal':
      return DECIMAL_TEXT.test(text) ? parseDecimal(text) : undefined;
    default: {
      const inf = FLOAT_INFINITY.exec(text);
      if (inf) return infinity(inf[1] === '-');
      return FLOAT_TEXT.test(text) ? parseDecimal(text) : undefined;
    }
  }
}

/** Whether two scalars are equal as the field's type says; undefined when the type does not decide. */
function typedEqual(expected: Expected, actual: unknown, scalar: ScalarType | undefined): boolean | undefined {
  if (!scalar || (typeof expected !== 'string' && !(expected instanceof NumberLiteral))) return undefined;
  if (NUMERIC_TYPES.has(scalar)) {
    const e = decimalOf(expected);
    const a = numberOf(actual, scalar);
    if (e && a) return compareDecimals(a, e) === 0;
    // Text that is no number on either side is still compared as written ("NaN", "").
    return typeof expected === 'string' ? String(actual) === expected : false;
  }
  if (DATE_TYPES.has(scalar) && typeof expected === 'string') {
    if (actual === expected) return true;
    const e = parseDate(expected);
    const a = parseDate(actual);
    return !!e && !!a && e.seconds === a.seconds && e.fraction === a.fraction;
  }
  return undefined;
}

/** `type`: what the catalog says the reply value is, when it says anything (replyTypes.ts). */
export function valuesEqual(expected: Expected, actual: unknown, type?: ValueType): boolean {
  const typed = type && !type.list ? typedEqual(expected, actual, type.scalar) : undefined;
  if (typed !== undefined) return typed;
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
    const item = itemType(type);
    return items.length === expected.length && expected.every((e, i) => valuesEqual(e, items[i], item));
  }
  if (isRecord(expected) && isRecord(actual)) {
    const keys = Object.keys(expected);
    return (
      keys.length === Object.keys(actual).length &&
      keys.every((k) => k in actual && valuesEqual((expected as Record<string, Expected>)[k], actual[k], memberType(type, k)))
    );
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
