/**
 * Visits a parsed reply along the catalog: every record value with its record definition and its
 * path (`Result.Shipment[0]`, the same spelling as the reader's issues). In-body error carriers
 * and document fields are found this way, by what the catalog says, not by guessing at names.
 */
import { isObject } from '../objects';
import { getRecord } from '../catalog';
import type { RecordDef } from '../catalog/types';
import { joinPath } from '../xml/read';

export type Visit = (record: RecordDef, value: Record<string, unknown>, path: string) => void;

export function walkRecords(value: unknown, record: RecordDef, path: string, visit: Visit): void {
  if (!isObject(value)) return;
  visit(record, value, path);
  if (record.open) return;
  for (const field of record.fields) {
    const v = value[field.name];
    if (v === undefined || v === null || !field.record) continue;
    const inner = getRecord(field.record);
    const at = joinPath(path, field.name);
    if (field.list) {
      if (Array.isArray(v)) v.forEach((item, i) => walkRecords(item, inner, `${at}[${i}]`, visit));
    } else if (Array.isArray(v)) {
      // A single record that arrived more than once: the reader kept every occurrence.
      v.forEach((item, i) => walkRecords(item, inner, `${at}[${i}]`, visit));
    } else {
      walkRecords(v, inner, at, visit);
    }
  }
}
