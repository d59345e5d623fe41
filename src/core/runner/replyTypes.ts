/**
 * What the catalog says a reply path holds, so assertions compare by the field's type: an int,
 * float or decimal as a number, an xs:dateTime (or a `MM/DD/YYYY` string field) as a date.
 * Paths start inside `<Operation>Result`, whose record is the shape's `result`
 * (src/core/reply/parse.ts reads the reply along the same records). Elements the catalog does
 * not describe, open records and replies of no known operation have no type: assertions on
 * them compare as they always have (values.ts).
 */
import { findShape, getRecord } from '../catalog';
import type { FieldDef, OperationDef, RecordDef, XsdType } from '../catalog/types';
import type { ReplyPath } from './replyPath';

/** A simple type, or `date`: a string field the catalog formats as `MM/DD/YYYY`. */
export type ScalarType = XsdType | 'date';

export interface ValueType {
  /** Set for a simple field (or the items of a simple list). */
  readonly scalar?: ScalarType;
  /** Set for a record field (or the items of a list of records). */
  readonly record?: RecordDef;
  /** The value is a list container: its items are read with [n], [*] or [?]. */
  readonly list: boolean;
}

export const NUMERIC_TYPES: ReadonlySet<ScalarType> = new Set(['int', 'float', 'decimal']);
export const DATE_TYPES: ReadonlySet<ScalarType> = new Set(['dateTime', 'date']);

function fieldType(field: FieldDef): ValueType {
  const scalar: ScalarType | undefined = field.type === 'record' ? undefined : field.format === 'MM/DD/YYYY' ? 'date' : field.type;
  return { ...(scalar ? { scalar } : {}), ...(field.record ? { record: getRecord(field.record) } : {}), list: !!field.list };
}

/** The type of a record's field `name`; undefined when the record does not describe it. */
export function memberType(parent: ValueType | undefined, name: string): ValueType | undefined {
  if (!parent || parent.list || !parent.record || parent.record.open) return undefined;
  const field = parent.record.fields.find((f) => f.name === name);
  return field ? fieldType(field) : undefined;
}

/** The type of an item: a list's items, or the value itself where a single value is indexed. */
export function itemType(t: ValueType | undefined): ValueType | undefined {
  return t && (t.list ? { ...t, list: false } : t);
}

/** The type of the whole reply of an operation at a version; undefined for an unknown one. */
export function resultType(operation?: string, version?: string): ValueType | undefined {
  const shape: OperationDef | undefined = operation ? findShape(operation, version) : undefined;
  return shape ? { record: getRecord(shape.result), list: false } : undefined;
}

/** The type at a reply path from a root type; undefined where the catalog says nothing. */
export function typeAtPath(root: ValueType | undefined, path: ReplyPath): ValueType | undefined {
  let t = root;
  for (const step of path.steps) {
    if (!t) return undefined;
    t = step.kind === 'key' ? memberType(t, step.name) : itemType(t);
  }
  return t;
}
