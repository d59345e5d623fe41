/**
 * The ids the sandbox hands out (BolID, the WebProNumber's sequence, pickup numbers) and the rule
 * that keeps them apart from every stored one: on load, each counter is the largest of the state's
 * own next id, one above the largest id stored and the first id — so a snapshot whose counters
 * were set back, or are negative or not whole numbers, can never make a new record take a stored
 * one's id (docs/sandbox.md, State).
 */
import type { Counters, CreatedBol, CreatedPickup } from './records';

export const FIRST_BOL_ID = 1001;
export const FIRST_PRO_SEQUENCE = 20_000_001;
export const FIRST_PICKUP_ID = 7_000_001;

export const FIRST_COUNTERS: Counters = { bol: FIRST_BOL_ID, pro: FIRST_PRO_SEQUENCE, pickup: FIRST_PICKUP_ID };

const NAMES: Readonly<Record<keyof Counters, string>> = { bol: 'BolID', pro: 'PRO sequence', pickup: 'pickup number' };

/** The 8-digit sequence of a 9-digit WebProNumber (the ninth is its check digit). */
export function proSequenceOf(pro: string): number | undefined {
  return /^\d{9}$/.test(pro) ? Number(pro.slice(0, 8)) : undefined;
}

/** The largest id of each kind among the stored records (0 when there is none). */
export function storedMaxima(bols: Iterable<CreatedBol>, pickups: Iterable<CreatedPickup>): Counters {
  let bol = 0;
  let pro = 0;
  let pickup = 0;
  for (const b of bols) {
    bol = Math.max(bol, b.bolId);
    pro = Math.max(pro, proSequenceOf(b.pro) ?? 0);
    const number = b.pickupRequestNumber === undefined ? NaN : Number(b.pickupRequestNumber);
    if (Number.isSafeInteger(number)) pickup = Math.max(pickup, number);
  }
  for (const p of pickups) pickup = Math.max(pickup, p.id);
  return { bol, pro, pickup };
}

const wholeNumber = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * The counters to continue from: per kind, max(the state's next id, largest stored id + 1, the
 * first id). `notes` says which counters the state had set back, wrong or missing, for the log.
 */
export function safeCounters(stated: unknown, bols: Iterable<CreatedBol>, pickups: Iterable<CreatedPickup>): { next: Counters; notes: string[] } {
  const max = storedMaxima(bols, pickups);
  const given = (stated && typeof stated === 'object' ? stated : {}) as Partial<Record<keyof Counters, unknown>>;
  const notes: string[] = [];
  const next = { ...FIRST_COUNTERS };
  for (const key of Object.keys(FIRST_COUNTERS) as (keyof Counters)[]) {
    const value = given[key];
    const floor = Math.max(FIRST_COUNTERS[key], max[key] + 1);
    next[key] = wholeNumber(value) ? Math.max(value, floor) : floor;
    if (stated === undefined) continue;
    if (!wholeNumber(value)) notes.push(`the next ${NAMES[key]} ${JSON.stringify(value) ?? 'missing'} is not a whole number; continuing at ${next[key]}`);
    else if (value < floor)
      notes.push(`the next ${NAMES[key]} ${value} is not above the stored ones (or below the first, ${FIRST_COUNTERS[key]}); continuing at ${next[key]}`);
  }
  return { next, notes };
}

/** Per kind, the later of two counters; a value that is not a whole number gives way to one that is. */
export function laterCounters(a: unknown, b: unknown): unknown {
  if (!a || typeof a !== 'object') return b ?? a;
  if (!b || typeof b !== 'object') return a;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(FIRST_COUNTERS)) {
    const u = x[key];
    const v = y[key];
    out[key] = wholeNumber(u) && wholeNumber(v) ? Math.max(u, v) : wholeNumber(v) ? v : u;
  }
  return out;
}
