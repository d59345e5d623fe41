/**
 * Exact decimal comparison on text. Replies carry decimals as strings ("0.10") and money as
 * `$`-prefixed strings with thousands commas ("$1,234.56"); converting either to a JS number
 * would make 0.1 + 0.2 style artefacts and lose digits beyond 2^53, so comparison works on the
 * digits themselves.
 *
 * A value is kept as sign, significant digits and a power of ten, never expanded: a reply
 * that says `1e999999999` is compared in the time it takes to read it, where writing out its
 * zeros would need a gigabyte (and failed the whole run with "Invalid string length").
 */

/**
 * A decimal as sign × 0.`digits` × 10^`exponent`: `digits` has no leading or trailing zeros
 * and is empty for zero (whose exponent means nothing). `infinite` is an xs:float INF.
 */
export interface Decimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: bigint;
  readonly infinite?: boolean;
}

const PLAIN = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
// Money as the service writes it: "$621.43", "$1,234.56", "-$5.00", "$-5.00", "USD 300"-style
// prefixes are not the service's and are rejected rather than guessed.
const MONEY = /^([+-]?)\$\s*([+-]?)([\d,]*(?:\.\d*)?)$/;
const GROUPED = /^\d{1,3}(,\d{3})*(\.\d*)?$|^\d*(\.\d*)?$/;

/**
 * Operands in a request file beyond 10^±MAX_EXPONENT are refused (compileExpect.ts): no amount,
 * weight or count is that large, so such an operand is a typo, not a threshold.
 */
export const MAX_EXPONENT = 1000;
const MAX_EXPONENT_DIGITS = 1000;

function normalise(negative: boolean, intDigits: string, fraction: string, exponent: bigint): Decimal | undefined {
  if (!intDigits && !fraction) return undefined;
  const all = intDigits + fraction;
  // Loops rather than /^0+/ and /0+$/: those backtrack quadratically on long runs of zeros.
  let start = 0;
  while (start < all.length && all.charCodeAt(start) === 48) start++;
  let end = all.length;
  while (end > start && all.charCodeAt(end - 1) === 48) end--;
  const digits = all.slice(start, end);
  // -0 is 0: the sign of zero never decides a comparison.
  if (!digits) return { negative: false, digits: '', exponent: 0n };
  return { negative, digits, exponent: BigInt(intDigits.length - start) + exponent };
}

/**
 * Reads a JSON number, a decimal string ("0.10", "-3", "1e3") or a money string ("$1,234.56").
 * Undefined when the value is not a number in any of these forms (and for NaN and ±Infinity:
 * see `infinity` for the xs:float values).
 */
export function parseDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    return parseDecimal(String(value));
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const plain = PLAIN.exec(text);
  if (plain) {
    // An exponent of a thousand digits is no number anyone means, and BigInt() of a megabyte
    // of digits is slow: such text is not read as a number.
    if (plain[4] && plain[4].length > MAX_EXPONENT_DIGITS) return undefined;
    return normalise(plain[1] === '-', plain[2], plain[3] ?? '', plain[4] ? BigInt(plain[4]) : 0n);
  }
  const money = MONEY.exec(text);
  if (money && !(money[1] && money[2]) && GROUPED.test(money[3])) {
    const [digits, fraction = ''] = money[3].replace(/,/g, '').split('.');
    return normalise((money[1] || money[2]) === '-', digits, fraction, 0n);
  }
  return undefined;
}

/** +∞ or −∞, which an xs:float may be (`INF`, `-INF`, or a literal beyond the float range). */
export function infinity(negative: boolean): Decimal {
  return { negative, digits: '', exponent: 0n, infinite: true };
}

/** -1, 0 or 1, as a is less than, equal to or greater than b. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const rank = (d: Decimal) => (d.infinite ? (d.negative ? -1 : 1) : 0);
  if (rank(a) !== rank(b)) return rank(a) < rank(b) ? -1 : 1;
  if (a.infinite) return 0;
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  // Zero is never negative, so with equal signs either both are ≥ 0 or neither is zero.
  if (!a.digits || !b.digits) return a.digits === b.digits ? 0 : a.digits ? 1 : -1;
  const sign = a.negative ? -1 : 1;
  if (a.exponent !== b.exponent) return sign * (a.exponent < b.exponent ? -1 : 1);
  // Same power of ten, no trailing zeros: digit strings order as the fractions 0.digits do.
  if (a.digits === b.digits) return 0;
  return sign * (a.digits < b.digits ? -1 : 1);
}

/** Why a number cannot be an operand (beyond 10^±MAX_EXPONENT); undefined when it can. */
export function magnitudeProblem(d: Decimal): string | undefined {
  if (d.infinite || !d.digits) return undefined;
  // 0.digits × 10^exponent lies in [10^(exponent-1), 10^exponent).
  const power = d.exponent - 1n;
  if (power > BigInt(MAX_EXPONENT) || power < BigInt(-MAX_EXPONENT)) {
    return `is ${power > 0n ? 'larger' : 'smaller'} than any value a reply carries (numbers in expect must lie between 10^-${MAX_EXPONENT} and 10^${MAX_EXPONENT} in size)`;
  }
  return undefined;
}
