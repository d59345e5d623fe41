/** Small pieces of wording shared by the validator's messages. */

export function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** `QuoteType` → `quote type`; `Accessorials` (a container) → `accessorial`. */
export function nounOf(name: string, container: boolean): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return container && words.endsWith('s') ? words.slice(0, -1) : words;
}

/** How a JSON value looks in a message: `"abc"`, `12`, `an object`, `an array`, `null`. */
export function shown(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value);
  return String(value);
}

/** `a, b, c` — long lists are cut after `max` items. */
export function listOf(items: readonly string[], max = 12): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')}, … (${items.length} in all)`;
}
