/** Which catalog field a JSON path under `params` stands for, so messages can speak the catalog's words. */
import { getRecord, parametersRecord, shapesOf } from '../catalog';
import type { FieldDef, OperationDef, RecordDef } from '../catalog/types';
import type { JsonPath } from '../requestFile/types';

export interface FieldAt {
  readonly owner: RecordDef;
  readonly field: FieldDef;
  /** The path points at one item of the list `field`, not at the container. */
  readonly item: boolean;
}

export type Resolved = FieldAt | { readonly open: RecordDef } | { readonly record: RecordDef } | undefined;

/**
 * Resolves `path` (relative to params) in `op`: a field (or list item), the record an object
 * there must be, or undefined when the path leaves the catalog.
 */
export function resolveParams(op: OperationDef, path: JsonPath): Resolved {
  let record = parametersRecord(op);
  let i = 0;
  if (path.length === 0) return { record };
  for (;;) {
    if (record.open) return { open: record };
    const segment = path[i++];
    const field = typeof segment === 'string' ? record.fields.find((f) => f.name === segment) : undefined;
    if (!field) return undefined;
    if (i === path.length) return { owner: record, field, item: false };
    if (field.list) {
      if (typeof path[i++] !== 'number') return undefined;
      if (i === path.length) return { owner: record, field, item: true };
    }
    if (!field.record) return undefined;
    record = getRecord(field.record);
  }
}

/** The record an object at `path` must be (for "not a field of X" messages). */
export function recordAt(op: OperationDef, path: JsonPath): RecordDef | undefined {
  const r = resolveParams(op, path);
  if (!r) return undefined;
  if ('record' in r) return r.record;
  if ('open' in r) return r.open;
  if (r.field.record && (r.item || !r.field.list)) return getRecord(r.field.record);
  return undefined;
}

/** The other versions of the operation where `test` holds at the same path ("it is one in 1.0.1"). */
export function otherVersionsWhere(op: OperationDef, test: (other: OperationDef) => boolean): string[] {
  return shapesOf(op.operation)
    .filter((o) => o.version !== op.version && test(o))
    .map((o) => o.version);
}
