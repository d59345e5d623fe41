/**
 * One sample request per shape, driven by the catalog: which fields (required ones, plus the
 * realistic extras of sampleValues.ts), and a value for each from its type, enumeration,
 * suggestions or format. Snippets, the schema's defaultSnippets, the `New Request…` command and
 * the sandbox all take their samples from here, so they agree and all validate.
 */
import { getEnumeration, getRecord, parametersRecord } from '../catalog';
import type { Binding, FieldDef, OperationDef, RecordDef, StringFormat } from '../catalog/types';
import { DEFAULT_BINDING } from '../requestFile/format';
import { SAMPLE_DATE, SAMPLE_INCLUDES, SAMPLE_VALUES, type SampleLeaf } from './sampleValues';

export type { SampleLeaf };

/** A value the user will most likely change: a tab stop in snippets (with choices for enumerations). */
export class Stop {
  constructor(
    readonly value: SampleLeaf,
    readonly choices?: readonly string[],
  ) {}
}

export type SampleNode = SampleLeaf | Stop | readonly SampleNode[] | { readonly [key: string]: SampleNode };
export type SampleObject = { readonly [key: string]: SampleNode };

const FORMAT_SAMPLES: Record<StringFormat, string> = { 'MM/DD/YYYY': SAMPLE_DATE.us, 'hh:mm AM/PM': '03:00 PM' };

export interface SampleOptions {
  /**
   * Dates as the built-in `{{run.*}}` variables instead of a fixed day. Templates (snippets,
   * New Request…) want them, so a file made today still books a valid pickup next month; the
   * concrete samples of service pages and tests want literal values.
   */
  readonly relativeDates?: boolean;
}

/** What snippets and New Request… write: a file that is still right whenever it is sent. */
export const TEMPLATE: SampleOptions = { relativeDates: true };

/** The operation's parameters, as a sample (APIKey left out: it comes from the environment). */
export function sampleParams(op: OperationDef, options: SampleOptions = {}): SampleObject {
  return sampleRecord(parametersRecord(op), '', options);
}

/** A whole request file for `op`, with stops on the binding, the description and every parameter value. */
export function sampleFile(op: OperationDef, binding: Binding = preferredBinding(op), options: SampleOptions = {}): SampleObject {
  return {
    operation: op.operation,
    version: op.version,
    binding: new Stop(binding, [binding, ...op.bindings.filter((b) => b !== binding)]),
    description: new Stop(op.description),
    params: sampleParams(op, options),
  };
}

/** The same sample as plain JSON (what `New Request…` writes and the sandbox reads). */
export function sampleRequestFile(op: OperationDef, binding?: Binding, options: SampleOptions = {}): Record<string, unknown> {
  return plain(sampleFile(op, binding, options)) as Record<string, unknown>;
}

export function plain(node: SampleNode): unknown {
  if (node instanceof Stop) return node.value;
  if (Array.isArray(node)) return node.map(plain);
  if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, plain(v as SampleNode)]));
  return node;
}

/** Every table key a sample looked up, as `Parent.Element` or `Element` (for the drift test). */
export function sampleValueKeys(): string[] {
  return [...Object.keys(SAMPLE_VALUES), ...SAMPLE_INCLUDES];
}

function preferredBinding(op: OperationDef): Binding {
  return op.bindings.includes(DEFAULT_BINDING) ? DEFAULT_BINDING : op.bindings[0];
}

function sampleRecord(record: RecordDef, context: string, options: SampleOptions): SampleObject {
  const out: Record<string, SampleNode> = {};
  for (const field of record.fields) {
    const value = sampleField(field, context, options);
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}

function lookup(context: string, name: string): SampleLeaf | readonly SampleLeaf[] | undefined {
  return SAMPLE_VALUES[`${context}.${name}`] ?? SAMPLE_VALUES[name];
}

function included(context: string, field: FieldDef): boolean {
  return !!field.required || SAMPLE_INCLUDES.includes(field.name) || SAMPLE_INCLUDES.includes(`${context}.${field.name}`);
}

function sampleField(field: FieldDef, context: string, options: SampleOptions): SampleNode | undefined {
  if (field.secret) return undefined;
  if (field.list) {
    const given = lookup(context, field.name);
    if (!included(context, field) && given === undefined) return undefined;
    if (field.type === 'record') return [recordSample(field, field.name, options)];
    const values = Array.isArray(given) ? given : [derive(field)];
    return values.map((v) => stop(field, v));
  }
  if (field.type === 'record') return included(context, field) ? recordSample(field, field.name, options) : undefined;
  const given = lookup(context, field.name);
  if (given === undefined && !field.required) return undefined;
  const relative = options.relativeDates ? relativeDate(field) : undefined;
  return stop(field, relative ?? (given !== undefined && !Array.isArray(given) ? (given as SampleLeaf) : derive(field)));
}

function relativeDate(field: FieldDef): string | undefined {
  if (field.format === 'MM/DD/YYYY') return '{{run.nextBusinessDay}}';
  if (field.type === 'dateTime') return '{{run.date}}';
  return undefined;
}

function recordSample(field: FieldDef, context: string, options: SampleOptions): SampleObject {
  const record = getRecord(field.record!);
  return record.open ? {} : sampleRecord(record, context, options);
}

function stop(field: FieldDef, value: SampleLeaf): Stop {
  if (field.enumeration) {
    const values = getEnumeration(field.enumeration).values;
    return new Stop(value, [String(value), ...values.filter((v) => v !== value)]);
  }
  if (field.type === 'boolean') return new Stop(value, value ? ['true', 'false'] : ['false', 'true']);
  return new Stop(value);
}

/** A valid value from the catalog alone. */
function derive(field: FieldDef): SampleLeaf {
  if (field.enumeration) return getEnumeration(field.enumeration).values[0];
  if (field.suggestions?.length) return field.suggestions[0];
  if (field.format) return FORMAT_SAMPLES[field.format];
  switch (field.type) {
    case 'int':
    case 'float':
      return 1;
    case 'decimal':
      return 0;
    case 'boolean':
      return false;
    case 'dateTime':
      return `${SAMPLE_DATE.iso}T00:00:00`;
    default:
      return field.name;
  }
}
