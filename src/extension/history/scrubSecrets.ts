/**
 * Defence in depth: core redacts exchanges, but should a key ever slip through (a client that
 * echoes it, a new code path), it is replaced here before anything is kept or shown.
 */
import type { Exchange } from '../../core/exchange';

export const MASK = '••••';
/** Shorter values would mask ordinary text; real keys are far longer. */
const MIN_SECRET_LENGTH = 8;

export function scrubSecrets(exchange: Exchange, secrets: readonly string[]): Exchange {
  const usable = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  if (usable.length === 0) return exchange;
  let json = JSON.stringify(exchange);
  let hit = false;
  for (const secret of usable) {
    // Look for the secret as it appears inside a JSON string (quotes and backslashes escaped).
    const needle = JSON.stringify(secret).slice(1, -1);
    if (json.includes(needle)) {
      json = json.split(needle).join(MASK);
      hit = true;
    }
    // URLs carry it percent-encoded.
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && json.includes(encoded)) {
      json = json.split(encoded).join(MASK);
      hit = true;
    }
  }
  return hit ? (JSON.parse(json) as Exchange) : exchange;
}
