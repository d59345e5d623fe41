/**
 * The client's own spelling of the numbers in a recognised request, so a request file made from
 * it sends the same bytes: `<Width>48.00</Width>` reads as the number 48, and a file saying `48`
 * would send `48`. Keyed by JSON pointer into the parameters as the service binds them (the shape
 * `bindable` in toRequestFile.ts leaves: unknown elements out, the last of a repeated field), and
 * only where the spelling differs from the number's shortest form.
 *
 * Decimals need nothing here (they are read as exact strings); booleans and strings have no other
 * JSON spelling to keep. A number JSON cannot spell as sent (`+5`, `.5`, `007`) is listed in
 * `unspellable`, so the file can say it will send the value in its plain form.
 */
import { elementNs, getRecord, listItemNs, parametersRecord, type Namespaces } from '../catalog';
import type { FieldDef, NamespaceRole, OperationDef, RecordDef } from '../catalog/types';
import type { XmlElement } from '../xml/dom';
import { isNil } from '../xml/read';
import { fromXsdText } from '../xml/values';

export interface Literals {
  /** JSON pointer (relative to params, e.g. `/request/Items/0/Width`) → the number as sent. */
  readonly spellings: Readonly<Record<string, string>>;
  /** Pointers of numbers whose spelling JSON cannot write; they go out in their plain form. */
  readonly unspellable: readonly string[];
}

/** The JSON grammar of a number literal (RFC 8259 §6). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const pointerSegment = (s: string | number) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');

interface Walk {
  readonly namespaces: Namespaces;
  readonly outOfNamespace: 'absent' | 'keep';
  readonly spellings: Record<string, string>;
  readonly unspellable: string[];
}

function done(w: Walk): Literals | undefined {
  return Object.keys(w.spellings).length || w.unspellable.length ? { spellings: w.spellings, unspellable: w.unspellable } : undefined;
}

/** The spellings of the numbers in a SOAP operation element, walked as readSoapParameters reads it. */
export function soapLiterals(op: OperationDef, wrapper: XmlElement, namespaces: Namespaces, outOfNamespace: 'absent' | 'keep'): Literals | undefined {
  const w: Walk = { namespaces, outOfNamespace, spellings: {}, unspellable: [] };
  recordLiterals(wrapper, parametersRecord(op), '', w);
  return done(w);
}

/** The spellings of the numbers in a query string or form: the first of a repeated name, as it is read. */
export function formLiterals(op: OperationDef, form: URLSearchParams): Literals | undefined {
  const w: Walk = { namespaces: {} as Namespaces, outOfNamespace: 'keep', spellings: {}, unspellable: [] };
  for (const field of op.parameters) {
    const text = form.get(field.name);
    if (text !== null && !field.list && !field.record) simpleLiteral(text, field, `/${pointerSegment(field.name)}`, w);
  }
  return done(w);
}

function recordLiterals(el: XmlElement, record: RecordDef, pointer: string, w: Walk): void {
  if (record.open) return;
  const byName = new Map(record.fields.map((f) => [f.name, f]));
  // The service binds the last of a field that arrives twice; so does the request file.
  const bound = new Map<string, XmlElement>();
  for (const child of el.children) {
    const field = byName.get(child.local);
    if (!field) continue;
    if (child.ns !== w.namespaces[elementNs(field, record.ns)] && w.outOfNamespace === 'absent') continue;
    bound.delete(field.name);
    bound.set(field.name, child);
  }
  for (const [name, child] of bound) fieldLiterals(child, byName.get(name)!, record.ns, `${pointer}/${pointerSegment(name)}`, w);
}

function fieldLiterals(child: XmlElement, field: FieldDef, parentNs: NamespaceRole, pointer: string, w: Walk): void {
  if (isNil(child)) return;
  if (field.list) {
    const itemUri = w.namespaces[listItemNs(field, parentNs)];
    let index = 0;
    for (const item of child.children) {
      // Items of another name are left out of the request file, so they take no index.
      if (item.local !== field.list) continue;
      if (item.ns !== itemUri && w.outOfNamespace === 'absent') continue;
      const at = `${pointer}/${index++}`;
      if (isNil(item)) continue;
      if (field.record) recordLiterals(item, getRecord(field.record), at, w);
      else if (!item.children.length) simpleLiteral(item.text, field, at, w);
    }
    return;
  }
  if (field.record) recordLiterals(child, getRecord(field.record), pointer, w);
  else if (!child.children.length) simpleLiteral(child.text, field, pointer, w);
}

function simpleLiteral(text: string, field: FieldDef, pointer: string, w: Walk): void {
  if (field.type !== 'int' && field.type !== 'float') return;
  const read = fromXsdText(field.type, text);
  if (read.problem || typeof read.value !== 'number') return;
  const spelled = text.trim();
  if (spelled === JSON.stringify(read.value)) return;
  if (JSON_NUMBER.test(spelled) && Number(spelled) === read.value) w.spellings[pointer] = spelled;
  else w.unspellable.push(pointer);
}
