/**
 * Exact decimal comparison on text. Replies carry decimals as strings ("0.10") and money as
 * `$`-prefixed strings with thousands commas ("$1,234.56"); converting either to a JS number
 * would make 0.1 + 0.2 style artefacts and lose digits beyond 2^53, so comparison works on the
 * digits themselves.
 */

/** A decimal as sign + integer digits (no leading zeros) + fraction digits (no trailing zeros). */
export interface Decimal {
  readonly negative: boolean;
  readonly int: string;
  readonly frac: string;
}

const PLAIN = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
// Money as the service writes it: "$621.43", "$1,234.56", "-$5.00", "$-5.00", "USD 300"-style
// prefixes are not the service's and are rejected rather than guessed.
const MONEY = /^([+-]?)\$\s*([+-]?)([\d,]*(?:\.\d*)?)$/;
const GROUPED = /^\d{1,3}(,\d{3})*(\.\d*)?$|^\d*(\.\d*)?$/;

function normalise(negative: boolean, digits: string, fraction: string, exponent: number): Decimal | undefined {
  if (!digits && !fraction) return undefined;
  // Shift the decimal point by the exponent over the concatenated digits.
  let all = digits + fraction;
  let point = digits.length + exponent;
  if (point < 0) { all = '0'.repeat(-point) + all; point = 0; }
  if (point > all.length) { all = all + '0'.repeat(point - all.length); }
  const int = all.slice(0, point).replace(/^0+/, '');
  const frac = all.slice(point).replace(/0+$/, '');
  // -0 is 0: the sign of zero never decides a comparison.
  return { negative: negative && (int !== '' || frac !== ''), int, frac };
}

/**
 * Reads a JSON number, a decimal string ("0.10", "-3", "1e3") or a money string ("$1,234.56").
 * Undefined when the value is not a number in any of these forms.
 */
export function parseDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    return parseDecimal(String(value));
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const plain = PLAIN.exec(text);
  if (plain) return normalise(plain[1] === '-', plain[2], plain[3] ?? '', plain[4] ? Number(plain[4]) : 0);
  const money = MONEY.exec(text);
  if (money && !(money[1] && money[2]) && GROUPED.test(money[3])) {
    const [digits, fraction = ''] = money[3].replace(/,/g, '').split('.');
    return normalise((money[1] || money[2]) === '-', digits, fraction, 0);
  }
  return undefined;
}

/** -1, 0 or 1, as a is less than, equal to or greater than b. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const sign = a.negative ? -1 : 1;
  if (a.int.length !== b.int.length) return sign * (a.int.length < b.int.length ? -1 : 1);
  if (a.int !== b.int) return sign * (a.int < b.int ? -1 : 1);
  const width = Math.max(a.frac.length, b.frac.length);
  const fa = a.frac.padEnd(width, '0');
  const fb = b.frac.padEnd(width, '0');
  if (fa === fb) return 0;
  return sign * (fa < fb ? -1 : 1);
}
