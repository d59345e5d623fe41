/**
 * One pass over the text, straight to namespace-resolved elements, checking well-formedness as
 * it goes. A general-purpose parser builds an intermediate tree and (to report errors) validates
 * in a separate pass; doing both in one walk with indexOf between markup is what makes a
 * GetRateQuote reply parse in tens of microseconds and a 15 MB base64 text node cost one slice.
 *
 * What is refused: a DOCTYPE anywhere (entities are never expanded or fetched), mismatched or
 * unclosed tags, attributes without quoted values or repeated, `&` that does not start a
 * reference, `<` in attribute values, text or a second element outside the root, names that are
 * not namespace-well-formed (`:a`, `a:`, `a:b:c`, `xmlns:="u"`), undeclared prefixes and elements
 * nested deeper than MAX_DEPTH. Comments and processing instructions are skipped; CDATA is text.
 */
import { decodeEntities, position, XML_NS, XMLNS_NS, XmlError, type XmlAttribute, type XmlElement } from './node';

type Scope = ReadonlyMap<string, string>;

/**
 * The deepest nesting read; one element deeper is refused with an XmlError coded 'too-deep'.
 * Parsing is iterative, but everything after it (readers, redaction, JSON, structured clone for
 * the panel) walks the tree, and V8's own JSON.stringify recurses, so a bound here is what keeps
 * a hostile reply from blowing the stack anywhere downstream. Real replies of this service nest
 * under 15 levels; WCF's reader quota is 32; libxml2 refuses past 256 by default (2048 with
 * XML_PARSE_HUGE). 1,000 leaves room for any honest document and stays far inside the stack.
 */
export const MAX_DEPTH = 1000;

/**
 * Called as each element (the root excepted) is complete, with the elements it sits in, outermost
 * first (a live array: read it, do not keep it). Returning true leaves the element out of the
 * tree: the caller has read what it needed from it, so a reply's 10,000 list items need never be
 * held as elements all at once.
 */
export type CloseHook = (el: XmlElement, ancestors: readonly XmlElement[]) => boolean;

/**
 * An element as built here. `prefix` and `attrs` are read from the prototype until an element has
 * its own: most elements have neither, and a million-element reply is 16 MB smaller for it.
 */
class Element implements XmlElement {
  declare prefix: string;
  declare attrs: readonly XmlAttribute[];
  constructor(public local: string, public ns: string, public children: XmlElement[], public text: string) {}
}

interface Frame {
  readonly qname: string;
  readonly el: Element;
  readonly scope: Scope;
  /** Where this element's children start in `Parser.pending`. */
  readonly first: number;
}

/** Leaves share these until they get a child or an attribute: most elements never do. */
const NO_CHILDREN: XmlElement[] = Object.freeze([]) as unknown as XmlElement[];
const NO_ATTRS: readonly XmlAttribute[] = Object.freeze([]);

Element.prototype.prefix = '';
Element.prototype.attrs = NO_ATTRS;

const ROOT_SCOPE: Scope = new Map([['xml', XML_NS], ['xmlns', XMLNS_NS]]);
/** XML 1.0 (fifth edition) Name: NameStartChar then NameChar, exactly (§2.3). */
const NAME_START = ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME = new RegExp(`^[${NAME_START}][\\u0300-\\u036F${NAME_START}\\-.0-9\\u00B7\\u203F-\\u2040]*$`, 'u');
const REFERENCE = /&(?:#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_:][A-Za-z0-9._:-]*);/y;
const PREDEFINED = new Set(['lt', 'gt', 'amp', 'quot', 'apos']);
/** XML 1.0 Char production: no NUL, no other C0 controls but tab/newline/return, no surrogates, no U+FFFE/FFFF. */
const xmlChar = (c: number) => c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);

/**
 * Names already checked, shared by every parse: a service uses a few hundred, and checking each
 * with NAME in every reply was a tenth of parsing one. Bounded, for a peer sending made-up names.
 */
const names = new Map<string, string>();
const NAMES_LIMIT = 4096;

/** Namespaces in XML: at most one colon, with a name on each side of it. */
const qualified = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 || (colon > 0 && colon < name.length - 1 && name.indexOf(':', colon + 1) < 0);
};

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
/** Where a tag or attribute name stops. */
const endsName = (c: number) => isSpace(c) || c === 0x3e /* > */ || c === 0x2f /* / */ || c === 0x3d /* = */;

