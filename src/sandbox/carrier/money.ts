/**
 * The one rounding rule of the sandbox's money (docs/sandbox-model.md#tariff): every amount is
 * its exact value rounded half up to the cent. Exact means no binary floating point on the way:
 * a number a request or the tariff gives (a weight of 650 or 2,120.5 lb, a percentage of 24.5)
 * is read as the decimal it is written as, and the arithmetic is BigInt fractions, so 550 lb at
 * $58.85 is exactly $323.675 and prints as $323.68.
 */

/** A decimal number as an exact fraction: the shortest decimal that reads back as `n` (what JSON and XML wrote). */
export function exactDecimal(n: number): { readonly num: bigint; readonly den: bigint } {
  if (!Number.isFinite(n)) throw new RangeError(`exactDecimal: ${n} is not a number`);
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(n));
  if (!m) throw new RangeError(`exactDecimal: cannot read ${n}`);
  const frac = m[3] ?? '';
  const exp = Number(m[4] ?? 0) - frac.length;
  let num = BigInt(m[2]! + frac) * (m[1] ? -1n : 1n);
  let den = 1n;
  if (exp >= 0) num *= 10n ** BigInt(exp);
  else den = 10n ** BigInt(-exp);
  return { num, den };
}

/** num / den rounded half up (towards +infinity on an exact half; amounts here are never negative). */
export function divHalfUp(num: bigint, den: bigint): bigint {
  if (den <= 0n) throw new RangeError('divHalfUp: the denominator must be positive');
  const twice = 2n * num + den;
  const q = twice / (2n * den);
  // BigInt division truncates towards zero: step down for negatives so this is a floor.
  return twice % (2n * den) !== 0n && twice < 0n ? q - 1n : q;
}

/** Cents of `weight` pounds at `rateCents` per hundredweight: weight × rate / 100, half up. */
export function weightCents(weight: number, rateCents: number): number {
  const w = exactDecimal(weight);
  return Number(divHalfUp(w.num * BigInt(rateCents), w.den * 100n));
}

/** `percent` % of `cents`, half up (24.5 % of 10,001 cents is 2,450.245 → 2,450). */
export function percentCents(cents: number, percent: number): number {
  const p = exactDecimal(percent);
  return Number(divHalfUp(BigInt(cents) * p.num, p.den * 100n));
}

/** Dollars as written (`1234.56`, `250`) to cents, half up past the cent. */
export function dollarsToCents(dollars: number): number {
  const d = exactDecimal(dollars);
  return Number(divHalfUp(d.num * 100n, d.den));
}
