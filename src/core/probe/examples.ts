/**
 * The requests `carrier probe` sends (docs/probe.md), made from the catalog: a shape's generated
 * sample (generate/samples.ts) varied along what the catalog says of each field — valid
 * variations (every enumeration value, optional parts present and absent, lists of 0, 1 and many,
 * numbers at boundaries) and invalid mutations that break exactly one rule each.
 *
 * fast-check draws the examples: seeded, so one seed gives one sequence of examples, and a valid
 * example is a small set of variations that shrinks towards the sample itself.
 */
import fc from 'fast-check';
import { getEnumeration, getRecord, parametersRecord, type Binding, type FieldDef, type OperationDef, type RecordDef } from '../catalog';
import { plain, sampleParams } from '../generate/samples';
import { SAMPLE_DATE } from '../generate/sampleValues';
import type { Environment } from '../environments/types';
import { runVariables } from '../requestFile/runVariables';

/** Operations that create something on the service: each send books a shipment or a pickup. */
export const CREATING_OPERATIONS: readonly string[] = ['CreateBillOfLading', 'CreatePickupRequest'];

/**
 * Whether a probe may send the creating operations to `environment`: an embedded sandbox, or a
 * service its file marks `"probe": true` (docs/probe.md); never one someone else may rely on.
 */
export function creatingAllowed(environment: Pick<Environment, 'embedded' | 'probe'>): boolean {
  return environment.embedded || environment.probe === true;
}

export type JsonPathSegment = string | number;

/** One change to the sample's params: set a value at a path, or delete the element there. */
export interface Change {
  readonly path: readonly JsonPathSegment[];
  /** Undefined: the element is left out. */
  readonly value?: unknown;
  /** A few words for reports: `Accessorials = [OriginLiftgate]`. */
  readonly label: string;
}

export type RuleBroken = 'missing-required' | 'not-in-enumeration' | 'not-of-type' | 'impossible-date' | 'wrong-binding';

/** A mutation that breaks exactly one rule of the contract. */
export interface Mutation extends Change {
  readonly rule: RuleBroken;
  /** The element (or `binding`) the service's refusal should name. */
  readonly field: string;
  /** For `wrong-binding`: the binding the operation does not offer. */
  readonly binding?: Binding;
  /** For a record left out: the names inside it, any of which a refusal may name instead. */
  readonly inside?: readonly string[];
}

export interface ProbeExample {
  readonly kind: 'valid' | 'invalid';
  readonly operation: string;
  readonly version: string;
  readonly binding: Binding;
  readonly params: Record<string, unknown>;
  /** The changes made to the sample, in order (valid), or the one mutation (invalid). */
  readonly changes: readonly Change[];
  readonly mutation?: Mutation;
}

/** Lists of "many" repeat the sample's item this many times. */
const MANY = 3;
/** Numbers at the boundaries: nothing, one, and large but within what a shipment can be. */
const NUMBER_BOUNDARIES: readonly number[] = [0, 1, 9999];
/** Valid examples combine at most this many variations: enough to meet, small enough to read. */
const MAX_COMBINED = 3;
const NOT_IN_ENUMERATION = 'NotAValueOfProbe';
const NOT_OF_TYPE: Partial<Record<FieldDef['type'], string>> = { int: 'abc', float: 'abc', decimal: 'abc', boolean: 'maybe' };
const IMPOSSIBLE_DATE_TIME = '2026-02-30T00:00:00';
/** What .NET binds as a default when it is missing: an enumeration, a number, a boolean, a date. */
const VALUE_TYPES: ReadonlySet<FieldDef['type']> = new Set(['int', 'float', 'decimal', 'boolean', 'dateTime']);
/**
 * An identifier (`billOfLadingId`, a BolID) names something the service keeps: the sample's names
 * one that exists, and another number one that does not, which the service refuses by design.
 */
const isIdentifier = (field: FieldDef) => /(?:Id|ID)$/.test(field.name);
/**
 * Numbers varied to 0, 1 and 9999: amounts, weights and dimensions, and optional counts. The
 * catalog gives no ranges, so a required whole number (a label's start position, a count of
 * labels) and an identifier keep the sample's value: another would break a rule the catalog
 * cannot say, and the refusal would be right.
 */