class Parser {
  private pos = 0;
  private readonly stack: Frame[] = [];
  /**
   * Children of the open elements, collected here and copied out when their parent closes: a
   * million-element reply then has arrays of exactly the right length, where arrays grown by
   * push would carry spare capacity — a third of the tree's memory.
   */
  private readonly pending: XmlElement[] = [];
  /** The open elements, outermost first, for the close hook. */
  private readonly ancestors: XmlElement[] = [];
  private root: XmlElement | undefined;

  constructor(private readonly s: string, private readonly onClose?: CloseHook) {}

  parse(): XmlElement {
    const s = this.s;
    const n = s.length;
    while (this.pos < n) {
      const lt = s.indexOf('<', this.pos);
      const end = lt < 0 ? n : lt;
      if (end > this.pos) this.text(this.pos, end);
      if (lt < 0) break;
      const c = s.charCodeAt(lt + 1);
      if (c === 0x2f /* / */) this.endTag(lt);
      else if (c === 0x21 /* ! */) this.bang(lt);
      else if (c === 0x3f /* ? */) this.instruction(lt);
      else this.startTag(lt);
    }
    if (this.stack.length) throw this.truncated();
    if (!this.root) throw new XmlError('The XML has no root element');
    return this.root;
  }

  private fail(offset: number, message: string): XmlError {
    const { line, column } = position(this.s, offset);
    return new XmlError(`Malformed XML: ${message}`, line, column);
  }

  private truncated(): XmlError {
    const open = this.stack[this.stack.length - 1]?.qname;
    const { line, column } = position(this.s, this.s.trimEnd().length);
    return new XmlError(`The XML ends before ${open ? `<${open}> is closed` : 'it is complete'}: the body is truncated or incomplete`, line, column, 'truncated');
  }

  /** The offset of `token` at or after `from`; the text ending first means it was cut short. */
  private until(token: string, from: number): number {
    const at = this.s.indexOf(token, from);
    if (at < 0) throw this.truncated();
    return at;
  }

  private name(start: number, end: number): string {
    const raw = this.s.slice(start, end);
    let name = names.get(raw);
    if (name === undefined) {
      if (!NAME.test(raw)) throw this.fail(start, raw ? `"${raw}" is not a valid name` : 'a name is missing after "<"');
      if (!qualified(raw)) throw this.fail(start, raw === 'xmlns:' ? '"xmlns:" declares an empty prefix' : `"${raw}" is not a qualified name: a colon must separate a prefix from a local name, once`);
      if (names.size >= NAMES_LIMIT) names.clear();
      names.set(raw, (name = raw));
    }
    return name;
  }

