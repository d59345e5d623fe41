/**
 * The common case of reading a record (read.ts), compiled once per record: every child a field
 * of the record, in the namespace the catalog puts it, once, without attributes, its value of its
 * type. A function generated per record names each field in its own property store, where the
 * general reader stores by a changing key (one store site for every field of every record, which
 * V8 cannot specialise) and looks each child up in a map: the catalog reads a rate quote's reply
 * in about half the time.
 *
 * Anything else — an element the record does not know, another namespace, a repeat, a field
 * after one the record lists later, xsi:nil or
 * any attribute, a value not of its type, a list read while the document was parsed — makes the
 * compiled reader give up on that record (COMMON_CASE_LEFT), and read.ts reads it the general way,
 * from its start, with the issues it reports. A record inside one read here that is not the common
 * case is read the general way by itself. The result is the general reader's, key for key and in
 * the same order (test/unit/reply-read-compiled.test.ts holds the two side by side).
 */
import { getRecord, listItemNs } from '../catalog';
import type { FieldDef, RecordDef } from '../catalog/types';
import type { XmlElement } from './dom';
import { fromXsdText } from './values';
import { joinPath, type JsonObject, type ReadOptions } from './read';

/** A record that is not the common case: read it the general way. */
export const COMMON_CASE_LEFT = Symbol('common case left');

type Left = typeof COMMON_CASE_LEFT;
export type CompiledRead = (el: XmlElement, path: string, opts: ReadOptions) => JsonObject | Left;

/** The general reader of one record, for a record met inside one read here. */
export type RecordReader = (el: XmlElement, record: RecordDef, path: string, opts: ReadOptions) => JsonObject;

const compiled = new WeakMap<RecordDef, CompiledRead>();

/** The compiled reader of `record` (not an open one); `general` reads what it leaves. */
export function compiledReader(record: RecordDef, general: RecordReader): CompiledRead {
  let read = compiled.get(record);
  if (!read) compiled.set(record, (read = compile(record, general)));
  return read;
}

/** A simple value of its type, or COMMON_CASE_LEFT for elements inside it or text not of the type. */
function simple(field: FieldDef, el: XmlElement): unknown {
  if (el.children.length) return COMMON_CASE_LEFT;
  if (field.type === 'string' || field.type === 'record') return el.text;
  const r = fromXsdText(field.type, el.text);
  return r.problem ? COMMON_CASE_LEFT : r.value;
}

function compile(record: RecordDef, general: RecordReader): CompiledRead {
  const fields = record.fields;
  /** A nested record: compiled when common, else read the general way by itself. */
  const nested = (el: XmlElement, inner: RecordDef, path: string, opts: ReadOptions): JsonObject => {
    if (inner.open || el.attrs.length) return general(el, inner, path, opts);
    const mark = opts.issues.length;
    const v = compiledReader(inner, general)(el, path, opts);
    if (v !== COMMON_CASE_LEFT) return v;
    opts.issues.length = mark;
    return general(el, inner, path, opts);
  };
  const list = (container: XmlElement, field: FieldDef, path: string, opts: ReadOptions): unknown => {
    if (opts.preRead?.has(container)) return COMMON_CASE_LEFT;
    const itemUri = opts.namespaces[listItemNs(field, record.ns)];
    const inner = field.record ? getRecord(field.record) : undefined;
    const children = container.children;
    const items: unknown[] = [];
    for (let i = 0; i < children.length; i++) {
      const item = children[i];
      if (item.local !== field.list || item.ns !== itemUri || item.attrs.length) return COMMON_CASE_LEFT;
      if (inner) items.push(nested(item, inner, `${path}[${i}]`, opts));
      else {
        const v = simple(field, item);
        if (v === COMMON_CASE_LEFT) return COMMON_CASE_LEFT;
        items.push(v);
      }
    }
    return items;
  };
  // Names come from the catalog and are written as JSON string literals, never as code.
  const cases = fields.map((f, n) => {
    const key = JSON.stringify(f.name);
    const ns = JSON.stringify(f.ns ?? record.ns);
    const value = f.list ? `h.list(c, F[${n}], h.joinPath(path, ${key}), opts)`
      : f.record ? `h.nested(c, R[${n}], h.joinPath(path, ${key}), opts)`
      : `h.simple(F[${n}], c)`;
    return `case ${key}: {
        if (c.ns !== ns[${ns}] || c.attrs.length !== 0 || ${key} in out || ${n} < last) return LEFT;
        last = ${n};
        const v = ${value};
        if (v === LEFT) return LEFT;
        out[${key}] = v;
        break;
      }`;
  });
  const source = `return function read(el, path, opts) {
    const ns = opts.namespaces;
    const out = {};
    let last = -1;
    const children = el.children;
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      switch (c.local) {
        ${cases.join('\n        ')}
        default: return LEFT;
      }
    }
    return out;
  };`;
  const records = fields.map((f) => (f.record && !f.list ? getRecord(f.record) : undefined));
  return new Function('h', 'F', 'R', 'LEFT', source)({ list, nested, simple, joinPath }, fields, records, COMMON_CASE_LEFT) as CompiledRead;
}