const takesBoundaries = (field: FieldDef) =>
  (field.type === 'float' || field.type === 'decimal' || (field.type === 'int' && !field.required)) && !isIdentifier(field);
const IMPOSSIBLE_US_DATE = '02/30/2026';

interface Site {
  readonly field: FieldDef;
  readonly path: readonly JsonPathSegment[];
  readonly value: unknown;
}

/**
 * Every field the sample reaches, with its path and the sample's value (undefined: not in the
 * sample). A loop over a stack of records, not a recursion: a record's depth costs no call stack.
 */
function sitesOf(op: OperationDef, sample: Record<string, unknown>): Site[] {
  const out: Site[] = [];
  const stack: Array<{ record: RecordDef; value: Record<string, unknown>; path: readonly JsonPathSegment[] }> = [
    { record: parametersRecord(op), value: sample, path: [] },
  ];
  while (stack.length) {
    const { record, value, path } = stack.pop()!;
    for (const field of record.fields) {
      if (field.secret) continue;
      const at = [...path, field.name];
      const v = value[field.name];
      out.push({ field, path: at, value: v });
      if (field.type !== 'record' || !field.record) continue;
      const inner = getRecord(field.record);
      if (inner.open) continue;
      if (field.list) {
        if (Array.isArray(v) && isObject(v[0])) stack.push({ record: inner, value: v[0], path: [...at, 0] });
      } else if (isObject(v)) stack.push({ record: inner, value: v, path: at });
    }
  }
  return out;
}

