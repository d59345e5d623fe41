/**
 * Turns what the core reader produced into what an ASMX service would have bound: only the
 * contract's fields, the last of a repeated single field (as XmlSerializer keeps), values of
 * enumerations checked, and unreadable values refused. Elements the service would not bind
 * (unknown names, wrong namespaces) are dropped and reported, never guessed at.
 */
import { dateTimeProblem, getEnumeration, getRecord, isObject, joinPath, type FieldDef, type JsonObject, type ReadIssue, type RecordDef } from '../../core';
import { clientFault } from '../soap/fault';

export interface Normalised {
  readonly value: JsonObject;
  /** Paths of elements that were not bound (unknown, or outside their namespace). */
  readonly ignored: readonly string[];
}

/**
 * A value quoted in a fault, as far as a reader needs it: a request may hold megabytes in one
 * element, and echoing them whole would make every refusal of it as large again.
 */
const QUOTED_VALUE_LIMIT = 120;

function shown(value: string): string {
  return value.length > QUOTED_VALUE_LIMIT ? `${value.slice(0, QUOTED_VALUE_LIMIT)}… (${value.length.toLocaleString('en-US')} characters)` : value;
}

function reasonOf(issue: ReadIssue): string {
  return issue.message.replace(/; kept as (text|received)$/, '').replace(/"([^"]*)"/g, (_, v: string) => `"${shown(v)}"`);
}

/** Refuses unreadable values the way XmlSerializer does, and binds the rest along `record`. */
export function normaliseRequest(record: RecordDef, raw: JsonObject, issues: readonly ReadIssue[]): Normalised {
  const typeIssue = issues.find((i) => i.kind === 'type');
  if (typeIssue) throw clientFault(`Server was unable to read the request: ${reasonOf(typeIssue)}.`);
  const dropped = new Set(issues.filter((i) => i.kind === 'unknown').map((i) => i.path));
  const ignored = issues.filter((i) => i.kind === 'unknown' || i.kind === 'namespace').map((i) => i.path);
  return { value: bindRecord(record, raw, '', dropped), ignored };
}

function bindRecord(record: RecordDef, v: JsonObject, path: string, dropped: ReadonlySet<string>): JsonObject {
  if (record.open) return v;
  const out: JsonObject = {};
  for (const field of record.fields) {
    let x = v[field.name];
    if (x === undefined) continue;
    if (Array.isArray(x) && (!field.list || x.some(Array.isArray))) x = x[x.length - 1];
    out[field.name] = bindField(field, x, joinPath(path, field.name), dropped);
  }
  return out;
}

function bindField(field: FieldDef, x: unknown, path: string, dropped: ReadonlySet<string>): unknown {
  if (x === null) return null;
  if (field.list) {
    const items = Array.isArray(x) ? x : [];
    const out: unknown[] = [];
    items.forEach((item, i) => {
      const itemPath = joinPath(path, i);
      if (dropped.has(itemPath)) return;
      if (item === null) out.push(null);
      else if (field.record) out.push(isObject(item) ? bindRecord(getRecord(field.record), item, itemPath, dropped) : {});
      else out.push(checkEnumeration(field, item, itemPath));
    });
    return out;
  }
  if (field.record) {
    // Text inside a record element (e.g. `<Origin>Tampa</Origin>`) binds as an empty record.
    return isObject(x) ? bindRecord(getRecord(field.record), x, path, dropped) : {};
  }
  if (field.type === 'dateTime' && typeof x === 'string') checkDateTime(field, x, path);
  return checkEnumeration(field, x, path);
}

/**
 * XmlSerializer reads an xs:dateTime into a DateTime, which holds no 30 February and no month
 * 13: such a value is as unreadable as text, and is refused the same way rather than rolled
 * over into another day.
 */
function checkDateTime(field: FieldDef, x: string, path: string): void {
  const problem = dateTimeProblem(x);
  if (problem) throw clientFault(`Server was unable to read the request: '${shown(x)}' is not a valid xs:dateTime for ${field.name} (${path}): ${problem}.`);
}

function checkEnumeration(field: FieldDef, x: unknown, path: string): unknown {
  if (!field.enumeration) return x;
  const values = getEnumeration(field.enumeration).values;
  if (typeof x !== 'string' || !values.includes(x)) {
    throw clientFault(
      `Server was unable to read the request: '${shown(String(x))}' is not a valid value for ${field.enumeration} (${path}). Valid values: ${values.join(', ')}.`,
    );
  }
  return x;
}
