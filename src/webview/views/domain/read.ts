/**
 * Reading a parsed reply without trusting its shape. The reply is read along the catalog
 * (src/core/reply), but records the interface document leaves open keep whatever arrived: a
 * repeated element may be one object or a list, a value may be text where a number was hoped
 * for, and an element with attributes keeps its text under `#text`.
 */
import { findShape, getRecord, type FieldDef, type RecordDef } from '../../../core/view';

export type Rec = Readonly<Record<string, unknown>>;

export function rec(value: unknown): Rec | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Rec) : undefined;
}

/** A list field as a list: absent is empty, a single item is a list of one. */
export function list(value: unknown): Rec[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value];
  return items.map(rec).filter((r): r is Rec => r !== undefined);
}

/** Simple text of a field; numbers and booleans as written, empty and absent as undefined. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const r = rec(value);
  return r && typeof r['#text'] === 'string' ? text(r['#text']) : undefined;
}

export function int(value: unknown): number | undefined {
  const t = text(value);
  if (t === undefined || !/^-?\d+$/.test(t.trim())) return undefined;
  return Number(t);
}

/** `Nashville, TN 37207`, from whichever of the usual address fields a record has. */
export function place(r: Rec | undefined, keys: { city?: string; state?: string; zip?: string; country?: string } = {}): string | undefined {
  if (!r) return undefined;
  const city = text(r[keys.city ?? 'City']);
  const state = text(r[keys.state ?? 'StateOrProvince']) ?? text(r.State);
  const zip = text(r[keys.zip ?? 'ZipOrPostalCode']) ?? text(r.ZipCode);
  const head = [city, state].filter(Boolean).join(', ');
  const out = [head, zip].filter(Boolean).join(' ');
  return out === '' ? undefined : out;
}

/**
 * The catalog's record for a path of field names under an operation's result, so the views find
 * their lists by the records they hold (a 1.0.0 rate quote's charges are `ChargeTypes`, later
 * versions' `Charges`) and can say what a field means in the catalog's own words.
 */
export function resultRecord(operation: string | undefined, version: string | undefined, ...path: string[]): RecordDef | undefined {
  const shape = operation ? findShape(operation, version) : undefined;
  let record = shape ? recordNamed(shape.result) : undefined;
  for (const name of path) {
    const field = record?.fields.find((f) => f.name === name);
    record = field?.record ? recordNamed(field.record) : undefined;
  }
  return record;
}

/** The field of `record` whose items (or value) are records named one of `names`. */
export function fieldHolding(record: RecordDef | undefined, ...names: string[]): FieldDef | undefined {
  return record?.fields.find((f) => f.record !== undefined && names.includes(f.record));
}

export function fieldDoc(record: RecordDef | undefined, name: string): string | undefined {
  return record?.fields.find((f) => f.name === name)?.doc;
}

function recordNamed(name: string): RecordDef | undefined {
  try {
    return getRecord(name);
  } catch {
    return undefined;
  }
}