/** Every field name inside a record, at any depth: the catalog's records, walked with a stack, each once. */
function namesUnder(record: RecordDef): string[] {
  const names = new Set<string>();
  const seen = new Set<string>([record.name]);
  const stack = [record];
  while (stack.length) {
    for (const f of stack.pop()!.fields) {
      names.add(f.name);
      if (f.list) names.add(f.list);
      if (f.record && !seen.has(f.record)) {
        seen.add(f.record);
        stack.push(getRecord(f.record));
      }
    }
  }
  return [...names];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const dotted = (path: readonly JsonPathSegment[]) => path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join('');

/** A simple value of the field's kind for an optional field the sample leaves out; undefined when none is safe. */
function simpleValue(field: FieldDef): unknown {
  if (field.enumeration) return getEnumeration(field.enumeration).values[0];
  if (field.suggestions?.length) return field.suggestions[0];
  switch (field.type) {
    case 'int':
    case 'float':
    case 'decimal':
      return 1;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

/** Valid variations of the sample, along the catalog. */
export function variationsOf(op: OperationDef, sample: Record<string, unknown>): Change[] {
  const out: Change[] = [];
  for (const { field, path, value } of sitesOf(op, sample)) {
    const name = dotted(path);
    const present = value !== undefined;
    if (field.list) {
      if (Array.isArray(value) && value.length) {
        out.push({ path, value: [], label: `${name} = []` });
        out.push({ path, value: [value[0]], label: `${name} = 1 item` });
        out.push({ path, value: Array.from({ length: MANY }, () => value[0]), label: `${name} = ${MANY} items` });
      }
      if (field.enumeration && field.type !== 'record')
        for (const v of getEnumeration(field.enumeration).values) out.push({ path, value: [v], label: `${name} = [${v}]` });
    } else if (field.type !== 'record') {
      if (field.enumeration) {
        for (const v of getEnumeration(field.enumeration).values) if (v !== value) out.push({ path, value: v, label: `${name} = ${v}` });
      } else if (present && takesBoundaries(field)) {
        for (const n of NUMBER_BOUNDARIES) out.push({ path, value: n, label: `${name} = ${n}` });
      } else if (present && field.type === 'boolean') out.push({ path, value: !value, label: `${name} = ${String(!value)}` });
    }
    if (!field.required) {
      if (present) out.push({ path, label: `${name} left out` });
      else if (!field.list && field.type !== 'record') {
        const v = simpleValue(field);
        if (v !== undefined) out.push({ path, value: v, label: `${name} = ${show(v)}` });
      }
    }
  }
  return out;
}

/**
 * Invalid mutations of the sample, each breaking exactly one rule. Too-long strings are not among
 * them: field lengths live only in the sandbox (src/sandbox/carrier/limits.ts), not in the catalog.
 */
export function mutationsOf(op: OperationDef, sample: Record<string, unknown>): Mutation[] {
  const out: Mutation[] = [];
  for (const { field, path, value } of sitesOf(op, sample)) {
    const name = dotted(path);
    const present = value !== undefined;
    // A .NET service binds a missing value type as its default (docs/carrier-facts.md#leniency): only a
    // string, a record or a list left out is a request the service can tell is missing something.
    if (field.required && present && !VALUE_TYPES.has(field.type) && !(field.enumeration && !field.list)) {
      // A list left out may be refused by its item's name ("at least one Item").
      const inside = [...(field.list ? [field.list] : []), ...(field.type === 'record' && field.record ? namesUnder(getRecord(field.record)) : [])];
      out.push({ rule: 'missing-required', field: field.name, path, label: `${name} left out (required)`, ...(inside.length ? { inside } : {}) });
    }
    if (!present) continue;
    if (field.enumeration && field.type !== 'record') {
      const v = field.list ? [NOT_IN_ENUMERATION] : NOT_IN_ENUMERATION;
      out.push({ rule: 'not-in-enumeration', field: field.name, path, value: v, label: `${name} = ${show(v)} (not in ${field.enumeration})` });
    }
    if (field.list) continue;
    const wrong = NOT_OF_TYPE[field.type];
    if (wrong !== undefined) out.push({ rule: 'not-of-type', field: field.name, path, value: wrong, label: `${name} = ${wrong} (not ${field.type})` });
    if (field.type === 'dateTime')
      out.push({ rule: 'impossible-date', field: field.name, path, value: IMPOSSIBLE_DATE_TIME, label: `${name} = ${IMPOSSIBLE_DATE_TIME}` });
    else if (field.format === 'MM/DD/YYYY')
      out.push({ rule: 'impossible-date', field: field.name, path, value: IMPOSSIBLE_US_DATE, label: `${name} = ${IMPOSSIBLE_US_DATE}` });
  }
  for (const binding of ['get', 'post'] as const)
    if (!op.bindings.includes(binding))
      out.push({ rule: 'wrong-binding', field: 'binding', binding, path: [], label: `sent over HTTP ${binding.toUpperCase()}, which it does not offer` });
  return out;
}

/** The params with one change made; a change under a part an earlier change removed is skipped. */
export function applyChange(params: Record<string, unknown>, change: Change): void {
  if (!change.path.length) return;
  let at: unknown = params;
  for (const segment of change.path.slice(0, -1)) {
    at = (at as Record<string | number, unknown> | undefined)?.[segment];
    if (at === null || typeof at !== 'object') return;
  }
  const last = change.path[change.path.length - 1];
  const holder = at as Record<string | number, unknown>;
  if (change.value === undefined) {
    if (Array.isArray(holder) && typeof last === 'number') holder.splice(last, 1);
    else delete holder[last];
  } else holder[last] = structuredClone(change.value);
}

export interface ShapeArbitraries {
  readonly valid: fc.Arbitrary<ProbeExample>;
  /** Undefined when the shape has nothing to break. */
  readonly invalid?: fc.Arbitrary<ProbeExample>;
  /**
   * Each variation alone, then each mutation alone, in catalog order: tried before the drawn
   * examples (fast-check's `examples`), so a small budget still meets every enumeration value and
   * every rule rather than what chance picks.
   */
  readonly validFirst: readonly ProbeExample[];
  readonly invalidFirst: readonly ProbeExample[];
}

/** A day the carrier picks up, in the two spellings the catalog's dates take. */
export interface PickupDay {
  /** MM/DD/YYYY */
  readonly us: string;
  /** YYYY-MM-DD */
  readonly iso: string;
}

/** The next day the carrier picks up after `now` ({{run.nextBusinessDay}}), in both spellings. */
export function nextPickupDay(now: Date): PickupDay {
  const us = runVariables(now, 'probe')['run.nextBusinessDay'];
  return { us, iso: `${us.slice(6, 10)}-${us.slice(0, 2)}-${us.slice(3, 5)}` };
}

/** The sample's params with its fixed day (SAMPLE_DATE, kept so generated files stay stable) moved to `day`. */
function onDay(sample: Record<string, unknown>, day: PickupDay | undefined): Record<string, unknown> {
  if (!day) return sample;
  const stack: Array<Record<string, unknown> | unknown[]> = [sample];
  while (stack.length) {
    const at = stack.pop()!;
    for (const [k, v] of Object.entries(at)) {
      if (typeof v === 'string') {
        if (v === SAMPLE_DATE.us) (at as Record<string, unknown>)[k] = day.us;
        else if (v.startsWith(SAMPLE_DATE.iso)) (at as Record<string, unknown>)[k] = day.iso + v.slice(SAMPLE_DATE.iso.length);
      } else if (v !== null && typeof v === 'object') stack.push(v as Record<string, unknown> | unknown[]);
    }
  }
  return sample;
}

/**
 * The arbitraries of one shape over one binding. `day`: the pickup day the examples ask for; the
 * sample's own day is in the past once it has gone by, and a request for a past pickup is refused
 * for that alone, whatever else it breaks.
 */
export function shapeArbitraries(op: OperationDef, binding: Binding, day?: PickupDay): ShapeArbitraries {
  const sample = onDay(plain(sampleParams(op)) as Record<string, unknown>, day);
  const variations = variationsOf(op, sample);
  const mutations = mutationsOf(op, sample);
  const made = (kind: ProbeExample['kind'], changes: readonly Change[], mutation?: Mutation): ProbeExample => {
    const params = structuredClone(sample);
    for (const c of changes) applyChange(params, c);
    return {
      kind,
      operation: op.operation,
      version: op.version,
      binding: mutation?.binding ?? binding,
      params,
      changes,
      ...(mutation ? { mutation } : {}),
    };
  };
  const valid = fc.subarray(variations, { maxLength: Math.min(MAX_COMBINED, variations.length) }).map((changes) => made('valid', changes));
  // An invalid example is already as small as it gets (one rule broken on the sample): shrinking
  // it would only swap the rule for another.
  const invalid = mutations.length ? fc.noShrink(fc.constantFrom(...mutations)).map((m) => made('invalid', [m], m)) : undefined;
  return {
    valid,
    ...(invalid ? { invalid } : {}),
    validFirst: variations.map((v) => made('valid', [v])),
    invalidFirst: mutations.map((m) => made('invalid', [m], m)),
  };
}

/** The seed of one shape, binding and kind under a probe's seed: each draws its own sequence, and the same one every time. */
export function seedFor(seed: number, ...parts: string[]): number {
  let h = seed | 0;
  for (const ch of parts.join('\u0000')) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

/** Of `runs` examples, how many are the listed ones: at most three quarters, so some are always drawn. */
export function firstCount(runs: number, listed: number): number {
  return Math.min(listed, runs - Math.floor(runs / 4));
}

/** The examples a probe tries for a shape, listed then drawn (no shrinking): what `--seed` makes reproducible. */
export function probeExamples(op: OperationDef, binding: Binding, seed: number, count: number, day?: PickupDay): ProbeExample[] {
  const arbs = shapeArbitraries(op, binding, day);
  const label = `${op.operation}@${op.version}/${binding}`;
  const of = (kind: 'valid' | 'invalid', arb: fc.Arbitrary<ProbeExample> | undefined, first: readonly ProbeExample[]) => {
    if (!arb) return [];
    const listed = firstCount(count, first.length);
    return [...first.slice(0, listed), ...fc.sample(arb, { seed: seedFor(seed, label, kind), numRuns: count - listed })];
  };
  return [...of('valid', arbs.valid, arbs.validFirst), ...of('invalid', arbs.invalid, arbs.invalidFirst)];
}
