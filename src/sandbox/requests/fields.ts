/**
 * Text fields against their lengths (carrier/limits.ts): one walk along the catalog record of a
 * request, one message per field that is too long, named the way the other messages name
 * fields (`Shipper Name`, `Item 2 NMFCItemNumber`).
 */
import { getRecord, isObject, type RecordDef } from '../../core';
import { fieldLength } from '../carrier';

const count = (n: number) => n.toLocaleString('en-US');

export function lengthProblems(record: RecordDef, value: unknown, label = ''): string[] {
  const out: string[] = [];
  const walk = (rec: RecordDef, v: unknown, prefix: string): void => {
    if (rec.open || !isObject(v)) return;
    for (const f of rec.fields) {
      const x = v[f.name];
      if (x === undefined || x === null) continue;
      const name = prefix ? `${prefix} ${f.name}` : f.name;
      if (f.list) {
        if (!Array.isArray(x)) continue;
        x.forEach((item, i) => {
          const itemName = `${prefix ? `${prefix} ` : ''}${f.list} ${i + 1}`;
          if (f.record) walk(getRecord(f.record), item, itemName);
          else if (!f.enumeration) checkText(f.list!, item, itemName);
        });
      } else if (f.record) walk(getRecord(f.record), x, name);
      else if (f.type === 'string' && !f.enumeration && !f.secret) checkText(f.name, x, name);
    }
  };
  const checkText = (field: string, x: unknown, name: string): void => {
    if (typeof x !== 'string') return;
    const max = fieldLength(field);
    if (x.length > max) out.push(`${name} is ${count(x.length)} characters long: at most ${count(max)} are accepted.`);
  };
  walk(record, value, label);
  return out;
}
