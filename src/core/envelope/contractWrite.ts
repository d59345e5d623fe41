/**
 * Writing a request along the catalog plus an environment's live contract: an element the live
 * service adds goes where its schema puts it (after the element it follows there), typed by its
 * XSD type; everything else is written by core's catalog writer, field by field, so both paths
 * spell values the same way. Only records on the way to an addition are walked here.
 */
import { elementNs, getRecord, listItemNs, XSI_NS, type FieldDef, type RecordDef, type XsdType } from '../catalog';
import type { ShapeOverlay } from '../contract/overlay';
import type { AddedElement } from '../contract/types';
import { isObject } from '../objects';
import { toXsdText } from '../xml/values';
import { formatPath, writeFields, writeGeneric, writeRecord, type PathSegment, type WriteOptions, type XmlSink } from '../xml/write';

type Entry = { readonly field: FieldDef } | { readonly added: AddedElement };

/** The XML Schema built-ins core's value writer spells directly; anything else is written as text. */
const SPELLED: Readonly<Record<string, XsdType>> = {
  int: 'int',
  long: 'int',
  short: 'int',
  byte: 'int',
  integer: 'int',
  unsignedInt: 'int',
  unsignedLong: 'int',
  unsignedShort: 'int',
  unsignedByte: 'int',
  float: 'float',
  double: 'float',
  decimal: 'decimal',
  boolean: 'boolean',
  dateTime: 'dateTime',
  base64Binary: 'base64Binary',
};

/** Catalog fields with the additions inserted after the element each follows in the live schema. */
function entriesOf(record: RecordDef, added: readonly AddedElement[]): Entry[] {
  const entries: Entry[] = record.fields.map((field) => ({ field }));
  const nameOf = (e: Entry) => ('field' in e ? e.field.name : e.added.name);
  for (const a of added) {
    const at = a.after === null ? -1 : entries.findIndex((e) => nameOf(e) === a.after);
    // Following an element the catalog lacks here: keep the live order among the additions at least.
    entries.splice(at < 0 && a.after !== null ? entries.length : at + 1, 0, { added: a });
  }
  return entries;
}

export class ContractWriter {
  private readonly reaches = new Map<string, boolean>();

  constructor(
    private readonly overlay: ShapeOverlay,
    private readonly opts: WriteOptions,
  ) {}

  /** Whether the record, or one below it, has an addition: otherwise the catalog writer does it all. */
  private reachesAddition(record: RecordDef, visiting = new Set<string>()): boolean {
    const known = this.reaches.get(record.name);
    if (known !== undefined) return known;
    if (visiting.has(record.name)) return false;
    visiting.add(record.name);
    const result =
      this.overlay.added(record.name).length > 0 || record.fields.some((f) => f.record !== undefined && this.reachesAddition(getRecord(f.record), visiting));
    this.reaches.set(record.name, result);
    return result;
  }

  record(el: XmlSink, record: RecordDef, value: unknown, path: readonly PathSegment[]): void {
    if (record.open || !isObject(value) || !this.reachesAddition(record)) return writeRecord(el, record, value, path, this.opts);
    const ns = this.opts.namespaces;
    const done = new Set<string>();
    for (const entry of entriesOf(record, this.overlay.added(record.name))) {
      if ('added' in entry) {
        done.add(entry.added.name);
        const v = value[entry.added.name];
        if (v !== undefined) this.added(el, entry.added, v, [...path, entry.added.name]);
        continue;
      }
      const field = entry.field;
      done.add(field.name);
      const v = value[field.name];
      if (v === undefined) continue;
      if (!field.record || v === null || !this.reachesAddition(getRecord(field.record))) {
        writeFields(el, [field], record.ns, { [field.name]: v }, path, this.opts);
        continue;
      }
      const inner = getRecord(field.record);
      const child = el.ele(ns[elementNs(field, record.ns)], field.name);
      const fieldPath = [...path, field.name];
      if (!field.list) {
        this.record(child, inner, v, fieldPath);
        continue;
      }
      if (!Array.isArray(v)) {
        writeFields(el, [field], record.ns, { [field.name]: v }, path, this.opts);
        continue;
      }
      v.forEach((item, i) => {
        const itemEl = child.ele(ns[listItemNs(field, record.ns)], field.list!);
        if (item === null) itemEl.att(XSI_NS, 'xsi:nil', 'true');
        else this.record(itemEl, inner, item, [...fieldPath, i]);
      });
    }
    // What neither the catalog nor the contract knows goes after, as the catalog writer does it.
    for (const [key, v] of Object.entries(value)) {
      if (done.has(key) || v === undefined) continue;
      writeGeneric(el.ele(ns[record.ns], key), ns[record.ns], v);
    }
  }

  private added(parent: XmlSink, a: AddedElement, v: unknown, path: readonly PathSegment[]): void {
    // In its siblings' role it follows the environment's setting; elsewhere the URI the contract gave.
    const uri = a.ns === '' ? '' : a.role ? this.opts.namespaces[a.role] : a.ns;
    const repeating = a.maxOccurs === 'unbounded' || a.maxOccurs > 1;
    const items: Array<[unknown, readonly PathSegment[]]> = repeating && Array.isArray(v) ? v.map((x, i) => [x, [...path, i]]) : [[v, path]];
    for (const [item, itemPath] of items) {
      const el = parent.ele(uri, a.name);
      if (item === null) {
        el.att(XSI_NS, 'xsi:nil', 'true');
        continue;
      }
      if (a.base === undefined) {
        writeGeneric(el, uri, item);
        continue;
      }
      const type = SPELLED[a.base] ?? 'string';
      const text = toXsdText(type, item, formatPath(itemPath), typeof item === 'number' ? this.opts.rawNumber?.(itemPath) : undefined, this.opts.asWritten);
      if (text !== '') el.txt(text);
    }
  }
}