  /** Entity references checked, then decoded; `at` is where `raw` starts in the document. */
  private decode(raw: string, at: number): string {
    if (raw.indexOf('&') < 0) return raw;
    for (let a = raw.indexOf('&'); a >= 0; a = raw.indexOf('&', a + 1)) {
      REFERENCE.lastIndex = a;
      if (!REFERENCE.test(raw)) throw this.fail(at + a, '"&" must start a reference such as &amp; or &#38;');
      const ref = raw.slice(a + 1, REFERENCE.lastIndex - 1);
      // Without a DTD (always refused here) only the five predefined entities exist; anything
      // else is a well-formedness error, never text to pass on.
      if (ref[0] !== '#' && !PREDEFINED.has(ref)) throw this.fail(at + a, `&${ref}; is not an entity XML predefines (&lt; &gt; &amp; &quot; &apos;); others need a DTD, which is refused`);
      if (ref[0] === '#' && !xmlChar(ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10))) throw this.fail(at + a, `&${ref}; is not a character XML allows`);
    }
    return decodeEntities(raw);
  }

  private text(start: number, end: number): void {
    this.pos = end;
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      for (let i = start; i < end; i++) if (!isSpace(this.s.charCodeAt(i))) throw this.fail(i, this.root ? 'text after the root element' : 'text before the root element');
      return;
    }
    const piece = this.decode(this.s.slice(start, end), start);
    top.el.text = top.el.text === '' ? piece : top.el.text + piece;
  }

  /**
   * A processing instruction is skipped, but its target must be a name, and `<?xml` (any case)
   * is reserved for the declaration at the very start: one further on means two documents were
   * joined or something was put before the declaration.
   */
  private instruction(lt: number): void {
    const s = this.s;
    const end = this.until('?>', lt + 2);
    let i = lt + 2;
    while (i < end && !isSpace(s.charCodeAt(i))) i++;
    const target = s.slice(lt + 2, i);
    if (!NAME.test(target) || target.includes(':')) throw this.fail(lt, target ? `"<?${target}" is not a processing instruction: its target is not a name` : 'a processing instruction has no target');
    if (target.toLowerCase() === 'xml' && (lt !== 0 || target !== 'xml')) throw this.fail(lt, lt === 0 ? `"<?${target}" must be written <?xml` : 'the XML declaration is allowed only at the very start of the document');
    this.pos = end + 2;
  }

  private bang(lt: number): void {
    const s = this.s;
    if (s.startsWith('<!--', lt)) { this.pos = this.until('-->', lt + 4) + 3; return; }
    if (s.startsWith('<![CDATA[', lt)) {
      const end = this.until(']]>', lt + 9);
      const top = this.stack[this.stack.length - 1];
      if (!top) throw this.fail(lt, 'CDATA outside the root element');
      const piece = s.slice(lt + 9, end);
      top.el.text = top.el.text === '' ? piece : top.el.text + piece;
      this.pos = end + 3;
      return;
    }
    if (/^<!DOCTYPE/i.test(s.slice(lt, lt + 9))) {
      const { line, column } = position(s, lt);
      throw new XmlError('Refused: the XML declares a DOCTYPE; entities are never expanded or fetched', line, column, 'doctype');
    }
    if (lt + 2 >= s.length) throw this.truncated();
    throw this.fail(lt, `"${s.slice(lt, lt + 9)}…" is not a comment, CDATA section or element`);
  }

  private endTag(lt: number): void {
    const s = this.s;
    const gt = this.until('>', lt + 2);
    let end = gt;
    while (end > lt + 2 && isSpace(s.charCodeAt(end - 1))) end--;
    const qname = s.slice(lt + 2, end);
    const top = this.stack.pop();
    if (!top) throw this.fail(lt, `</${qname}> closes nothing`);
    if (top.qname !== qname) throw this.fail(lt, `</${qname}> found where </${top.qname}> was expected`);
    if (this.pending.length > top.first) top.el.children = this.pending.splice(top.first);
    this.ancestors.pop();
    // The element itself is the last one pending: its own children were taken out above.
    if (this.onClose && this.stack.length && this.onClose(top.el, this.ancestors)) this.pending.pop();
    this.pos = gt + 1;
  }

  private startTag(lt: number): void {
    const s = this.s;
    const n = s.length;
    let i = lt + 1;
    while (i < n && !endsName(s.charCodeAt(i))) i++;
    if (i >= n) throw this.truncated();
    const qname = this.name(lt + 1, i);
    let raw: (string | number)[] | undefined;
    let selfClosing = false;
    for (;;) {
      let j = i;
      while (j < n && isSpace(s.charCodeAt(j))) j++;
      if (j >= n) throw this.truncated();
      const c = s.charCodeAt(j);
      if (c === 0x3e /* > */) { this.pos = j + 1; break; }
      if (c === 0x2f /* / */) {
        if (j + 1 >= n) throw this.truncated();
        if (s.charCodeAt(j + 1) !== 0x3e) throw this.fail(j, `"/" inside <${qname}> must be followed by ">"`);
        selfClosing = true;
        this.pos = j + 2;
        break;
      }
      if (j === i) throw this.fail(j, `attributes of <${qname}> must be separated by whitespace`);
      let k = j;
      while (k < n && !endsName(s.charCodeAt(k))) k++;
      const name = this.name(j, k);
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      if (k >= n) throw this.truncated();
      if (s.charCodeAt(k) !== 0x3d /* = */) throw this.fail(j, `attribute ${name} of <${qname}> has no value`);
      k++;
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      if (k >= n) throw this.truncated();
      const quote = s[k];
      if (quote !== '"' && quote !== "'") throw this.fail(k, `the value of attribute ${name} of <${qname}> must be in quotes`);
      const close = this.until(quote, k + 1);
      const value = s.slice(k + 1, close);
      if (value.indexOf('<') >= 0) throw this.fail(k + 1 + value.indexOf('<'), `"<" in the value of attribute ${name}`);
      raw ??= [];
      for (let a = 0; a < raw.length; a += 3) if (raw[a] === name) throw this.fail(j, `attribute ${name} of <${qname}> is repeated`);
      raw.push(name, this.decode(value, k + 1), j);
      i = close + 1;
    }
    this.open(qname, raw, lt, selfClosing);
  }

  private checkDeclaration(prefix: string, uri: string, at: number): void {
    const problem = declarationProblem(prefix, uri);
    if (problem) throw this.fail(at, problem);
  }

  private open(qname: string, raw: (string | number)[] | undefined, lt: number, selfClosing: boolean): void {
    if (this.stack.length >= MAX_DEPTH) {
      const { line, column } = position(this.s, lt);
      throw new XmlError(`The XML nests elements deeper than ${MAX_DEPTH.toLocaleString('en-US')} levels`, line, column, 'too-deep');
    }
    const parent = this.stack[this.stack.length - 1];
    let scope = parent ? parent.scope : ROOT_SCOPE;
    if (raw) {
      for (let a = 0; a < raw.length; a += 3) {
        const name = raw[a] as string;
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          const prefix = name === 'xmlns' ? '' : name.slice(6);
          this.checkDeclaration(prefix, raw[a + 1] as string, raw[a + 2] as number);
          if (scope === (parent ? parent.scope : ROOT_SCOPE)) scope = new Map(scope);
          (scope as Map<string, string>).set(prefix, raw[a + 1] as string);
        }
      }
    }
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    const ns = scope.get(prefix);
    if (prefix === 'xmlns') throw this.fail(lt + 1, `<${qname}>: the prefix xmlns is reserved for namespace declarations`);
    if (prefix && ns === undefined) {
      const { line, column } = position(this.s, lt);
      throw new XmlError(`The prefix "${prefix}" of <${qname}> is not declared`, line, column);
    }
    let attrs = NO_ATTRS;
    if (raw) {
      const list: XmlAttribute[] = [];
      for (let a = 0; a < raw.length; a += 3) {
        const name = raw[a] as string;
        if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
        const c = name.indexOf(':');
        const ap = c < 0 ? '' : name.slice(0, c);
        // Unprefixed attributes are in no namespace (XML Namespaces §6.2).
        const local = c < 0 ? name : name.slice(c + 1);
        const uri = ap ? scope.get(ap) : '';
        if (uri === undefined) throw this.fail(raw[a + 2] as number, `the prefix "${ap}" of attribute ${name} is not declared`);
        // a:x and b:x with a and b bound to one URI are the same attribute (Namespaces in XML §6.3).
        if (ap && list.some((o) => o.ns === uri && o.local === local)) throw this.fail(raw[a + 2] as number, `attribute ${name} of <${qname}> repeats another in namespace ${uri}`);
        list.push({ local, prefix: ap, ns: uri, value: raw[a + 1] as string });
      }
      if (list.length) attrs = list;
    }
    const el = new Element(local, ns ?? '', NO_CHILDREN, '');
    if (prefix) el.prefix = prefix;
    if (attrs !== NO_ATTRS) el.attrs = attrs;
    if (parent) {
      this.pending.push(el);
    } else if (this.root) {
      throw new XmlError('The XML has more than one root element');
    } else {
      this.root = el;
    }
    if (!selfClosing) {
      this.stack.push({ qname, el, scope, first: this.pending.length });
      this.ancestors.push(el);
    } else if (parent && this.onClose?.(el, this.ancestors)) {
      this.pending.pop();
    }
  }
}

/** Namespace declarations XML 1.0 forbids (Namespaces in XML §3): they would bind names to nothing or to the reserved URIs. */
function declarationProblem(prefix: string, uri: string): string | undefined {
  if (prefix === 'xmlns') return 'the prefix xmlns cannot be declared';
  if (prefix === 'xml') return uri === XML_NS ? undefined : `the prefix xml can only be bound to ${XML_NS}`;
  if (uri === XML_NS || uri === XMLNS_NS) return `${uri} is reserved and cannot be bound to ${prefix ? `the prefix ${prefix}` : 'the default namespace'}`;
  if (prefix && uri === '') return `xmlns:${prefix}="" cannot undeclare a prefix in XML 1.0`;
  return undefined;
}

/** Parses a whole document (no byte-order mark, not blank) into its root element. */
export function parseDocument(text: string, onClose?: CloseHook): XmlElement {
  return new Parser(text, onClose).parse();
}
