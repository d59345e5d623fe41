/**
 * The common SOAP reply read in one pass over its text, straight along the catalog: no element
 * tree, no second walk. What a .NET service (and the sandbox) sends for a call that went well is
 * always the same few shapes — an envelope declaring its prefixes, `<Body>`, `<OpResponse>` in
 * the service namespace, `<OpResult>`, and below it the result's fields in catalog order, each in
 * the namespace the catalog puts it (declared with `xmlns="…"` where it changes), holding plain
 * text, its records or its list items. Such a reply is read here at a fraction of what parsing it
 * into elements (xml/parser.ts) and reading those (xml/read.ts) costs; it is most of what a run
 * or a send spends on its own per request.
 *
 * Anything else gives up (`undefined`), and parseReply reads the reply the general way, from its
 * start, with every check, finding and message that way has: a comment, CDATA, a reference, an
 * attribute other than a default namespace declaration, a prefix in the content, a field out of
 * catalog order, repeated or unknown, another namespace, xsi:nil, a value not of its type, an
 * open record, a fault, whitespace inside a tag where the forms below have none, a reply larger
 * than COMMON_TEXT_LIMIT — and anything malformed. What is read here is what the general way reads
 * from the same text, key for key and in the same order (test/unit/reply-readers-equal.test.ts holds
 * the two side by side on every shape's reply and on thousands of spoilt copies of them).
 * parseReply alone calls it (docs/architecture.md#one-reader).
 */
import { elementNs, getRecord, listItemNs, type Namespaces, type OperationDef } from '../catalog';
import type { NamespaceRole, RecordDef, XsdType } from '../catalog/types';
import { XML_NS, XMLNS_NS } from '../xml/node';
import { fromXsdText } from '../xml/values';

/**
 * Larger replies are read the general way: it reads a long list's items as they close, so a
 * 10,000-shipment trace is never held as elements and JSON at once, and it applies the parser's
 * limits, none of which a reply this size can reach along the catalog.
 */
export const COMMON_TEXT_LIMIT = 1 << 20;

/** Declarations the envelope may carry here; more are read the general way (parser.ts MAX_DECLARATIONS). */
const MAX_ENVELOPE_DECLARATIONS = 16;

export interface CommonReply {
  /** The result record, as readRecord reads it. */
  readonly result: Record<string, unknown>;
}

/**
 * How one field of a record is met in the text. Every plan has every property (undefined where
 * it does not apply): one shape, so each read of one is a single check.
 */
interface FieldPlan {
  /** `<Name`: a tag opening it starts so, followed by `>`, `/>` or whitespace. */
  readonly open: string;
  readonly close: string;
  readonly role: NamespaceRole;
  readonly type: XsdType;
  readonly record: RecordDef | undefined;
  /** The record's own plan, made when a reply first holds the field (a record may hold itself). */
  recordPlan: RecordPlan | undefined;
  readonly itemOpen: string | undefined;
  readonly itemClose: string | undefined;
  readonly itemRole: NamespaceRole | undefined;
}

/** A record's fields, and a store of a value under field i's name (generated per record: see below). */
interface RecordPlan {
  /** The catalog leaves the record's insides open: no fields to read along. */
  readonly open: boolean;
  readonly fields: readonly FieldPlan[];
  readonly set: (out: Record<string, unknown>, i: number, value: unknown) => void;
}

const plans = new WeakMap<RecordDef, RecordPlan>();

function planOf(record: RecordDef): RecordPlan {
  let plan = plans.get(record);
  if (plan) return plan;
  const fields = record.fields.map((field): FieldPlan => ({
    open: `<${field.name}`,
    close: `</${field.name}>`,
    role: elementNs(field, record.ns),
    type: field.type === 'record' ? 'string' : field.type,
    record: field.record ? getRecord(field.record) : undefined,
    recordPlan: undefined,
    itemOpen: field.list ? `<${field.list}` : undefined,
    itemClose: field.list ? `</${field.list}>` : undefined,
    itemRole: field.list ? listItemNs(field, record.ns) : undefined,
  }));
  // One store site per field, each always the same name: a store
  // by a changing key is one site for every field of every record, which V8 cannot specialise.
  // Names come from the catalog and are written as JSON string literals, never as code.
  const cases = record.fields.map((f, i) => `case ${i}: out[${JSON.stringify(f.name)}] = value; return;`).join('\n    ');
  const set = new Function('out', 'i', 'value', `switch (i) {\n    ${cases}\n  }`) as RecordPlan['set'];
  plan = { open: record.open === true, fields, set };
  plans.set(record, plan);
  return plan;
}

