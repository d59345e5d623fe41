/**
 * Reads XML content along the catalog into plain JSON: element names as keys, lists as arrays
 * (even with one item), ints/floats/booleans typed, decimals as exact strings, xsi:nil as null.
 * Nothing is dropped silently: elements the catalog does not know are kept (read generically)
 * and reported as issues. Requests read by the sandbox treat an element outside its namespace
 * as absent, as .NET does; replies read by the workbench keep it and say so.
 */
import { XSI_NS, elementNs, getRecord, listItemNs, type Namespaces } from '../catalog';
import type { FieldDef, NamespaceRole, RecordDef } from '../catalog/types';
import { attr, type XmlElement } from './dom';
import { fromXsdText } from './values';

export interface ReadIssue {
  /** `order`: a field met after one the record lists later (XmlSerializer skips such a field). */
  readonly kind: 'namespace' | 'unknown' | 'type' | 'repeated' | 'order';
  readonly path: string;
  readonly message: string;
  /** For `unknown`: the record it was met in and its name, so a stored live contract that adds it can know it. */
  readonly record?: string;
  readonly element?: string;
}

export interface ReadOptions {
  readonly namespaces: Namespaces;
  readonly outOfNamespace: 'absent' | 'keep';
  readonly issues: ReadIssue[];
  /**
   * Items of a list container already read while the document was parsed (reply/listItems.ts);
   * the container's remaining children, if any, are read after them.
   */
  readonly preRead?: ReadonlyMap<XmlElement, unknown[]>;
}

export type JsonObject = Record<string, unknown>;

const fieldIndex = new WeakMap<RecordDef, Map<string, FieldDef>>();
function fieldsByName(record: RecordDef): Map<string, FieldDef> {
  let m = fieldIndex.get(record);
  if (!m) fieldIndex.set(record, (m = new Map(record.fields.map((f) => [f.name, f]))));
  return m;
}

/** Each field's place in its record's sequence, for the order check. */
const fieldPlaces = new WeakMap<readonly FieldDef[], Map<string, number>>();
function placesOf(fields: readonly FieldDef[]): Map<string, number> {
  let m = fieldPlaces.get(fields);
  if (!m) fieldPlaces.set(fields, (m = new Map(fields.map((f, i) => [f.name, i]))));
  return m;
}

export const joinPath = (path: string, name: string) => (path ? `${path}.${name}` : name);

export function isNil(el: XmlElement): boolean {
  // Most elements have no attributes at all: no search, no closure, for them.
  if (!el.attrs.length) return false;
  const v = attr(el, XSI_NS, 'nil');
  return v === 'true' || v === '1';
}

function nsLabel(uri: string): string {
  return uri ? `namespace ${uri}` : 'no namespace';
}

/** Reads the children of `el` as the fields of `record` (an open record generically). */
export function readRecord(el: XmlElement, record: RecordDef, path: string, opts: ReadOptions): JsonObject {
  if (record.open) {
    const g = readGeneric(el);
    return g !== null && typeof g === 'object' && !Array.isArray(g) ? (g as JsonObject) : g === '' ? {} : { '#text': g };
  }
  return readFields(el, record.fields, record.ns, path, opts, record);
}

/** Reads the children of `el` as `fields` whose parent content is in `parentNs`. */
export function readFields(
  el: XmlElement,
  fields: readonly FieldDef[],
  parentNs: NamespaceRole,
  path: string,
  opts: ReadOptions,
  record?: RecordDef,
): JsonObject {
  const byName = record ? fieldsByName(record) : new Map(fields.map((f) => [f.name, f]));
  const places = placesOf(fields);
  const out = new RepeatingObject();
  // The latest place met so far, and its name: a field met after a later one is out of order.
  let latest = -1;
  let latestName = '';
  for (const child of el.children) {
    const childPath = joinPath(path, child.local);
    const field = byName.get(child.local);
    if (!field) {
      opts.issues.push({
        kind: 'unknown',
        path: childPath,
        message: `${childPath} is not in the contract here; kept as received`,
        ...(record ? { record: record.name } : {}),
        element: child.local,
      });
      out.put(child.local, readGeneric(child));
      continue;
    }
    const place = places.get(field.name)!;
    if (place < latest) {
      opts.issues.push({ kind: 'order', path: childPath, message: `${childPath} comes after ${latestName}; the contract puts it before` });
    } else if (place > latest) {
      latest = place;
      latestName = field.name;
    }
    const expected = opts.namespaces[elementNs(field, parentNs)];
    if (child.ns !== expected) {
      opts.issues.push({
        kind: 'namespace',
        path: childPath,
        message: `${childPath} is in ${nsLabel(child.ns)}; the contract puts it in ${nsLabel(expected)}${opts.outOfNamespace === 'absent' ? ', so it is treated as absent' : ''}`,
      });
      if (opts.outOfNamespace === 'absent') continue;
    }
    // A single field that arrives twice: keep both rather than lose one.
    if (out.put(field.name, readField(child, field, parentNs, childPath, opts))) {
      opts.issues.push({ kind: 'repeated', path: childPath, message: `${childPath} appears more than once; all occurrences kept` });
    }
  }
  return out.value;
}

