/**
 * Simple values between JSON and XML Schema text. Writing never introduces float artefacts:
 * decimals given as strings (or as number literals whose source text is known) go out exactly
 * as written. Reading types ints, floats and booleans and keeps decimals as exact strings.
 */
import type { XsdType } from '../catalog/types';
import { dateTimeProblem } from '../calendar';

export class ValueError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ValueError';
  }
}

/** A number as plain decimal text, never in exponent form (1e21 → 1000000000000000000000). */
export function plainNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const FLOAT = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|-?INF|NaN)$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * The XML Schema text of a simple value. `raw` is the source text of a JSON number literal,
 * when known, so `48.00` stays `48.00`. `asWritten` lets a scalar of the wrong type through.
 */
export function toXsdText(type: XsdType, value: unknown, path: string, raw?: string, asWritten = false): string {
  const text = xsdText(type, value, raw, asWritten);
  if (text === undefined) throw new ValueError(path, notOfType(type, value));
  return text;
}

/** toXsdText without the throw, for a writer that spells the path only when a value is refused. */
export function xsdText(type: XsdType, value: unknown, raw?: string, asWritten = false): string | undefined {
  switch (type) {
    case 'string':
    case 'base64Binary':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return raw ?? String(value);
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value ? 'true' : 'false';
      if (typeof value === 'string' && /^(true|false|1|0)$/.test(value.trim())) return value.trim();
      break;
    case 'int':
      if (typeof value === 'number' && Number.isInteger(value)) return raw && INTEGER.test(raw) ? raw : plainNumber(value);
      if (typeof value === 'string' && INTEGER.test(value.trim())) return value.trim();
      break;
    case 'decimal':
      if (typeof value === 'number') return raw && DECIMAL.test(raw) ? raw : plainNumber(value);
      if (typeof value === 'string' && DECIMAL.test(value.trim())) return value.trim();
      break;
    case 'float':
      if (typeof value === 'number') return raw ?? plainNumber(value);
      if (typeof value === 'string' && FLOAT.test(value.trim())) return value.trim();
      break;
    case 'dateTime':
      if (typeof value === 'string' && DATE_TIME.test(value.trim())) return value.trim();
      // A bare date is what people write for a pickup day; xs:dateTime needs a time. A day that
      // does not exist (30 February) is no such date: refused, or "Send anyway" sends it as written.
      if (typeof value === 'string' && DATE_ONLY.test(value.trim()) && !dateTimeProblem(value)) return `${value.trim()}T00:00:00`;
      break;
  }
  // "Send anyway": a value that is not of its type goes out as the file wrote it, so the
  // service's answer to a wrong value can be tried (validate.ts `sendableRequest`).
  if (asWritten && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) return raw ?? String(value);
  return undefined;
}

/** Why a value cannot be written as `type`. */
export function notOfType(type: XsdType, value: unknown): string {
  return `${JSON.stringify(value)} is not a valid ${type}`;
}

/** Result of reading simple text: the typed value, or the text kept as is with a reason. */
export type ReadValue = { value: unknown; problem?: string };

export function fromXsdText(type: XsdType, text: string): ReadValue {
  switch (type) {
    case 'int': {
      const t = text.trim();
      const n = Number(t);
      return INTEGER.test(t) && Number.isSafeInteger(n) ? { value: n } : { value: text, problem: `"${text}" is not an int` };
    }
    case 'float': {
      const t = text.trim();
      if (t === 'INF' || t === '-INF' || t === 'NaN') return { value: t };
      return FLOAT.test(t) ? { value: Number(t) } : { value: text, problem: `"${text}" is not a float` };
    }
    case 'boolean': {
      const t = text.trim();
      if (t === 'true' || t === '1') return { value: true };
      if (t === 'false' || t === '0') return { value: false };
      return { value: text, problem: `"${text}" is not a boolean` };
    }
    case 'decimal': {
      const t = text.trim();
      return DECIMAL.test(t) ? { value: t } : { value: text, problem: `"${text}" is not a decimal` };
    }
    case 'dateTime': {
      const t = text.trim();
      return DATE_TIME.test(t) || t === '' ? { value: t } : { value: text, problem: `"${text}" is not an xs:dateTime` };
    }
    default:
      return { value: text };
  }
}
