/**
 * What a stored live contract changes in a request file's findings. An element the live service
 * declares but the catalog lacks is not an error: it is accepted with an information-level note
 * naming the contract it comes from, and its value is checked against its XSD type. An element of
 * the catalog the live service lacks is a warning: the service will not read it.
 */
import { getRecord, parametersRecord, type OperationDef, type RecordDef } from '../catalog';
import type { ShapeOverlay } from '../contract/overlay';
import type { AddedElement } from '../contract/types';
import { isObject } from '../objects';
import { formatPath } from '../requestFile/jsonPath';
import type { JsonSource } from '../requestFile/source';
import type { Finding, JsonPath } from '../requestFile/types';
import { wholeVariable } from '../requestFile/variables';
import { shown } from './phrases';

const PARAMS = 'params';

const INTEGERS = new Set([
  'int',
  'integer',
  'long',
  'short',
  'byte',
  'unsignedInt',
  'unsignedLong',
  'unsignedShort',
  'unsignedByte',
  'nonNegativeInteger',
  'positiveInteger',
  'negativeInteger',
  'nonPositiveInteger',
]);
const NUMBERS = new Set(['float', 'double']);
const DATE_TIME = /^-?\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Where an overlay's note says its knowledge comes from. */
export function contractSource(overlay: ShapeOverlay): string {
  return `the live contract of environment "${overlay.environment}" (checked ${overlay.checkedAt.slice(0, 10)})`;
}

export function describeAdded(a: AddedElement): string {
  const type = a.base
    ? `xs:${a.base}${a.enumeration ? `, one of ${a.enumeration.join(', ')}` : ''}`
    : `${a.type} (a record${a.children?.length ? ` of ${a.children.join(', ')}` : ''})`;
  return `${type}, minOccurs ${a.minOccurs}, maxOccurs ${a.maxOccurs}, ${a.after ? `after ${a.after}` : 'first'}`;
}

/** The added element `name` of the record at `parent`, when the overlay has one. */
export function addedAt(op: OperationDef, overlay: ShapeOverlay, record: RecordDef | undefined, name: string): AddedElement | undefined {
  const owner = record ?? parametersRecord(op);
  return overlay.added(owner.name).find((a) => a.name === name);
}

/** The info note for an added element used in the file, and an error when its value is not of its type. */
export function addedElementFindings(added: AddedElement, path: JsonPath, value: unknown, overlay: ShapeOverlay, source: JsonSource): Finding[] {
  const full = [PARAMS, ...path];
  const at = formatPath(full);
  const findings: Finding[] = [
    {
      severity: 'info',
      code: 'unknown-field',
      path: at,
      range: source.rangeOf(full, 'key'),
      message: `${at} is not in the catalog; ${contractSource(overlay)} declares it: ${describeAdded(added)}`,
    },
  ];
  const repeating = added.maxOccurs === 'unbounded' || added.maxOccurs > 1;
  const items: Array<[unknown, JsonPath]> = repeating && Array.isArray(value) ? value.map((v, i) => [v, [...full, i]]) : [[value, full]];
  for (const [item, itemPath] of items) {
    const problem = valueProblem(added, item);
    if (problem)
      findings.push({
        severity: 'error',
        code: added.enumeration ? 'enum' : 'type',
        path: formatPath(itemPath),
        range: source.rangeOf(itemPath),
        message: `${formatPath(itemPath)}: expected ${problem}, got ${shown(item)} (its type in ${contractSource(overlay)})`,
      });
  }
  return findings;
}

function valueProblem(added: AddedElement, v: unknown): string | undefined {
  if (v === null || wholeVariable(v) !== undefined) return undefined;
  const base = added.base;
  if (base === undefined) return isObject(v) ? undefined : `an object (${added.type} is a record)`;
  if (added.enumeration) return typeof v === 'string' && added.enumeration.includes(v) ? undefined : `one of ${added.enumeration.join(', ')}`;
  if (INTEGERS.has(base)) return typeof v === 'number' && Number.isInteger(v) ? undefined : `an integer (xs:${base})`;
  if (NUMBERS.has(base)) return typeof v === 'number' ? undefined : `a number (xs:${base})`;
  if (base === 'decimal')
    return typeof v === 'number' || (typeof v === 'string' && /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v.trim()))
      ? undefined
      : 'a number or a decimal string (xs:decimal)';
  if (base === 'boolean') return typeof v === 'boolean' ? undefined : 'true or false (xs:boolean)';
  if (base === 'dateTime') return typeof v === 'string' && DATE_TIME.test(v.trim()) ? undefined : 'an xs:dateTime such as "2026-11-23T09:00:00"';
  return typeof v === 'string' ? undefined : `a string (xs:${base})`;
}

/** A warning for every field the file uses that the live contract lacks. One walk along the catalog. */
export function lackingFindings(op: OperationDef, params: Record<string, unknown>, source: JsonSource, overlay: ShapeOverlay): Finding[] {
  const findings: Finding[] = [];
  const work: Array<{ record: RecordDef; value: Record<string, unknown>; path: JsonPath }> = [{ record: parametersRecord(op), value: params, path: [] }];
  while (work.length) {
    const { record, value, path } = work.pop()!;
    if (record.open) continue;
    for (const field of record.fields) {
      const v = value[field.name];
      if (v === undefined) continue;
      const fieldPath = [...path, field.name];
      if (overlay.lacks(record.name, field.name)) {
        const full = [PARAMS, ...fieldPath];
        findings.push({
          severity: 'warning',
          code: 'unknown-field',
          path: formatPath(full),
          range: source.rangeOf(full, 'key'),
          message: `${formatPath(full)}: ${contractSource(overlay)} has no ${field.name} in ${record.name}: the live service will not read it`,
        });
      }
      if (!field.record) continue;
      const inner = getRecord(field.record);
      if (field.list) {
        if (Array.isArray(v))
          v.forEach((item, i) => {
            if (isObject(item)) work.push({ record: inner, value: item, path: [...fieldPath, i] });
          });
      } else if (isObject(v)) {
        work.push({ record: inner, value: v, path: fieldPath });
      }
    }
  }
  return findings;
}
