/**
 * Writes JSON values as XML along the catalog: element order from the catalog (never from JSON
 * key order), each element in its namespace, absent values left out, null as xsi:nil, lists as
 * a container of items. Keys the catalog does not know are written after the known ones rather
 * than dropped, so what a person wrote is what goes on the wire (the validator flags them).
 */
import { XSI_NS, elementNs, getRecord, listItemNs, type Namespaces } from '../catalog';
import type { FieldDef, NamespaceRole, RecordDef } from '../catalog/types';
import { formatPath, type PathSegment } from '../path';
import { notOfType, ValueError, xsdText } from './values';

export { formatPath, type PathSegment } from '../path';

/** An element being built (builder.ts's XmlNode): all the writer asks of it. */
export interface XmlSink {
  ele(ns: string, qname: string): XmlSink;
  att(ns: string, qname: string, value: string): XmlSink;
  att(name: string, value: string): XmlSink;
  txt(text: string): XmlSink;
}

export interface WriteOptions {
  readonly namespaces: Namespaces;
  /**
   * Source text of a JSON number literal at this path, when known (keeps `48.00` as written).
   * The path is the walk's own, changed as it goes on: read it, do not keep it.
   */
  readonly rawNumber?: (path: readonly PathSegment[]) => string | undefined;
  /** Write a scalar that is not of its field's type as written instead of refusing it ("Send anyway"). */
  readonly asWritten?: boolean;
}

/** How scalars are spelled: the envelope writer's and the HTTP bindings' shared options. */
export type ScalarOptions = Pick<WriteOptions, 'rawNumber' | 'asWritten'>;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function nil(el: XmlSink): void {
  el.att(XSI_NS, 'xsi:nil', 'true');
}

/** The names of each record's fields, for telling the keys the catalog knows from the rest. */
const fieldNames = new WeakMap<readonly FieldDef[], ReadonlySet<string>>();
function namesOf(fields: readonly FieldDef[]): ReadonlySet<string> {
  let names = fieldNames.get(fields);
  if (names === undefined) fieldNames.set(fields, (names = new Set(fields.map((f) => f.name))));
  return names;
}

/** Writes `value`'s fields, in catalog order, as children of `parent`. */
export function writeFields(
  parent: XmlSink,
  fields: readonly FieldDef[],
  parentNs: NamespaceRole,
  value: Record<string, unknown>,
  path: readonly PathSegment[],
  opts: WriteOptions,
): void {
  fieldsAt(parent, fields, parentNs, value, [...path], opts);
}

export function writeRecord(el: XmlSink, record: RecordDef, value: unknown, path: readonly PathSegment[], opts: WriteOptions): void {
  recordAt(el, record, value, [...path], opts);
}

/*
 * The walk below keeps one path, a segment pushed before each child and popped after it, where
 * a copy per field was most of what writing an envelope allocated; it is read (for a number's
 * source text, or a message) only where it is needed. A throw leaves it unbalanced, and ends
 * the walk with it.
 */

function fieldsAt(
  parent: XmlSink,
  fields: readonly FieldDef[],
  parentNs: NamespaceRole,
  value: Record<string, unknown>,
  path: PathSegment[],
  opts: WriteOptions,
): void {
  let written = 0;
  for (const field of fields) {
    const v = value[field.name];
    if (v === undefined) continue;
    written++;
    const el = parent.ele(opts.namespaces[elementNs(field, parentNs)], field.name);
    path.push(field.name);
    fieldAt(el, field, parentNs, v, path, opts);
    path.pop();
  }
  const keys = Object.keys(value);
  // Every key a field: nothing the catalog does not know to write after them.
  if (keys.length === written) return;
  const names = namesOf(fields);
  for (const key of keys) {
    const v = value[key];
    if (names.has(key) || v === undefined) continue;
    writeGeneric(parent.ele(opts.namespaces[parentNs], key), opts.namespaces[parentNs], v);
  }
}

function recordAt(el: XmlSink, record: RecordDef, value: unknown, path: PathSegment[], opts: WriteOptions): void {
  if (value === null) return nil(el);
  if (record.open) return writeGeneric(el, opts.namespaces[record.ns], value);
  if (!isObject(value)) throw new ValueError(formatPath(path), `expected an object (${record.name}), got ${JSON.stringify(value)}`);
  fieldsAt(el, record.fields, record.ns, value, path, opts);
}

function fieldAt(el: XmlSink, field: FieldDef, parentNs: NamespaceRole, v: unknown, path: PathSegment[], opts: WriteOptions): void {
  if (v === null) return nil(el);
  if (field.list) {
    if (!Array.isArray(v)) throw new ValueError(formatPath(path), `expected an array of ${field.list} items, got ${JSON.stringify(v)}`);
    const itemUri = opts.namespaces[listItemNs(field, parentNs)];
    const record = field.record ? getRecord(field.record) : undefined;
    for (let i = 0; i < v.length; i++) {
      // A hole in a sparse array is no item, as forEach has it.
      if (!(i in v)) continue;
      const item: unknown = v[i];
      const itemEl = el.ele(itemUri, field.list);
      path.push(i);
      if (item === null) nil(itemEl);
      else if (record) recordAt(itemEl, record, item, path, opts);
      else textAt(itemEl, field, item, path, opts);
      path.pop();
    }
    return;
  }
  if (field.record) return recordAt(el, getRecord(field.record), v, path, opts);
  textAt(el, field, v, path, opts);
}

function textAt(el: XmlSink, field: FieldDef, v: unknown, path: readonly PathSegment[], opts: WriteOptions): void {
  const type = field.type === 'record' ? 'string' : field.type;
  const text = xsdText(type, v, typeof v === 'number' ? opts.rawNumber?.(path) : undefined, opts.asWritten);
  if (text === undefined) throw new ValueError(formatPath(path), notOfType(type, v));
  if (text !== '') el.txt(text);
}

/** Content the catalog does not describe: objects become children, arrays repeat, "@x" are attributes. */
export function writeGeneric(el: XmlSink, uri: string, v: unknown): void {
  if (v === null) return nil(el);
  if (!isObject(v)) {
    if (Array.isArray(v)) {
      for (const item of v) writeGeneric(el.ele(uri, 'item'), uri, item);
      return;
    }
    const text = String(v);
    if (text !== '') el.txt(text);
    return;
  }
  for (const [key, child] of Object.entries(v)) {
    if (key === '#text') {
      if (child !== '' && child !== null && child !== undefined) el.txt(String(child));
      continue;
    }
    if (key.startsWith('@')) {
      el.att(key.slice(1), String(child));
      continue;
    }
    for (const item of Array.isArray(child) ? child : [child]) writeGeneric(el.ele(uri, key), uri, item);
  }
}
