/**
 * ajv's errors for a params object → one finding per location, phrased from the catalog.
 *
 * ajv reports a bad enum value as three errors (the enum, the variable pattern, the anyOf); the
 * message here ignores which keyword failed and describes what the location needs instead.
 */
import { getEnumeration, getRecord, shapeLabel } from '../catalog';
import type { FieldDef, OperationDef } from '../catalog/types';
import { hasNumericSuggestions } from '../generate/jsonSchema';
import { formatPath } from '../requestFile/jsonPath';
import type { JsonSource } from '../requestFile/source';
import { closest, didYouMean } from '../requestFile/suggest';
import type { Finding, JsonPath } from '../requestFile/types';
import { wholeVariable } from '../requestFile/variables';
import { otherVersionsWhere, recordAt, resolveParams, type FieldAt } from './catalogPath';
import type { ShapeOverlay } from '../contract/overlay';
import { addedAt, addedElementFindings } from './contractFindings';
import { article, listOf, nounOf, shown } from './phrases';
import { paramsValidator } from './schemaValidator';

type Obj = Record<string, unknown>;
const PARAMS = 'params';

/** With an overlay, a field the environment's live contract adds is a note instead of an error (contractFindings.ts). */
export function schemaFindings(op: OperationDef, params: Obj, source: JsonSource, overlay?: ShapeOverlay): Finding[] {
  const validate = paramsValidator(op);
  if (validate(params)) return [];
  const values = new Map<string, { path: JsonPath; value: unknown }>();
  const unknownFields = new Map<string, JsonPath>();
  for (const error of validate.errors ?? []) {
    const path = toPath(error.instancePath, params);
    if (error.keyword === 'additionalProperties') {
      const child = [...path, (error.params as { additionalProperty: string }).additionalProperty];
      unknownFields.set(child.join('\u0000'), child);
    } else {
      values.set(path.join('\u0000'), { path, value: valueAt(params, path) });
    }
  }
  const findings: Finding[] = [];
  for (const path of unknownFields.values()) {
    const added = overlay && addedAt(op, overlay, recordAt(op, path.slice(0, -1)), String(path[path.length - 1]));
    if (added) findings.push(...addedElementFindings(added, path, valueAt(params, path), overlay!, source));
    else findings.push(unknownField(op, path, source));
  }
  for (const { path, value } of values.values()) findings.push(badValue(op, path, value, source));
  return findings;
}

/** instancePath is a JSON pointer; a segment is an index only where the data is an array. */
function toPath(pointer: string, data: unknown): JsonPath {
  const path: JsonPath = [];
  if (pointer === '') return path;
  let cur = data;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const step = Array.isArray(cur) ? Number(segment) : segment;
    path.push(step);
    cur = cur !== null && typeof cur === 'object' ? (cur as Obj)[step as string] : undefined;
  }
  return path;
}

function valueAt(data: unknown, path: JsonPath): unknown {
  let cur = data;
  for (const step of path) cur = cur !== null && typeof cur === 'object' ? (cur as Obj)[step as string] : undefined;
  return cur;
}

function unknownField(op: OperationDef, path: JsonPath, source: JsonSource): Finding {
  const name = String(path[path.length - 1]);
  const parent = path.slice(0, -1);
  const record = recordAt(op, parent);
  const fields = record?.fields.map((f) => f.name) ?? [];
  const guess = closest(name, fields);
  const where = parent.length === 0 ? `a parameter of ${shapeLabel(op)}` : `a field of ${record?.name ?? 'this record'} in ${shapeLabel(op)}`;
  const elsewhere = otherVersionsWhere(op, (other) => !!resolveFieldAt(other, path));
  const inOther = elsewhere.length > 0 ? ` (it is one in ${elsewhere.join(', ')})` : '';
  const listing = fields.length > 0 ? ` (${parent.length === 0 ? 'parameters' : 'fields'}: ${listOf(fields)})` : '';
  return {
    severity: 'error',
    code: 'unknown-field',
    message: `${formatPath([PARAMS, ...path])} is not ${where}${inOther}${didYouMean(guess)}${listing}`,
    path: formatPath([PARAMS, ...path]),
    range: source.rangeOf([PARAMS, ...path], 'key'),
    ...(guess ? { suggestion: guess } : {}),
  };
}

