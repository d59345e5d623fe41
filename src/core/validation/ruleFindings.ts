/**
 * What the schema cannot say, as warnings: fields the service requires (the schema leaves them
 * optional because real clients omit them), a literal API key, string formats and numeric
 * suggestions such as freight classes. One walk along the catalog, linear in the file's size.
 */
import { dateTimeProblem, usDateProblem } from '../calendar';
import { getRecord, parametersRecord } from '../catalog';
import type { FieldDef, OperationDef, RecordDef, StringFormat } from '../catalog/types';
import { numericSuggestions } from '../generate/jsonSchema';
import { formatPath } from '../requestFile/jsonPath';
import type { JsonSource } from '../requestFile/source';
import type { Finding, FindingCode, JsonPath } from '../requestFile/types';
import { containsVariable } from '../requestFile/variables';
import { isObject } from '../objects';
import { shown } from './phrases';

type Obj = Record<string, unknown>;

const FORMATS: Record<StringFormat, { test: RegExp; example: string; fix: (v: string) => string | undefined }> = {
  'MM/DD/YYYY': { test: /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/, example: '11/23/2026', fix: fixDate },
  'hh:mm AM/PM': { test: /^(0[1-9]|1[0-2]):[0-5]\d (AM|PM)$/, example: '03:00 PM', fix: fixTime },
};

/** The xs:dateTime shape the generated schema accepts (src/core/generate/jsonSchema.ts). */
const SCHEMA_DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?)?$/;

/**
 * What the walk does at one record, worked out once per record. A bill of lading item has six
 * required fields and only its class has a rule beyond being there: the presence test is one
 * generated function with a plain property read per field (a loop reading `obj[field.name]`
 * with ever-changing names was most of the walk's time on 500 items), and only the fields with
 * more to check are visited one by one.
 */
interface RecordPlan {
  readonly anyMissing: (obj: Obj) => boolean;
  readonly required: readonly FieldDef[];
  /** Secret, list, nested, formatted or suggested fields. */
  readonly deep: readonly FieldDef[];
}

const plans = new WeakMap<RecordDef, RecordPlan>();
function planOf(record: RecordDef): RecordPlan {
  let plan = plans.get(record);
  if (!plan) {
    const required = record.fields.filter((f) => f.required && !f.secret);
    const test = required.map((f) => `o[${JSON.stringify(f.name)}] === undefined`).join(' || ') || 'false';
    plan = {
      anyMissing: new Function('o', `return ${test};`) as (obj: Obj) => boolean,
      required,
      deep: record.fields.filter((f) => f.secret || f.list || f.record || f.format || f.suggestions || f.type === 'dateTime'),
    };
    plans.set(record, plan);
  }
  return plan;
}

/** Values already found to need no finding, per field: the same class or date recurs in every item. */
const knownGood = new WeakMap<FieldDef, Set<unknown>>();
const KNOWN_GOOD_LIMIT = 256;

