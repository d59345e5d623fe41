/**
 * `{{name}}` references: which names a request file uses (so the planner can make it wait for
 * the file that captures them) and filling them into expectation values.
 * The name syntax is the request-file layer's, so both read the same `{{…}}` as a variable.
 */
import { VARIABLE_NAME_SOURCE } from '../requestFile/variables';

const REFERENCE = new RegExp(`\\{\\{\\s*(${VARIABLE_NAME_SOURCE})\\s*\\}\\}`, 'g');

export interface VariableReference {
  readonly name: string;
  readonly offset: number;
  readonly length: number;
}

export function variableReferences(text: string): VariableReference[] {
  return [...text.matchAll(REFERENCE)].map((m) => ({ name: m[1], offset: m.index ?? 0, length: m[0].length }));
}

/** The names a text refers to, in first-occurrence order. */
export function referencedNames(text: string): string[] {
  return [...new Set(variableReferences(text).map((r) => r.name))];
}

export type Lookup = (name: string) => string | undefined;

/** Fills `{{name}}` in a string; names without a value are listed in `missing` and left as written. */
export function fillText(text: string, lookup: Lookup): { text: string; missing: string[] } {
  const missing: string[] = [];
  const filled = text.replace(REFERENCE, (whole, name: string) => {
    const v = lookup(name);
    if (v === undefined) {
      missing.push(name);
      return whole;
    }
    return v;
  });
  return { text: filled, missing };
}

/** Scalars from collection.json and environments as the text a `{{name}}` stands for. */
export function variableText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