/** The markup around an operation's result, made once per operation rather than once per reply. */
interface ResultMarkup {
  /** `<OpResponse`, `<OpResult` (each followed by the rest of its start tag). */
  readonly responseOpen: string;
  readonly resultOpen: string;
  readonly resultClose: string;
  readonly responseClose: string;
  readonly result: RecordPlan;
}

const markups = new WeakMap<OperationDef, ResultMarkup>();

function markupOf(op: OperationDef): ResultMarkup {
  let markup = markups.get(op);
  if (!markup) {
    const response = `${op.operation}Response`;
    const result = `${op.operation}Result`;
    markup = {
      responseOpen: `<${response}`,
      resultOpen: `<${result}`,
      resultClose: `</${result}>`,
      responseClose: `</${response}>`,
      result: planOf(getRecord(op.result)),
    };
    markups.set(op, markup);
  }
  return markup;
}

/** Thrown to leave the reading to the general way; caught by readCommonReply alone. */
class NotCommon {}
const NOT_COMMON = new NotCommon();

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
/** A simple ASCII prefix; any other is read the general way (which checks every name XML allows). */
const PREFIX = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** The same for an element of open content, which has no prefix here. */
const GENERIC_NAME = PREFIX;
/** Where a tag's name ends. */
const endsName = (c: number) => isSpace(c) || c === 0x3e /* > */ || c === 0x2f; /* / */

/**
 * Text the one pass may take as it is: no `&` (a reference to check and decode) and no character
 * XML forbids written as itself — a C0 control but tab, newline and return, a lone surrogate,
 * U+FFFE, U+FFFF — which the general parser refuses with its place (src/core/xml/parser.ts).
 */
function plain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0xd800 && c !== 0x26 /* & */) continue;
    if (c < 0x20 ? !isSpace(c) : c === 0x26 || c >= 0xfffe) return false;
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = text.charCodeAt(i + 1);
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return false;
      i++;
    }
  }
  return true;
}