export function ruleFindings(op: OperationDef, params: Obj, source: JsonSource): Finding[] {
  const findings: Finding[] = [];
  const warn = (code: FindingCode, path: JsonPath, message: string, part: 'value' | 'key' = 'value', suggestion?: string) =>
    findings.push({
      severity: 'warning',
      code,
      message,
      path: formatPath(path),
      range: source.rangeOf(path, part),
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
  // A date that cannot exist is refused by the service (XmlSerializer or its own date check), never moved to another day.
  const impossible = (path: JsonPath, value: string, problem: string) =>
    findings.push({
      severity: 'error',
      code: 'date',
      message: `${formatPath(path)}: ${shown(value)} is not a real date: ${problem}`,
      path: formatPath(path),
      range: source.rangeOf(path, 'value'),
    });

  // One path array, pushed and popped as the walk goes: copies are made only for findings.
  const path: Array<string | number> = ['params'];
  const here = (): JsonPath => [...path];

  const walkRecord = (obj: Obj, record: RecordDef): void => {
    const plan = planOf(record);
    if (plan.anyMissing(obj)) {
      for (const field of plan.required) {
        // JSON never holds undefined, so this is a presence test without hasOwnProperty's cost.
        if (obj[field.name] !== undefined) continue;
        const at = [...path, field.name];
        warn('required', at, `${formatPath(at)} is required by the service (minOccurs 1)`);
      }
    }
    for (const field of plan.deep) {
      const value = obj[field.name];
      if (value === undefined) continue;
      if (!field.secret && !field.list && !field.record && knownGood.get(field)?.has(value)) continue;
      path.push(field.name);
      if (field.secret) {
        if (typeof value === 'string' && value !== '' && !containsVariable(value)) {
          warn(
            'api-key',
            here(),
            `${formatPath(path)}: a literal API key in a request file — leave ${field.name} out (it comes from the environment's secret) or use a {{variable}}`,
          );
        }
      } else if (field.list) {
        if (Array.isArray(value)) walkList(field, value);
      } else if (field.record) {
        const record = getRecord(field.record);
        if (!record.open && isObject(value)) walkRecord(value, record);
      } else checkSimple(field, value);
      path.pop();
    }
  };

  const walkList = (field: FieldDef, items: unknown[]): void => {
    if (field.required && items.length === 0) warn('empty-list', here(), `${formatPath(path)} is empty — the service requires at least one ${field.list}`);
    const record = field.record ? getRecord(field.record) : undefined;
    if (record?.open) return;
    for (let i = 0; i < items.length; i++) {
      path.push(i);
      if (!record) checkSimple(field, items[i]);
      else if (isObject(items[i])) walkRecord(items[i] as Obj, record);
      path.pop();
    }
  };

  const checkSimple = (field: FieldDef, value: unknown): void => {
    if (!field.format && !field.suggestions && field.type !== 'dateTime') return;
    const good = knownGood.get(field);
    if (typeof value === 'string' && containsVariable(value)) return;
    const before = findings.length;
    // Only where the schema or the format already accepts the shape: what is left is a day the month lacks (or year 0000).
    if (typeof value === 'string') {
      const problem =
        field.type === 'dateTime' && SCHEMA_DATE_TIME.test(value)
          ? dateTimeProblem(value)
          : field.format === 'MM/DD/YYYY' && FORMATS['MM/DD/YYYY'].test.test(value)
            ? usDateProblem(value)
            : undefined;
      if (problem) impossible(here(), value, problem);
    }
    if (field.format && typeof value === 'string') {
      const format = FORMATS[field.format];
      if (!format.test.test(value)) {
        const fixed = format.fix(value);
        const tail = fixed ? ` — did you mean "${fixed}"?` : ` (e.g. "${format.example}")`;
        warn('format', here(), `${formatPath(path)}: ${shown(value)} is not in the format ${field.format}${tail}`, 'value', fixed);
      }
    }
    const numeric = numericSuggestions(field);
    if (numeric && (typeof value === 'string' || typeof value === 'number')) {
      const suggestions = field.suggestions!;
      const n = Number(value);
      if (String(value).trim() === '' || !numeric.has(n)) {
        const nearest =
          Number.isFinite(n) && String(value).trim() !== ''
            ? suggestions.reduce((a, b) => (Math.abs(Number(b) - n) < Math.abs(Number(a) - n) ? b : a))
            : undefined;
        const tail = nearest ? ` — did you mean "${nearest}"?` : '';
        const range = `${suggestions.slice(0, 3).join(', ')} … ${suggestions[suggestions.length - 1]}`;
        warn(
          'suggested-value',
          here(),
          `${formatPath(path)}: ${shown(value)} is not one of the ${suggestions.length} ${field.name} values the service knows (${range})${tail}`,
          'value',
          nearest,
        );
      }
    }
    if (findings.length === before && (typeof value === 'string' || typeof value === 'number')) {
      if (!good) knownGood.set(field, new Set([value]));
      else if (good.size < KNOWN_GOOD_LIMIT) good.add(value);
    }
  };

  walkRecord(params, parametersRecord(op));
  return findings;
}

/** `2026-11-23` or `11/3/2026` → `11/23/2026`, `11/03/2026`. */
function fixDate(value: string): string | undefined {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T.*)?$/.exec(value.trim());
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim());
  const parts = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : undefined;
  if (!parts) return undefined;
  const [y, m, d] = parts;
  if (Number(m) < 1 || Number(m) > 12 || Number(d) < 1 || Number(d) > 31) return undefined;
  return `${m.padStart(2, '0')}/${d.padStart(2, '0')}/${y}`;
}

/** `3:00 pm`, `15:00` → `03:00 PM`. */
function fixTime(value: string): string | undefined {
  const m = /^(\d{1,2}):(\d{2})(?::\d{2})?\s*([AaPp])?\.?[Mm]?\.?$/.exec(value.trim());
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = Number(m[2]);
  if (minute > 59) return undefined;
  let half = m[3]?.toUpperCase() === 'P' ? 'PM' : m[3] ? 'AM' : undefined;
  if (!half) {
    if (hour > 23) return undefined;
    half = hour >= 12 ? 'PM' : 'AM';
    hour = hour % 12 === 0 ? 12 : hour % 12;
  }
  if (hour < 1 || hour > 12) return undefined;
  return `${String(hour).padStart(2, '0')}:${m[2]} ${half}`;
}
