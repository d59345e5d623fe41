/**
 * A catalog record's JSON made fit for an open record (written generically): lists become a
 * container of repeated item elements, as the catalog would have written them, and empty values
 * are left out (the generic writer would print "undefined").
 */
import { getRecord, isObject, type FieldDef } from '../../core';

function field(f: FieldDef, v: unknown): unknown {
  if (f.list) {
    const items = (Array.isArray(v) ? v : []).filter((x) => x !== null && x !== undefined);
    return { [f.list]: f.record ? items.map((i) => (isObject(i) ? openContent(f.record!, i) : {})) : items };
  }
  if (f.record) return isObject(v) ? openContent(f.record, v) : undefined;
  return v;
}

export function openContent(recordName: string, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of getRecord(recordName).fields) {
    const v = value[f.name];
    if (v === undefined || v === null || v === '') continue;
    const converted = field(f, v);
    if (converted !== undefined) out[f.name] = converted;
  }
  return out;
}
