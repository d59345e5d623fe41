/**
 * Paths into a parsed reply, written the way findings write them: `Result.Shipment[0].ErrorMessage`
 * (core's one spelling, src/core/path.ts). Pure, so the unit tests can run it.
 */
import type { PathSegment as Segment } from '../../core/view';

export { formatPath, joinPath, parsePath } from '../../core/view';
export type { Segment };

export function isBranch(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

export function childKeys(value: unknown): Segment[] {
  if (Array.isArray(value)) return value.map((_, i) => i);
  if (isBranch(value)) return Object.keys(value);
  return [];
}

export function childAt(value: unknown, key: Segment): unknown {
  if (Array.isArray(value)) return typeof key === 'number' ? value[key] : undefined;
  if (isBranch(value)) return (value as Record<string, unknown>)[String(key)];
  return undefined;
}

/** Counts nodes without recursion, stopping at `cap` so a huge reply costs a bounded time. */
export function countNodes(value: unknown, cap: number): { count: number; capped: boolean } {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    count++;
    if (count >= cap) return { count, capped: true };
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (isBranch(v)) for (const child of Object.values(v)) stack.push(child);
  }
  return { count, capped: false };
}

/** Nodes whose key or simple value contains `query` (case-insensitive), in document order. */
export function searchTree(value: unknown, query: string, maxMatches: number, maxVisits = 5_000_000): { matches: Segment[][]; complete: boolean } {
  const q = query.toLowerCase();
  const matches: Segment[][] = [];
  const stack: Array<{ v: unknown; path: Segment[] }> = [{ v: value, path: [] }];
  let visits = 0;
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (++visits > maxVisits) return { matches, complete: false };
    const key = path[path.length - 1];
    const keyHit = typeof key === 'string' && key.toLowerCase().includes(q);
    const valueHit = !isBranch(v) && v !== undefined && String(v).toLowerCase().includes(q);
    if (path.length > 0 && (keyHit || valueHit)) {
      matches.push(path);
      if (matches.length >= maxMatches) return { matches, complete: false };
    }
    if (isBranch(v)) {
      const keys = childKeys(v);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ v: childAt(v, keys[i]), path: [...path, keys[i]] });
    }
  }
  return { matches, complete: true };
}
