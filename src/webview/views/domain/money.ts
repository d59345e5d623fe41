/**
 * Money as the rate quote writes it: text with a leading `$`, thousands separators and a sign
 * (`$1,050.69`, `-$404.94`). Sums are kept in whole cents so a breakdown adds up exactly or
 * visibly does not; floating point would make every total "almost" right.
 */

const MONEY = /^\s*(\(?)\s*([-−]?)\s*\$?\s*([-−]?)\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s*\)?\s*$/;

/** Whole cents, or undefined when the text is not an amount. */
export function parseMoney(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = MONEY.exec(value);
  if (!m) return undefined;
  const negative = m[1] === '(' || m[2] !== '' || m[3] !== '';
  const cents = Number(m[4].replace(/,/g, '')) * 100 + Number((m[5] ?? '0').padEnd(2, '0'));
  return negative ? -cents : cents;
}

export function formatMoney(cents: number): string {
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${cents < 0 ? '−' : ''}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
