import { MAX_JSON_DEPTH } from './depth';

/** What one walk of a JSON.parse result tells parseJson. */
export interface ValueShape {
  /** Object keys kept (a duplicate written twice is kept once): mayHaveDuplicateKeys compares it with the text. */
  readonly keys: number;
  /** Containers nest deeper than the limit (the root object or array is level 1, as tooDeepAt counts). */
  readonly tooDeep: boolean;
}

/**
 * One iterative walk of a parsed value: V8's JSON.parse does not recurse, so plain JSON is parsed
 * first and its value measured here, far cheaper than scanning the text; only a text that is too
 * deep, or not plain JSON, is scanned (depth.ts). Two parallel stacks, no object per node: the
 * walk runs on every keystroke of a large file.
 */
export function valueShape(value: unknown, limit = MAX_JSON_DEPTH): ValueShape {
  if (value === null || typeof value !== 'object') return { keys: 0, tooDeep: false };
  let keys = 0;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return { keys, tooDeep: true };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const c: unknown = v[i];
        if (c !== null && typeof c === 'object') {
          values.push(c);
          depths.push(depth + 1);
        }
      }
    } else {
      // for…in over a JSON.parse object: own enumerable properties only, `__proto__` included.
      for (const k in v) {
        keys++;
        const c: unknown = (v as Record<string, unknown>)[k];
        if (c !== null && typeof c === 'object') {
          values.push(c);
          depths.push(depth + 1);
        }
      }
    }
  }
  return { keys, tooDeep: false };
}
