/**
 * `{{name}}` variables in request-file strings: environment values and values captured from
 * earlier replies. They are resolved just before sending, so the file stays shareable.
 */
import { formatPath } from './jsonPath';
import type { JsonPath } from './types';

/** A variable name: letters, digits, `_`, `.` and `-`, starting with a letter or `_`. */
export const VARIABLE_NAME_SOURCE = '[A-Za-z_][A-Za-z0-9_.-]*';
/** One `{{name}}` reference (spaces inside the braces allowed). */
export const VARIABLE_SOURCE = `\\{\\{\\s*${VARIABLE_NAME_SOURCE}\\s*\\}\\}`;

const NAME = new RegExp(`^${VARIABLE_NAME_SOURCE}$`);
const ONE = new RegExp(`^\\{\\{\\s*(${VARIABLE_NAME_SOURCE})\\s*\\}\\}$`);
const ANY = new RegExp(`\\{\\{\\s*(${VARIABLE_NAME_SOURCE})\\s*\\}\\}`, 'g');

/**
 * Names a JavaScript object treats as its own machinery: a value stored under one would change
 * the object instead of being kept (and be silently lost), so they are never variable names.
 */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

export function isVariableName(name: string): boolean {
  return NAME.test(name) && !RESERVED.has(name);
}

/** Why `name` cannot name a variable (or a capture), in words; undefined when it can. */
export function variableNameProblem(name: string): string | undefined {
  if (RESERVED.has(name)) return `"${name}" is reserved and cannot name a variable`;
  if (!NAME.test(name)) return `"${name}" is not a variable name (letters, digits, _ . - ; starting with a letter or _)`;
  return undefined;
}

/** The name when `value` is exactly one variable (`"{{bolId}}"`), else undefined. */
export function wholeVariable(value: unknown): string | undefined {
  return typeof value === 'string' ? ONE.exec(value)?.[1] : undefined;
}

/**
 * Whether any string in a JSON value holds `{{` (a variable, or text substitution would leave as
 * it is): most params and expected values have none, and then they are used as they are. Walked
 * with a stack, not recursion: the value is a file's JSON, of any depth the reader let through.
 */
export function mentionsVariable(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('{{')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    }
    // for-in, not Object.values: no array of the values made for every object walked.
    else if (v !== null && typeof v === 'object') {
      for (const key in v) if (Object.hasOwn(v, key)) stack.push((v as Record<string, unknown>)[key]);
    }
  }
  return false;
}

export function containsVariable(value: string): boolean {
  if (!value.includes('{{')) return false;
  ANY.lastIndex = 0;
  const found = ANY.test(value);
  // matchAll (findVariables) starts where a global regex's lastIndex was left: leave it at 0.
  ANY.lastIndex = 0;
  return found;
}

export interface VariableUse {
  readonly name: string;
  readonly path: JsonPath;
}

/** Every variable a value refers to, with where (for completion, hover and "unknown" checks). */
export function findVariables(value: unknown, at: JsonPath = []): VariableUse[] {
  const uses: VariableUse[] = [];
  const walk = (v: unknown, path: JsonPath): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(ANY)) uses.push({ name: m[1], path });
    } else if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
    else if (v !== null && typeof v === 'object') for (const [k, item] of Object.entries(v)) walk(item, [...path, k]);
  };
  walk(value, at);
  return uses;
}

export class UnknownVariableError extends Error {
  constructor(
    readonly unknown: readonly VariableUse[],
    known: readonly string[],
  ) {
    const where = unknown.map((u) => `{{${u.name}}} at ${formatPath(u.path) || '(top level)'}`).join('; ');
    const hint = known.length > 0 ? ` (known: ${[...known].sort().join(', ')})` : ' (no variables are defined)';
    super(`unknown variable${unknown.length > 1 ? 's' : ''}: ${where}${hint}`);
    this.name = 'UnknownVariableError';
  }
}

/**
 * Replaces `{{name}}` in every string of `value`. A string that is exactly one variable takes the
 * variable's value as it is (a captured number stays a number in an int field); variables inside
 * longer text are written as text. Throws UnknownVariableError naming every unknown variable and
 * where it is; `at` is the path of `value` in the file (e.g. `['params']`), for those messages.
 */
export function substituteVariables<T>(value: T, variables: Readonly<Record<string, unknown>>, at: JsonPath = []): T {
  const unknown: VariableUse[] = [];
  const has = (name: string) => Object.prototype.hasOwnProperty.call(variables, name);
  const walk = (v: unknown, path: JsonPath): unknown => {
    if (typeof v === 'string') {
      if (!v.includes('{{')) return v;
      const whole = wholeVariable(v);
      if (whole !== undefined) {
        if (has(whole)) return variables[whole];
        unknown.push({ name: whole, path });
        return v;
      }
      return v.replace(ANY, (match, name: string) => {
        if (!has(name)) {
          unknown.push({ name, path });
          return match;
        }
        const replacement = variables[name];
        return typeof replacement === 'object' && replacement !== null ? JSON.stringify(replacement) : String(replacement);
      });
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...path, i]));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[k] = walk(item, [...path, k]);
      return out;
    }
    return v;
  };
  const result = walk(value, at) as T;
  if (unknown.length > 0) throw new UnknownVariableError(unknown, Object.keys(variables));
  return result;
}
