/** Reading bound request JSON without trusting its shape: a missing record is an empty one. */
import type { JsonObject } from '../core';

export const obj = (v: unknown): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Non-null records of a list (nil placeholders dropped). */
export const records = (v: unknown): JsonObject[] => arr(v).filter((x) => x && typeof x === 'object' && !Array.isArray(x)) as JsonObject[];
export const num = (v: unknown, fallback = 0): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : fallback;

/** A small stable hash (FNV-1a) for deterministic numbers derived from requests. */
export function stableHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

/**
 * An object without its empty entries. Content of open records is written generically, which
 * would print `undefined` and write empty elements; replies leave such fields out instead.
 */
export function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