function resolveFieldAt(op: OperationDef, path: JsonPath): FieldAt | undefined {
  const r = resolveParams(op, path);
  return r && 'field' in r ? r : undefined;
}

function badValue(op: OperationDef, path: JsonPath, value: unknown, source: JsonSource): Finding {
  const at = resolveFieldAt(op, path);
  const fullPath = [PARAMS, ...path];
  const base = { severity: 'error' as const, path: formatPath(fullPath), range: source.rangeOf(fullPath) };
  if (!at) {
    const record = recordAt(op, path);
    const what = record && !record.open ? `an object with the fields of ${record.name}` : 'an object';
    return { ...base, code: 'type', message: `${base.path}: expected ${what}, got ${shown(value)}` };
  }
  const { field, item } = at;
  if (field.list && !item) {
    const example = field.type === 'record' ? `[ { … } ]` : `[${JSON.stringify(field.enumeration ? getEnumeration(field.enumeration).values[0] : 'value')}]`;
    return {
      ...base,
      code: 'type',
      message: `${base.path}: expected a JSON array (repeating ${field.list} elements are written as ${example}), got ${shown(value)}`,
    };
  }
  if (field.type === 'record') {
    const record = getRecord(field.record!);
    const fields = record.open ? '' : ` (fields: ${listOf(record.fields.map((f) => f.name))})`;
    return { ...base, code: 'type', message: `${base.path}: expected an object${record.open ? '' : ` — a ${record.name}`}${fields}, got ${shown(value)}` };
  }
  if (field.enumeration && typeof value === 'string' && wholeVariable(value) === undefined) return enumValue(op, path, field, item, value, base);
  return { ...base, code: 'type', message: `${base.path}: expected ${expectation(field)}, got ${shown(value)}${hint(field, value)}` };
}

function enumValue(
  op: OperationDef,
  path: JsonPath,
  field: FieldDef,
  item: boolean,
  value: string,
  base: Pick<Finding, 'severity' | 'path' | 'range'>,
): Finding {
  const values = getEnumeration(field.enumeration!).values;
  const guess = closest(value, values);
  const noun = nounOf(field.name, item);
  const elsewhere = otherVersionsWhere(op, (other) => {
    const there = resolveFieldAt(other, path);
    return !!there?.field.enumeration && getEnumeration(there.field.enumeration).values.includes(value);
  });
  const inOther = elsewhere.length > 0 ? ` (it is one in ${elsewhere.join(', ')})` : '';
  const tail = guess ? didYouMean(guess) : inOther ? '' : ` (values: ${listOf(values)})`;
  return {
    ...base,
    code: 'enum',
    message: `${base.path}: "${value}" is not ${article(noun)} of ${shapeLabel(op)}${inOther}${tail}`,
    ...(guess ? { suggestion: guess } : {}),
  };
}

function expectation(field: FieldDef): string {
  if (field.enumeration) return `one of the ${field.enumeration} values as a string (or a {{variable}})`;
  if (hasNumericSuggestions(field)) return 'a string or a number, e.g. "50.0"';
  switch (field.type) {
    case 'int':
      return 'an integer (or a {{variable}})';
    case 'float':
      return 'a number (or a {{variable}})';
    case 'decimal':
      return 'a number or a decimal string such as "0.10" (or a {{variable}})';
    case 'boolean':
      return 'true or false (or a {{variable}})';
    case 'dateTime':
      return 'an xs:dateTime such as "2026-11-23T09:00:00" or a date "2026-11-23" (or a {{variable}})';
    default:
      return 'a string';
  }
}

/** The likely fix when the value is right but written as the wrong JSON type. */
function hint(field: FieldDef, value: unknown): string {
  const numeric = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim());
  if (numeric && (field.type === 'int' || field.type === 'float')) return ' — write the number without quotes';
  if (typeof value === 'string' && field.type === 'boolean' && /^(true|false)$/i.test(value.trim()))
    return ` — write ${value.trim().toLowerCase()} without quotes`;
  if (typeof value === 'number' && field.type === 'string' && !field.enumeration) return ` — write "${value}" in quotes`;
  const us = typeof value === 'string' && field.type === 'dateTime' ? /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim()) : null;
  if (us) return ` — did you mean "${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}"?`;
  return '';
}
