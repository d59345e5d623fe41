/**
 * Writes JSON values as XML along the catalog: element order from the catalog (never from JSON
 * key order), each element in its namespace, absent values left out, null as xsi:nil, lists as
 * a container of items. Keys the catalog does not know are written after the known ones rather
 * than dropped, so what a person wrote is what goes on the wire (the validator flags them).
 */
import { XSI_NS, elementNs, getRecord, listItemNs, type Namespaces } from '../catalog';
import type { FieldDef, NamespaceRole, RecordDef } from '../catalog/types';
import { toXsdText, ValueError } from './values';

export type PathSegment = string | number;

/** An element being built (builder.ts's XmlNode): all the writer asks of it. */
export interface XmlSink {
  ele(ns: string, qname: string): XmlSink;
  att(ns: string, qname: string, value: string): XmlSink;
  att(name: string, value: string): XmlSink;
  txt(text: string): XmlSink;
}

export interface WriteOptions {
  readonly namespaces: Namespaces;
  /** Source text of a JSON number literal at this path, when known (keeps `48.00` as written). */
  readonly rawNumber?: (path: readonly PathSegment[]) => string | undefined;
  /** Write a scalar that is not of its field's type as written instead of refusing it ("Send anyway"). */
  readonly asWritten?: boolean;
}

/** How scalars are spelled: the envelope writer's and the HTTP bindings' shared options. */
export type ScalarOptions = Pick<WriteOptions, 'rawNumber' | 'asWritten'>;

export function formatPath(path: readonly PathSegment[]): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : s ? `.${seg}` : seg;
  return s;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function nil(el: XmlSink): void {
  el.att(XSI_NS, 'xsi:nil', 'true');
}

/** Writes `value`'s fields, in catalog order, as children of `parent`. */
export function writeFields(parent: XmlSink, fields: readonly FieldDef[], parentNs: NamespaceRole, value: Record<string, unknown>, path: readonly PathSegment[], opts: WriteOptions): void {
  const known = new Set<string>();
  for (const field of fields) {
    known.add(field.name);
    const v = value[field.name];
    if (v === undefined) continue;
    const el = parent.ele(opts.namespaces[elementNs(field, parentNs)], field.name);
    writeField(el, field, parentNs, v, [...path, field.name], opts);
  }
  for (const [key, v] of Object.entries(value)) {
    if (known.has(key) || v === undefined) continue;
    writeGeneric(parent.ele(opts.namespaces[parentNs], key), opts.namespaces[parentNs], v);
  }
}

export function writeRecord(el: XmlSink, record: RecordDef, value: unknown, path: readonly PathSegment[], opts: WriteOptions): void {
  if (value === null) return nil(el);
  if (record.open) return writeGeneric(el, opts.namespaces[record.ns], value);
  if (!isObject(value)) throw new ValueError(formatPath(path), `expected an object (${record.name}), got ${JSON.stringify(value)}`);
  writeFields(el, record.fields, record.ns, value, path, opts);
}

function writeField(el: XmlSink, field: FieldDef, parentNs: NamespaceRole, v: unknown, path: readonly PathSegment[], opts: WriteOptions): void {
  if (v === null) return nil(el);
  if (field.list) {
    if (!Array.isArray(v)) throw new ValueError(formatPath(path), `expected an array of ${field.list} items, got ${JSON.stringify(v)}`);
    const itemUri = opts.namespaces[listItemNs(field, parentNs)];
    v.forEach((item, i) => {
      const itemEl = el.ele(itemUri, field.list!);
      const itemPath = [...path, i];
      if (item === null) nil(itemEl);
      else if (field.record) writeRecord(itemEl, getRecord(field.record), item, itemPath, opts);
      else writeText(itemEl, field, item, itemPath, opts);
    });
    return;
  }
  if (field.record) return writeRecord(el, getRecord(field.record), v, path, opts);
  writeText(el, field, v, path, opts);
}

function writeText(el: XmlSink, field: FieldDef, v: unknown, path: readonly PathSegment[], opts: WriteOptions): void {
  const text = toXsdText(field.type === 'record' ? 'string' : field.type, v, formatPath(path), typeof v === 'number' ? opts.rawNumber?.(path) : undefined, opts.asWritten);
  if (text !== '') el.txt(text);
}

/** Content the catalog does not describe: objects become children, arrays repeat, "@x" are attributes. */
export function writeGeneric(el: XmlSink, uri: string, v: unknown): void {
  if (v === null) return nil(el);
  if (!isObject(v)) {
    if (Array.isArray(v)) { for (const item of v) writeGeneric(el.ele(uri, 'item'), uri, item); return; }
    const text = String(v);
    if (text !== '') el.txt(text);
    return;
  }
  for (const [key, child] of Object.entries(v)) {
    if (key === '#text') { if (child !== '' && child !== null && child !== undefined) el.txt(String(child)); continue; }
    if (key.startsWith('@')) { el.att(key.slice(1), String(child)); continue; }
    for (const item of Array.isArray(child) ? child : [child]) writeGeneric(el.ele(uri, key), uri, item);
  }
}
