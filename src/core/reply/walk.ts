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

/** A field a walk goes into, with its record. */
interface Descent {
  readonly name: string;
  readonly list: boolean;
  readonly record: RecordDef;
}

/** Every record field, for a walk that wants every record. */
const EVERY: Wanted = () => true;
const descentsWanted = new WeakMap<Wanted, Map<RecordDef, readonly Descent[]>>();

/**
 * The fields of `record` a walk for `wanted` goes into: those whose record is, or leads to, one
 * wanted (holds). Worked out once per record: a reply's walk then looks only at those fields.
 */
function descents(record: RecordDef, wanted: Wanted): readonly Descent[] {
  let known = descentsWanted.get(wanted);
  if (!known) descentsWanted.set(wanted, (known = new Map()));
  let found = known.get(record);
  if (!found) {
    const out: Descent[] = [];
    for (const field of record.fields) {
      if (!field.record) continue;
      const inner = getRecord(field.record);
      if (wanted === EVERY || holds(inner, wanted)) out.push({ name: field.name, list: Boolean(field.list), record: inner });
    }
    known.set(record, (found = out));
  }
  return found;
}

export function walkRecords(value: unknown, record: RecordDef, path: string, visit: Visit, wanted: Wanted = EVERY): void {
  if (!isObject(value)) return;
  visit(record, value, path);
  if (record.open) return;
  for (const { name, list, record: inner } of descents(record, wanted)) {
    const v = value[name];
    if (v === undefined || v === null) continue;
    const at = joinPath(path, name);
    // A list's items; or a single record that arrived more than once: the reader kept every occurrence.
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) walkRecords(v[i], inner, `${at}[${i}]`, visit, wanted);
    else if (!list) walkRecords(v, inner, at, visit, wanted);
  }
}
