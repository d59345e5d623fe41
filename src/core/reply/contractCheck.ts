/**
 * What the reader cannot see element by element, checked on the result it read (either way,
 * commonReply.ts or xml/read.ts): a required field that is missing, a value outside its
 * enumeration, a result with nothing in it. One walk along the catalog, into only the records
 * that hold such a field (walk.ts), so a rate quote's Charges are never visited.
 *
 * "Required" is the contract's minOccurs 1: the catalog's `required` value types
 * (src/sandbox/wsdl/xsd.ts writes them so), or, with a stored live contract, what it says
 * (src/core/contract/overlay.ts `replyRequired`).
 */
import { catalogMinOccurs, getEnumeration } from '../catalog';
import type { FieldDef, RecordDef } from '../catalog/types';
import type { Finding } from '../exchange';
import { joinPath } from '../xml/read';
import { holds, walkRecords } from './walk';
import { CONTRACT_CODES } from '../contractCodes';

/** What a stored live contract says of a reply record's elements (overlay.ts); absent: the catalog decides. */
export interface ReplyContract {
  /** True/false when the live contract says whether `element` of `record` is required; undefined when it says nothing. */
  required(record: string, element: string): boolean | undefined;
  /** Whether the live contract adds `element` to `record` (so it is no unknown element). */
  knows(record: string, element: string): boolean;
}

function requiredIn(record: RecordDef, field: FieldDef, live: ReplyContract | undefined): boolean {
  return live?.required(record.name, field.name) ?? catalogMinOccurs(field) === 1;
}

/** Records the walk looks into: their own fields need a check. */
const checked = new WeakMap<RecordDef, boolean>();
function needsCheck(record: RecordDef): boolean {
  let v = checked.get(record);
  if (v === undefined) checked.set(record, (v = !record.open && record.fields.some((f) => f.enumeration !== undefined || catalogMinOccurs(f) === 1)));
  return v;
}

const enumerationValues = new Map<string, ReadonlySet<string>>();
function valuesOf(name: string): ReadonlySet<string> {
  let v = enumerationValues.get(name);
  if (!v) enumerationValues.set(name, (v = new Set(getEnumeration(name).values)));
  return v;
}

const MAX_FINDINGS = 200;
const NONE: Finding[] = [];

export function contractFindings(parsed: unknown, result: RecordDef, live?: ReplyContract): Finding[] {
  // Whether the result, or a record it leads to, has a field to check is walk.ts's answer, made once
  // per record: a rate quote's reply has none, and is not walked at all.
  if (!live && !holds(result, needsCheck)) return NONE;
  const out: Finding[] = [];
  const add = (f: Finding) => {
    if (out.length < MAX_FINDINGS) out.push(f);
  };
  const enumeration = (field: FieldDef, v: unknown, path: string) => {
    if (typeof v !== 'string' || valuesOf(field.enumeration!).has(v)) return;
    add({
      kind: 'contract',
      code: 'not-of-type',
      severity: CONTRACT_CODES['not-of-type'].severity,
      path,
      message: `${path}: "${clip(v)}" is not a value of the ${field.enumeration} enumeration`,
    });
  };
  walkRecords(
    parsed,
    result,
    '',
    (record, value, path) => {
      if (record.open) return;
      for (const field of record.fields) {
        const v = value[field.name];
        const at = joinPath(path, field.name);
        if (v === undefined) {
          if (requiredIn(record, field, live))
            add({
              kind: 'contract',
              code: 'missing-element',
              severity: CONTRACT_CODES['missing-element'].severity,
              path: at,
              message: `${at} is missing; the contract requires it (minOccurs 1)`,
            });
          continue;
        }
        if (field.enumeration === undefined || v === null) continue;
        if (field.list) {
          if (Array.isArray(v)) v.forEach((item, i) => enumeration(field, item, `${at}[${i}]`));
        } else enumeration(field, v, at);
      }
    },
    live ? undefined : needsCheck,
  );
  return out;
}

function clip(s: string, n = 80): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