/** Collects children by name; a name seen again turns into an array of all its values. */
class RepeatingObject {
  readonly value: JsonObject = {};
  /** Made on the first repeat only: one per object read would be most of the garbage. */
  private repeated: Set<string> | undefined;
  /** Returns true when the key was already there. */
  put(key: string, v: unknown): boolean {
    if (!(key in this.value)) {
      this.value[key] = v;
      return false;
    }
    if (this.repeated?.has(key)) (this.value[key] as unknown[]).push(v);
    else {
      this.value[key] = [this.value[key], v];
      (this.repeated ??= new Set()).add(key);
    }
    return true;
  }
}

export function readField(child: XmlElement, field: FieldDef, parentNs: NamespaceRole, path: string, opts: ReadOptions): unknown {
  if (isNil(child)) return null;
  if (field.list) return readList(child, field, parentNs, path, opts);
  if (field.record) return readRecord(child, getRecord(field.record), path, opts);
  return readSimple(child, field, path, opts);
}

function readList(container: XmlElement, field: FieldDef, parentNs: NamespaceRole, path: string, opts: ReadOptions): unknown[] {
  const itemUri = opts.namespaces[listItemNs(field, parentNs)];
  const items: unknown[] = opts.preRead?.get(container) ?? [];
  for (const item of container.children) readListItem(item, field, itemUri, path, opts, items);
  return items;
}

/** One item of the list `field` at `path`, added to `items` (or left out, as its namespace says). */
export function readListItem(item: XmlElement, field: FieldDef, itemUri: string, path: string, opts: ReadOptions, items: unknown[]): void {
  const itemPath = `${path}[${items.length}]`;
  if (item.local !== field.list) {
    opts.issues.push({
      kind: 'unknown',
      path: itemPath,
      message: `${itemPath} is a <${item.local}>; the contract lists <${field.list}> items here; kept as received`,
    });
    items.push(readGeneric(item));
    return;
  }
  if (item.ns !== itemUri) {
    opts.issues.push({
      kind: 'namespace',
      path: itemPath,
      message: `${itemPath} is in ${nsLabel(item.ns)}; the contract puts it in ${nsLabel(itemUri)}${opts.outOfNamespace === 'absent' ? ', so it is treated as absent' : ''}`,
    });
    if (opts.outOfNamespace === 'absent') return;
  }
  if (isNil(item)) items.push(null);
  else if (field.record) items.push(readRecord(item, getRecord(field.record), itemPath, opts));
  else items.push(readSimple(item, field, itemPath, opts));
}

function readSimple(el: XmlElement, field: FieldDef, path: string, opts: ReadOptions): unknown {
  if (el.children.length) {
    opts.issues.push({ kind: 'type', path, message: `${path} should hold a ${field.type} value but holds elements; kept as received` });
    return readGeneric(el);
  }
  // A string is its text, whatever it holds: no reading, no problem to report.
  if (field.type === 'string' || field.type === 'record') return el.text;
  const r = fromXsdText(field.type, el.text);
  if (r.problem) opts.issues.push({ kind: 'type', path, message: `${path}: ${r.problem}; kept as text` });
  return r.value;
}

/**
 * Reads an element the catalog does not describe: text for a leaf, an object of children
 * otherwise (repeated names become arrays); attributes other than namespace machinery are kept
 * under "@name". Unknown content is whatever the server sent, nested as deep as the parser lets
 * it (MAX_DEPTH in parser.ts), so it is walked with a stack of its own rather than the call stack.
 * An object is put in its parent when its element is reached and filled afterwards: the parent's
 * keys keep document order.
 */
export function readGeneric(el: XmlElement): unknown {
  const value = genericLeaf(el);
  if (value !== BRANCH) return value;
  const root = genericBranch(el);
  const stack: GenericFrame[] = [root];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.next === top.children.length) {
      stack.pop();
      continue;
    }
    const child = top.children[top.next++];
    const leaf = genericLeaf(child);
    if (leaf !== BRANCH) {
      top.out.put(child.local, leaf);
      continue;
    }
    const frame = genericBranch(child);
    top.out.put(child.local, frame.out.value);
    stack.push(frame);
  }
  return root.out.value;
}

interface GenericFrame {
  readonly children: readonly XmlElement[];
  readonly out: RepeatingObject;
  next: number;
}

/** Marks an element whose value is an object with children still to read. */
const BRANCH = Symbol('branch');

const ownAttrs = (el: XmlElement) => (el.attrs.length ? el.attrs.filter((a) => a.ns !== XSI_NS) : el.attrs);

/** The value of an element that needs no walking (nil, text, attributes with text), or BRANCH. */
function genericLeaf(el: XmlElement): unknown {
  if (isNil(el)) return null;
  if (el.children.length) return BRANCH;
  const attrs = ownAttrs(el);
  if (!attrs.length) return el.text;
  const out = new RepeatingObject();
  for (const a of attrs) out.put(`@${a.local}`, a.value);
  out.put('#text', el.text);
  return out.value;
}

function genericBranch(el: XmlElement): GenericFrame {
  const out = new RepeatingObject();
  for (const a of ownAttrs(el)) out.put(`@${a.local}`, a.value);
  return { children: el.children, out, next: 0 };
}
