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

/** Which records a walk is for; the walk leaves out fields in which the catalog puts none of them. */
export type Wanted = (record: RecordDef) => boolean;

/**
 * Whether a record, or one inside it, is wanted: by record, per predicate. The catalog is fixed,
 * so a reply's Charges or ServiceLevels, which hold no in-body error carrier, are not walked
 * reply after reply. A record met again while its own answer is being worked out (a recursive
 * record) counts as holding one, so nothing is ever left out wrongly.
 */
const holdsWanted = new WeakMap<Wanted, Map<RecordDef, boolean>>();

export function holds(record: RecordDef, wanted: Wanted): boolean {
  let known = holdsWanted.get(wanted);
  if (!known) holdsWanted.set(wanted, (known = new Map()));
  const seen = known.get(record);
  if (seen !== undefined) return seen;
  known.set(record, true);
  let answer = wanted(record);
  if (!answer && !record.open) answer = record.fields.some((f) => f.record !== undefined && holds(getRecord(f.record), wanted));
  known.set(record, answer);
  return answer;
}

export function walkRecords(value: unknown, record: RecordDef, path: string, visit: Visit, wanted?: Wanted): void {
  if (!isObject(value)) return;
  visit(record, value, path);
  if (record.open) return;
  for (const field of record.fields) {
    if (!field.record) continue;
    const v = value[field.name];
    if (v === undefined || v === null) continue;
    const inner = getRecord(field.record);
    if (wanted && !holds(inner, wanted)) continue;
    const at = joinPath(path, field.name);
    if (field.list) {
      if (Array.isArray(v)) v.forEach((item, i) => walkRecords(item, inner, `${at}[${i}]`, visit, wanted));
    } else if (Array.isArray(v)) {
      // A single record that arrived more than once: the reader kept every occurrence.
      v.forEach((item, i) => walkRecords(item, inner, `${at}[${i}]`, visit, wanted));
    } else {
      walkRecords(v, inner, at, visit, wanted);
    }
  }
}