/** A C0 control but tab, newline and return. */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const CONTROL = /[\0-\x08\x0B\x0C\x0E-\x1F]/;
/** A surrogate, U+FFFE or U+FFFF: plain() tells a pair, allowed, from the rest. */
const SURROGATE_OR_NONCHARACTER = /[\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * Whether the whole reply is plain(), by native searches (an `&`, a control, the rarer rest
 * looked at closely only when there): the one pass reads every character either as markup
 * compared with what the catalog and the envelope allow, all plain, or as text, which must be
 * plain. A reply that is not is left to the general way at once, as the pass would leave it at
 * the first text that is not; one search of the whole reply costs less than a look at each
 * character of each value, and least before the reader is compiled.
 */
function plainReply(text: string): boolean {
  return text.indexOf('&') < 0 && !CONTROL.test(text) && (!SURROGATE_OR_NONCHARACTER.test(text) || plain(text));
}

/** Open content nested deeper than this is read the general way. */
const MAX_GENERIC_DEPTH = 32;

/**
 * The result of a SOAP reply of `op` read in one pass, or undefined: the reply is not the
 * common case (or not well-formed), and is read the general way.
 */
export function readCommonReply(text: string, op: OperationDef, envelopeNs: string, namespaces: Namespaces): CommonReply | undefined {
  if (text.length > COMMON_TEXT_LIMIT || !plainReply(text)) return undefined;
  try {
    return { result: new CommonReader(text, namespaces).reply(op, envelopeNs) };
  } catch (e) {
    if (e === NOT_COMMON) return undefined;
    throw e;
  }
}

/**
 * An envelope start tag as read: what it declares depends only on its text and the envelope
 * namespace expected. (A default namespace it declares is compared by value below; which
 * environment's copy of an equal string it is only makes the comparison quicker.)
 */
interface EnvelopeTag {
  readonly text: string;
  readonly envelopeNs: string;
  readonly defaultNs: string | undefined;
  /** `<p:Body`, `</p:Body>`, `</p:Envelope>` with the envelope's prefix. */
  readonly bodyOpen: string;
  readonly bodyClose: string;
  readonly envelopeClose: string;
}

let lastEnvelope: EnvelopeTag | undefined;

class CommonReader {
  private pos = 0;
  /** Whether the start tag tagEnd just read was `<…/>`: a field, not a result object per element. */
  private empty = false;

  constructor(
    private readonly s: string,
    private readonly namespaces: Namespaces,
  ) {}

  private leave(): never {
    throw NOT_COMMON;
  }

  reply(op: OperationDef, envelopeNs: string): Record<string, unknown> {
    const s = this.s;
    // The XML declaration, whatever it says: the general parser only places it (at the very start).
    if (s.startsWith('<?xml', 0) && isSpace(s.charCodeAt(5))) {
      const end = s.indexOf('?>', 6);
      if (end < 0) this.leave();
      this.pos = end + 2;
    }
    const envelope = this.envelope(envelopeNs);
    const markup = markupOf(op);
    this.space();
    this.expect(envelope.bodyOpen);
    const bodyNs = this.tagEnd(envelope.defaultNs);
    if (this.empty) this.leave();
    this.space();
    const service = this.namespaces.service;
    this.expect(markup.responseOpen);
    const responseNs = this.tagEnd(bodyNs);
    if (this.empty || responseNs !== service) this.leave();
    this.space();
    this.expect(markup.resultOpen);
    const resultNs = this.tagEnd(responseNs);
    if (resultNs !== service || markup.result.open) this.leave();
    const result = this.empty ? {} : this.record(markup.result, resultNs, markup.resultClose);
    this.space();
    this.expect(markup.responseClose);
    this.space();
    this.expect(envelope.bodyClose);
    this.space();
    this.expect(envelope.envelopeClose);
    this.space();
    if (this.pos !== s.length) this.leave();
    return result;
  }

  /** `text` at pos, gone past; anything else there ends the reading. */
  private expect(text: string): void {
    if (!this.startsWith(text)) this.leave();
    this.pos += text.length;
  }

  /**
   * `<p:Envelope` and its namespace declarations, `p` bound there to the expected envelope
   * namespace. The general parser checks the same of each declaration (parser.ts
   * declarationProblem); one it would refuse, or anything unusual, is left to it.
   */
  private envelope(envelopeNs: string): EnvelopeTag {
    const s = this.s;
    this.space();
    // A service starts every reply with the same start tag: read once, then recognised whole.
    const last = lastEnvelope;
    if (last && last.envelopeNs === envelopeNs && s.startsWith(last.text, this.pos)) {
      this.pos += last.text.length;
      return last;
    }
    const start = this.pos;
    if (s.charCodeAt(this.pos) !== 0x3c /* < */) this.leave();
    const colon = s.indexOf(':', this.pos);
    if (colon < 0 || colon - this.pos > 64) this.leave();
    const prefix = s.slice(this.pos + 1, colon);
    if (!PREFIX.test(prefix) || !s.startsWith('Envelope', colon + 1)) this.leave();
    this.pos = colon + 9;
    const declared = new Map<string, string>();
    let defaultNs: string | undefined;
    let defaults = 0;
    for (;;) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x3e /* > */) {
        this.pos++;
        break;
      }
      if (!isSpace(c)) this.leave();
      this.space();
      if (s.charCodeAt(this.pos) === 0x3e) {
        this.pos++;
        break;
      }
      if (!s.startsWith('xmlns', this.pos)) this.leave();
      this.pos += 5;
      let name = '';
      if (s.charCodeAt(this.pos) === 0x3a /* : */) {
        const eq = s.indexOf('=', this.pos);
        if (eq < 0) this.leave();
        name = s.slice(this.pos + 1, eq);
        if (!PREFIX.test(name) || name === 'xmlns' || name === 'xml' || declared.has(name)) this.leave();
        this.pos = eq;
      } else if (++defaults > 1) this.leave();
      const uri = this.quoted();
      if (uri === XML_NS || uri === XMLNS_NS || (name && uri === '')) this.leave();
      if (name) declared.set(name, uri);
      else defaultNs = this.known(uri);
      if (declared.size + defaults > MAX_ENVELOPE_DECLARATIONS) this.leave();
    }
    if (declared.get(prefix) !== envelopeNs) this.leave();
    // Copies of their own: a slice would keep the whole reply it was cut from alive with it.
    const own = (t: string) => Buffer.from(t, 'utf8').toString('utf8');
    const p = own(prefix);
    return (lastEnvelope = {
      text: own(s.slice(start, this.pos)),
      envelopeNs,
      defaultNs,
      bodyOpen: `<${p}:Body`,
      bodyClose: `</${p}:Body>`,
      envelopeClose: `</${p}:Envelope>`,
    });
  }

  /** `="…"` at pos: the value, with no `<` (refused by the parser); it is plain, as the whole reply is (plainReply). */
  private quoted(): string {
    const s = this.s;
    if (s.charCodeAt(this.pos) !== 0x3d /* = */ || s.charCodeAt(this.pos + 1) !== 0x22 /* " */) this.leave();
    const end = s.indexOf('"', this.pos + 2);
    if (end < 0) this.leave();
    const value = s.slice(this.pos + 2, end);
    if (value.includes('<')) this.leave();
    this.pos = end + 1;
    return value;
  }

  /**
   * A declared namespace as the environment's own string when it is one of its three: compared
   * with them at every element below, the same string is equal at a glance, a copy cut from the
   * reply only character by character.
   */
  private known(uri: string): string {
    const ns = this.namespaces;
    return uri === ns.service ? ns.service : uri === ns.data ? ns.data : uri === ns.pickup ? ns.pickup : uri;
  }

  private space(): void {
    const s = this.s;
    while (isSpace(s.charCodeAt(this.pos))) this.pos++;
  }

  /**
   * Whether `text` is at pos, where anything else ends the reading here (an end tag, the
   * envelope's fixed parts): indexOf then, which compares twice as fast as startsWith, and only
   * once per reply goes on past a mismatch (to the next occurrence, at worst the end).
   */
  private startsWith(text: string): boolean {
    return this.s.indexOf(text, this.pos) === this.pos;
  }

  /**
   * The rest of a start tag whose name was just read: `>`, `/>`, or a default namespace
   * declaration first. The element's namespace (and its children's default) is what it
   * declares, else the one around it; a prefixed name never gets here. Whether the tag was
   * `<…/>` is left in `empty`.
   */
  private tagEnd(inherited: string | undefined): string | undefined {
    const s = this.s;
    let ns = inherited;
    let c = s.charCodeAt(this.pos);
    if (isSpace(c)) {
      this.space();
      if (s.startsWith('xmlns', this.pos)) {
        this.pos += 5;
        ns = this.known(this.quoted());
        if (ns === XML_NS || ns === XMLNS_NS) this.leave();
        this.space();
      }
      c = s.charCodeAt(this.pos);
    }
    if (c === 0x3e /* > */) {
      this.pos++;
      this.empty = false;
      return ns;
    }
    if (c === 0x2f /* / */ && s.charCodeAt(this.pos + 1) === 0x3e) {
      this.pos += 2;
      this.empty = true;
      return ns;
    }
    return this.leave();
  }

  /** Whether pos is at `close`: only an end tag is compared (any other there ends the reading). */
  private ends(close: string): boolean {
    return this.s.charCodeAt(this.pos + 1) === 0x2f /* / */ && this.startsWith(close);
  }

  /** Whether the tag opened at pos names exactly `open` (`<Name` followed by `>`, `/` or whitespace). */
  private opens(open: string): boolean {
    // Most tags tried are another field's: told apart by their first letter, else compared in
    // place, character by character (not indexOf: a field absent here is tried at every element
    // after it; not a slice: a copy per field tried was a fifth of what reading a reply allocated).
    const s = this.s;
    const at = this.pos;
    const length = open.length;
    if (s.charCodeAt(at + 1) !== open.charCodeAt(1) || s.charCodeAt(at) !== 0x3c /* < */) return false;
    for (let i = 2; i < length; i++) if (s.charCodeAt(at + i) !== open.charCodeAt(i)) return false;
    const c = s.charCodeAt(at + length);
    return c === 0x3e || c === 0x2f || isSpace(c);
  }

  /** The fields of the record up to `close`, in catalog order, each once. */
  private record(plan: RecordPlan, defaultNs: string | undefined, close: string): Record<string, unknown> {
    if (plan.open) this.leave();
    const { fields, set } = plan;
    const out: Record<string, unknown> = {};
    let next = 0;
    for (;;) {
      this.space();
      if (this.ends(close)) {
        this.pos += close.length;
        return out;
      }
      let f: FieldPlan | undefined;
      while (next < fields.length) {
        const p = fields[next++];
        if (this.opens(p.open)) {
          f = p;
          break;
        }
      }
      if (!f) this.leave();
      this.pos += f.open.length;
      const ns = this.tagEnd(defaultNs);
      if (ns !== this.namespaces[f.role]) this.leave();
      const empty = this.empty;
      set(out, next - 1, f.itemOpen ? this.list(f, ns, empty) : f.record ? this.inner(f, ns, empty, f.close) : this.simple(f.type, empty, f.close));
    }
  }

  private list(f: FieldPlan, containerNs: string | undefined, containerEmpty: boolean): unknown[] {
    const items: unknown[] = [];
    if (containerEmpty) return items;
    const itemUri = this.namespaces[f.itemRole!];
    for (;;) {
      this.space();
      if (this.ends(f.close)) {
        this.pos += f.close.length;
        return items;
      }
      if (!this.opens(f.itemOpen!)) this.leave();
      this.pos += f.itemOpen!.length;
      const ns = this.tagEnd(containerNs);
      if (ns !== itemUri) this.leave();
      if (f.record) items.push(this.inner(f, ns, this.empty, f.itemClose!));
      else items.push(this.simple(f.type, this.empty, f.itemClose!));
    }
  }

  /** The record of field `f` (or of its list's item): `<Record/>` is one with no fields. */
  private inner(f: FieldPlan, ns: string | undefined, empty: boolean, close: string): unknown {
    const plan = (f.recordPlan ??= planOf(f.record!));
    if (plan.open) return this.open(ns, empty, close);
    return empty ? {} : this.record(plan, ns, close);
  }

  /**
   * A record whose insides the catalog leaves open, as read.ts reads one: an object of its
   * children (a repeated name becomes an array), text for a leaf, `{}` for an empty one and
   * `{ "#text": … }` for text alone.
   */
  private open(ns: string | undefined, empty: boolean, close: string): unknown {
    const value = this.generic(ns, empty, close, 0);
    return value !== null && typeof value === 'object' ? value : value === '' ? {} : { '#text': value };
  }

  /**
   * Content the catalog does not describe (read.ts readGeneric): its elements are named by what
   * the reply says, plain ASCII names without a prefix here, and nested at most
   * MAX_GENERIC_DEPTH deep (deeper content is read the general way, which walks it without
   * recursing).
   */
  private generic(ns: string | undefined, empty: boolean, close: string, depth: number): unknown {
    if (empty) return '';
    const s = this.s;
    const lt = s.indexOf('<', this.pos);
    if (lt < 0) this.leave();
    if (s.charCodeAt(lt + 1) === 0x2f /* / */) {
      if (s.indexOf(close, lt) !== lt) this.leave();
      const text = s.slice(this.pos, lt);
      this.pos = lt + close.length;
      return text;
    }
    if (depth >= MAX_GENERIC_DEPTH) this.leave();
    const out: Record<string, unknown> = {};
    let repeated: Set<string> | undefined;
    for (;;) {
      this.space();
      if (this.ends(close)) {
        this.pos += close.length;
        return out;
      }
      if (s.charCodeAt(this.pos) !== 0x3c /* < */) this.leave();
      let end = this.pos + 1;
      while (end < s.length && !endsName(s.charCodeAt(end))) end++;
      const name = s.slice(this.pos + 1, end);
      if (!GENERIC_NAME.test(name) || name in Object.prototype) this.leave();
      this.pos = end;
      const childNs = this.tagEnd(ns);
      const v = this.generic(childNs, this.empty, `</${name}>`, depth + 1);
      // A name met again turns into an array of all its values (read.ts RepeatingObject).
      if (!(name in out)) out[name] = v;
      else if (repeated?.has(name)) (out[name] as unknown[]).push(v);
      else {
        out[name] = [out[name], v];
        (repeated ??= new Set()).add(name);
      }
    }
  }

  /** Text up to the element's end tag, of its type; an element inside it, a comment, CDATA or a reference is left to the general way. */
  private simple(type: XsdType, empty: boolean, close: string): unknown {
    let text = '';
    if (!empty) {
      const s = this.s;
      const lt = s.indexOf('<', this.pos);
      if (lt < 0 || s.indexOf(close, lt) !== lt) this.leave();
      text = s.slice(this.pos, lt);
      this.pos = lt + close.length;
    }
    if (type === 'string') return text;
    const r = fromXsdText(type, text);
    if (r.problem) this.leave();
    return r.value;
  }
}
