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
 *
 * Time is linear in the text and memory linear in what is kept, whatever the shape: namespace
 * declarations go on one undo stack instead of a copied map per element, repeated attributes are
 * found with a set, and every count a hostile peer could grow without bound (elements,
 * attributes, declarations, name and text lengths) has a limit below, each refused with its own
 * XmlLimitError code, located where it was passed. The caller keeps the raw bytes either way.
 */
import { decodeEntities, position, XML_NS, XMLNS_NS, XmlError, XmlLimitError, type XmlAttribute, type XmlElement } from './node';

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
 * Elements in one document; one more is refused with 'too-many-elements'. An element read costs
 * about 100 bytes, in the tree or in what a close hook made of it, against the 4 of `<a/>`: this
 * is what bounds a reader's memory. The largest honest reply is a 10,000-shipment trace, 1,040,227
 * elements (bench/fixtures/bigReplies.ts); 1,500,000 leaves room for half as much again. A large
 * document is counted in one scan before anything is built, so a flood of 2 million siblings
 * costs a read of its text, not a tree. libxml2 and .NET's XmlReader count no elements; only the
 * size of the input bounds them.
 */
export const MAX_ELEMENTS = 1_500_000;

/**
 * Attributes on one element, namespace declarations included ('too-many-attributes'). The
 * service writes at most three (on the envelope); .NET's XmlDictionaryReaderQuotas bound a whole
 * start tag to 4,096 bytes (MaxBytesPerRead, so that attribute uniqueness can be checked), a few
 * hundred attributes at most; libxml2 allows 100 million, checked with a hash table as here.
 */
export const MAX_ATTRIBUTES = 1000;

/**
 * Attributes in one document, declarations included ('too-many-attributes-total'): an attribute
 * kept costs about 70 bytes against 6 of ` a=""`, so elements within MAX_ELEMENTS each carrying
 * MAX_ATTRIBUTES would otherwise be gigabytes. The 10,000-shipment trace has 130,006 (each
 * record's parts redeclare their default namespace).
 */
export const MAX_ATTRIBUTES_TOTAL = 500_000;

/**
 * Namespace declarations on one element ('too-many-declarations'). The service declares at most
 * three on one element (soap, xsi and xsd on the envelope); a WSDL a few dozen.
 */
export const MAX_DECLARATIONS = 100;

/**
 * Distinct prefixes bound at once ('too-many-namespaces'). Redeclaring a prefix, or the default
 * namespace (xmlns="…" on every element, as .NET serializers do), does not add one; a namespace
 * bomb, nested elements each binding new prefixes, does. .NET's default name table holds 16,384 characters of names and
 * namespaces in all (MaxNameTableCharCount), some hundreds of declarations.
 */
export const MAX_NAMESPACES_IN_SCOPE = 1000;

/**
 * Characters in one element or attribute name, prefix included ('name-too-long'). The service's
 * longest is under 40; libxml2 allows 50,000 (XML_MAX_NAME_LENGTH) and .NET's whole name table
 * 16,384.
 */
export const MAX_NAME_LENGTH = 1000;

/**
 * Characters in one element's text (its text and CDATA joined) or one attribute value
 * ('text-too-long'). libxml2 stops at 10,000,000 (XML_MAX_TEXT_LENGTH) unless told
 * XML_PARSE_HUGE, which would refuse the service's own GetBillOfLadingPdf reply: a 15 MB PDF is
 * one 20 MB base64 text node. 50,000,000 reads a PDF of up to about 37 MB.
 */
export const MAX_TEXT_LENGTH = 50_000_000;

/**
 * Characters of text and attribute values in one document ('too-much-text'). Above anything the
 * default byte caps let through (64 MiB replies, carrier.maxReplyBytes; 16 MiB bodies in the
 * inspector; 8 MiB requests in the sandbox), so it binds only where a cap was raised.
 */
export const MAX_TOTAL_TEXT = 100_000_000;

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
  constructor(
    public local: string,
    public ns: string,
    public children: XmlElement[],
    public text: string,
  ) {}
}

/** A name as checked once and kept in `names`, split at its colon. */
interface Name {
  readonly qname: string;
  readonly prefix: string;
  readonly local: string;
}

/** An open element; one object per depth, reused by each element opened at that depth (Parser.frames). */
interface Frame {
  name: Name;
  el: Element;
  /** Where this element's declarations start in `Parser.undo`. */
  mark: number;
  /** Where this element's children start in `Parser.pending`. */
  first: number;
  /** Characters of text so far. */
  length: number;
  /**
   * Text pieces after the first (text split by comments, CDATA or child elements), joined when
   * the element closes: `a + b` for each piece would build a string of one 32-byte node per
   * piece, eight times `x<!---->` itself. Every PIECES pieces are joined into `chunks`.
   */
  parts?: string[];
  chunks?: string[];
}

const PIECES = 1024;
/** Below this many, a scan of the ones seen is faster than building a set. */
const SCAN = 8;

/** Leaves share these until they get a child or an attribute: most elements never do. */
const NO_CHILDREN: XmlElement[] = Object.freeze([]) as unknown as XmlElement[];
const NO_ATTRS: readonly XmlAttribute[] = Object.freeze([]);

Element.prototype.prefix = '';
Element.prototype.attrs = NO_ATTRS;

/** XML 1.0 (fifth edition) Name: NameStartChar then NameChar, exactly (§2.3). */
const NAME_START =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME = new RegExp(`^[${NAME_START}][\\u0300-\\u036F${NAME_START}\\-.0-9\\u00B7\\u203F-\\u2040]*$`, 'u');
const REFERENCE = /&(?:#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_:][A-Za-z0-9._:-]*);/y;
const PREDEFINED = new Set(['lt', 'gt', 'amp', 'quot', 'apos']);
/** XML 1.0 Char production: no NUL, no other C0 controls but tab/newline/return, no surrogates, no U+FFFE/FFFF. */
const xmlChar = (c: number) =>
  c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
/**
 * What the Char production refuses written as itself (not as a reference): a C0 control but tab,
 * newline and return, a lone surrogate (in a `u` pattern a class matches a surrogate only when it
 * is not half of a pair), U+FFFE, U+FFFF. One character-class test of the whole document: a
 * reply passes it at memory speed, a few milliseconds for 12 million characters.
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_LITERAL = /[\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/u;
const hex4 = (c: number) => c.toString(16).toUpperCase().padStart(4, '0');

/**
 * Names already checked, shared by every parse: a service uses a few hundred, and checking each
 * with NAME in every reply was a tenth of parsing one. Bounded, for a peer sending made-up names.
 */
const names = new Map<string, Name>();
const NAMES_LIMIT = 4096;

/**
 * The name last met for each length and first character, compared in place with the text: most
 * tags repeat a name already met, and finding it so cuts no string out of the document for the
 * lookup in `names` (a tenth of what parsing a reply allocates). Direct-mapped: a slot holds one
 * name, replaced by the next of its shape; a name longer than the slots is looked up in `names`.
 */
const recent: (Name | undefined)[] = new Array(64 * 128).fill(undefined);
function recentSlot(s: string, start: number, end: number): number {
  const length = end - start;
  const first = s.charCodeAt(start);
  return length > 0 && length < 64 && first < 128 ? (length << 7) | first : -1;
}
function sameName(s: string, start: number, qname: string): boolean {
  for (let i = 1; i < qname.length; i++) if (s.charCodeAt(start + i) !== qname.charCodeAt(i)) return false;
  return true;
}

/**
 * A copy that holds no reference to the document. V8 makes a slice of 13 characters or more a
 * view into the string it was cut from, so a cached slice kept each document whose name it first
 * was alive as long as the cache: up to 4,096 bodies in a sandbox or inspector that runs for days.
 */
const detached = (s: string) => s.split('').join('');

const count = (n: number) => n.toLocaleString('en-US');

/** Namespaces in XML: at most one colon, with a name on each side of it. */
const qualified = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 || (colon > 0 && colon < name.length - 1 && name.indexOf(':', colon + 1) < 0);
};

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
/** Where a tag or attribute name stops: a space, '>', '/' or '='. */
const endsName = (c: number) => c <= 0x3e && (isSpace(c) || c === 0x3e || c === 0x2f || c === 0x3d);

/** Raw attributes of one start tag, three entries each: the name, the decoded value, the offset. */
type RawAttributes = (Name | string | number)[];

class Parser {
  private pos = 0;
  private readonly stack: Frame[] = [];
  /** Frames by depth, kept for the next element at that depth: no object per element opened. */
  private readonly frames: Frame[] = [];
  /**
   * Children of the open elements, collected here and copied out when their parent closes: a
   * million-element reply then has arrays of exactly the right length, where arrays grown by
   * push would carry spare capacity — a third of the tree's memory.
   */
  private readonly pending: XmlElement[] = [];
  /** The open elements, outermost first, for the close hook. */
  private readonly ancestors: XmlElement[] = [];
  private root: XmlElement | undefined;
  /** Prefix → namespace for the element being read: one map, changed as elements open and close. */
  private readonly bindings = new Map<string, string>([
    ['xml', XML_NS],
    ['xmlns', XMLNS_NS],
  ]);
  /**
   * What each declaration of the open elements replaced, two entries each (prefix, the URI it
   * had or undefined), popped when its element closes. A copy of the map per declaring element
   * made a namespace bomb cost its depth times its prefixes.
   */
  private readonly undo: (string | undefined)[] = [];
  private elements = 0;
  private attributes = 0;
  private textTotal = 0;

  constructor(
    private readonly s: string,
    private readonly onClose?: CloseHook,
  ) {}

  parse(): XmlElement {
    const s = this.s;
    const n = s.length;
    // Counted before anything is built, so that a flood of elements is refused in one quick scan
    // instead of after most of a tree the size of the limit. No element is shorter than <a/>, so
    // a shorter text cannot pass the limit and is not scanned.
    if (n >= 4 * (MAX_ELEMENTS + 1)) {
      const past = elementPast(s, MAX_ELEMENTS);
      if (past >= 0) throw this.tooManyElements(past);
    }
    // Refused as literals as they are as references (decode below): a raw ESC in a fault string
    // is no more XML than &#27; is.
    const bad = FORBIDDEN_LITERAL.exec(s);
    if (bad) throw this.fail(bad.index, `U+${hex4(s.charCodeAt(bad.index))} (written as itself) is not a character XML allows`);
    while (this.pos < n) {
      const lt = s.indexOf('<', this.pos);
      const end = lt < 0 ? n : lt;
      if (end > this.pos) this.characters(this.pos, end);
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

  /**
   * After a limit stopped the reading: the open elements closed where it stopped (each with its
   * text and the children read so far), innermost first, and the root returned — what was read
   * before the limit, no deeper than the limit allows. Undefined when nothing was built.
   */
  keptSoFar(): XmlElement | undefined {
    for (let d = this.stack.length - 1; d >= 0; d--) {
      const top = this.stack[d];
      if (top.parts) top.el.text = [...(top.chunks ?? []), top.parts.join('')].join('');
      if (this.pending.length > top.first) top.el.children = this.pending.splice(top.first);
    }
    this.stack.length = 0;
    return this.root;
  }

  private fail(offset: number, message: string): XmlError {
    const { line, column } = position(this.s, offset);
    return new XmlError(`Malformed XML: ${message}`, line, column);
  }

  private limit(offset: number, message: string, code: string, limit: number): XmlLimitError {
    const { line, column } = position(this.s, offset);
    return new XmlLimitError(message, line, column, code, limit);
  }

  private tooManyElements(lt: number): XmlLimitError {
    return this.limit(lt, `The XML has more than ${count(MAX_ELEMENTS)} elements`, 'too-many-elements', MAX_ELEMENTS);
  }

  private truncated(): XmlError {
    const open = this.stack[this.stack.length - 1]?.name.qname;
    const { line, column } = position(this.s, this.s.trimEnd().length);
    return new XmlError(
      `The XML ends before ${open ? `<${open}> is closed` : 'it is complete'}: the body is truncated or incomplete`,
      line,
      column,
      'truncated',
    );
  }

  /** The offset of `token` at or after `from`; the text ending first means it was cut short. */
  private until(token: string, from: number): number {
    const at = this.s.indexOf(token, from);
    if (at < 0) throw this.truncated();
    return at;
  }

  /** Where the name starting at `start` ends; a name longer than allowed is refused before it is read to its end. */
  private nameEnd(start: number): number {
    const s = this.s;
    const stop = Math.min(s.length, start + MAX_NAME_LENGTH + 1);
    let i = start;
    while (i < stop && !endsName(s.charCodeAt(i))) i++;
    if (i > start + MAX_NAME_LENGTH)
      throw this.limit(start, `The XML has a name longer than ${count(MAX_NAME_LENGTH)} characters`, 'name-too-long', MAX_NAME_LENGTH);
    return i;
  }

  private name(start: number, end: number): Name {
    const slot = recentSlot(this.s, start, end);
    const known = slot >= 0 ? recent[slot] : undefined;
    if (known !== undefined && sameName(this.s, start, known.qname)) return known;
    const raw = this.s.slice(start, end);
    let name = names.get(raw);
    if (name === undefined) {
      if (!NAME.test(raw)) throw this.fail(start, raw ? `"${raw}" is not a valid name` : 'a name is missing after "<"');
      if (!qualified(raw))
        throw this.fail(
          start,
          raw === 'xmlns:' ? '"xmlns:" declares an empty prefix' : `"${raw}" is not a qualified name: a colon must separate a prefix from a local name, once`,
        );
      if (names.size >= NAMES_LIMIT) {
        names.clear();
        recent.fill(undefined);
      }
      const qname = detached(raw);
      const colon = qname.indexOf(':');
      name = colon < 0 ? { qname, prefix: '', local: qname } : { qname, prefix: qname.slice(0, colon), local: qname.slice(colon + 1) };
      names.set(qname, name);
    }
    if (slot >= 0) recent[slot] = name;
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
      if (ref[0] !== '#' && !PREDEFINED.has(ref))
        throw this.fail(at + a, `&${ref}; is not an entity XML predefines (&lt; &gt; &amp; &quot; &apos;); others need a DTD, which is refused`);
      if (ref[0] === '#' && !xmlChar(ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)))
        throw this.fail(at + a, `&${ref}; is not a character XML allows`);
    }
    return decodeEntities(raw);
  }

  /** Counts `length` characters of text or attribute value, starting at `at`, against the document's total. */
  private countText(length: number, at: number): void {
    this.textTotal += length;
    if (this.textTotal > MAX_TOTAL_TEXT)
      throw this.limit(at, `The XML has more than ${count(MAX_TOTAL_TEXT)} characters of text in all`, 'too-much-text', MAX_TOTAL_TEXT);
  }

  private characters(start: number, end: number): void {
    this.pos = end;
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      for (let i = start; i < end; i++)
        if (!isSpace(this.s.charCodeAt(i))) throw this.fail(i, this.root ? 'text after the root element' : 'text before the root element');
      return;
    }
    this.addText(top, this.decode(this.s.slice(start, end), start), start);
  }

  private addText(top: Frame, piece: string, at: number): void {
    if (!piece) return;
    if (top.length + piece.length > MAX_TEXT_LENGTH)
      throw this.limit(at, `The XML has more than ${count(MAX_TEXT_LENGTH)} characters of text in <${top.name.qname}>`, 'text-too-long', MAX_TEXT_LENGTH);
    this.countText(piece.length, at);
    top.length += piece.length;
    // The first piece is the element's text until a second one comes: most text is one piece,
    // and a slice of the document costs nothing more.
    if (!top.parts) {
      if (top.el.text === '') {
        top.el.text = piece;
        return;
      }
      top.parts = [top.el.text];
    }
    top.parts.push(piece);
    if (top.parts.length >= PIECES) {
      (top.chunks ??= []).push(top.parts.join(''));
      top.parts = [];
    }
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
    if (!NAME.test(target) || target.includes(':'))
      throw this.fail(lt, target ? `"<?${target}" is not a processing instruction: its target is not a name` : 'a processing instruction has no target');
    if (target.toLowerCase() === 'xml' && (lt !== 0 || target !== 'xml'))
      throw this.fail(lt, lt === 0 ? `"<?${target}" must be written <?xml` : 'the XML declaration is allowed only at the very start of the document');
    this.pos = end + 2;
  }

  private bang(lt: number): void {
    const s = this.s;
    if (s.startsWith('<!--', lt)) {
      this.pos = this.until('-->', lt + 4) + 3;
      return;
    }
    if (s.startsWith('<![CDATA[', lt)) {
      const end = this.until(']]>', lt + 9);
      const top = this.stack[this.stack.length - 1];
      if (!top) throw this.fail(lt, 'CDATA outside the root element');
      this.addText(top, s.slice(lt + 9, end), lt + 9);
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
    const top = this.stack.pop();
    // Compared in place and quoted cut short: an end tag's name is not read as a name, and may
    // be any length.
    if (!top) throw this.fail(lt, `</${s.slice(lt + 2, Math.min(end, lt + 2 + MAX_NAME_LENGTH))}> closes nothing`);
    if (end - (lt + 2) !== top.name.qname.length || !s.startsWith(top.name.qname, lt + 2))
      throw this.fail(lt, `</${s.slice(lt + 2, Math.min(end, lt + 2 + MAX_NAME_LENGTH))}> found where </${top.name.qname}> was expected`);
    if (top.parts) {
      const chunks = top.chunks ?? [];
      chunks.push(top.parts.join(''));
      top.el.text = chunks.join('');
    }
    if (this.pending.length > top.first) top.el.children = this.pending.splice(top.first);
    this.unbind(top.mark);
    this.ancestors.pop();
    // The element itself is the last one pending: its own children were taken out above.
    if (this.onClose && this.stack.length && this.onClose(top.el, this.ancestors)) this.pending.pop();
    this.pos = gt + 1;
  }

  private startTag(lt: number): void {
    const s = this.s;
    const n = s.length;
    let i = this.nameEnd(lt + 1);
    if (i >= n) throw this.truncated();
    const name = this.name(lt + 1, i);
    const qname = name.qname;
    let raw: RawAttributes | undefined;
    /** The attribute names so far, once there are too many to scan. */
    let seen: Set<string> | undefined;
    let selfClosing = false;
    for (;;) {
      let j = i;
      while (j < n && isSpace(s.charCodeAt(j))) j++;
      if (j >= n) throw this.truncated();
      const c = s.charCodeAt(j);
      if (c === 0x3e /* > */) {
        this.pos = j + 1;
        break;
      }
      if (c === 0x2f /* / */) {
        if (j + 1 >= n) throw this.truncated();
        if (s.charCodeAt(j + 1) !== 0x3e) throw this.fail(j, `"/" inside <${qname}> must be followed by ">"`);
        selfClosing = true;
        this.pos = j + 2;
        break;
      }
      if (j === i) throw this.fail(j, `attributes of <${qname}> must be separated by whitespace`);
      if (raw && raw.length / 3 >= MAX_ATTRIBUTES)
        throw this.limit(j, `The XML gives <${qname}> more than ${count(MAX_ATTRIBUTES)} attributes`, 'too-many-attributes', MAX_ATTRIBUTES);
      if (++this.attributes > MAX_ATTRIBUTES_TOTAL)
        throw this.limit(j, `The XML has more than ${count(MAX_ATTRIBUTES_TOTAL)} attributes in all`, 'too-many-attributes-total', MAX_ATTRIBUTES_TOTAL);
      let k = this.nameEnd(j);
      const attr = this.name(j, k);
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      if (k >= n) throw this.truncated();
      if (s.charCodeAt(k) !== 0x3d /* = */) throw this.fail(j, `attribute ${attr.qname} of <${qname}> has no value`);
      k++;
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      if (k >= n) throw this.truncated();
      const quote = s[k];
      if (quote !== '"' && quote !== "'") throw this.fail(k, `the value of attribute ${attr.qname} of <${qname}> must be in quotes`);
      const close = this.until(quote, k + 1);
      if (close - (k + 1) > MAX_TEXT_LENGTH)
        throw this.limit(
          k + 1,
          `The XML has more than ${count(MAX_TEXT_LENGTH)} characters in attribute ${attr.qname} of <${qname}>`,
          'text-too-long',
          MAX_TEXT_LENGTH,
        );
      const value = s.slice(k + 1, close);
      if (value.indexOf('<') >= 0) throw this.fail(k + 1 + value.indexOf('<'), `"<" in the value of attribute ${attr.qname}`);
      raw ??= [];
      if (seen) {
        if (seen.has(attr.qname)) throw this.fail(j, `attribute ${attr.qname} of <${qname}> is repeated`);
        seen.add(attr.qname);
      } else {
        for (let a = 0; a < raw.length; a += 3)
          if ((raw[a] as Name).qname === attr.qname) throw this.fail(j, `attribute ${attr.qname} of <${qname}> is repeated`);
        if (raw.length / 3 + 1 >= SCAN) {
          seen = new Set([attr.qname]);
          for (let a = 0; a < raw.length; a += 3) seen.add((raw[a] as Name).qname);
        }
      }
      const decoded = this.decode(value, k + 1);
      this.countText(decoded.length, k + 1);
      raw.push(attr, decoded, j);
      i = close + 1;
    }
    this.open(name, raw, lt, selfClosing);
  }

  /** Binds `prefix` for the element being opened, keeping what it replaces for `unbind`. */
  private bind(prefix: string, uri: string, at: number): void {
    const problem = declarationProblem(prefix, uri);
    if (problem) throw this.fail(at, problem);
    const previous = this.bindings.get(prefix);
    // xml and xmlns are bound from the start, and the default namespace is no prefix: none counts.
    if (previous === undefined && prefix && this.bindings.size - (this.bindings.has('') ? 3 : 2) >= MAX_NAMESPACES_IN_SCOPE) {
      throw this.limit(
        at,
        `The XML has more than ${count(MAX_NAMESPACES_IN_SCOPE)} namespace prefixes in scope at once`,
        'too-many-namespaces',
        MAX_NAMESPACES_IN_SCOPE,
      );
    }
    this.undo.push(prefix, previous);
    this.bindings.set(prefix, uri);
  }

  /** Undoes the declarations made since `mark`, newest first. */
  private unbind(mark: number): void {
    const undo = this.undo;
    while (undo.length > mark) {
      const previous = undo.pop();
      const prefix = undo.pop() as string;
      if (previous === undefined) this.bindings.delete(prefix);
      else this.bindings.set(prefix, previous);
    }
  }

  private open(name: Name, raw: RawAttributes | undefined, lt: number, selfClosing: boolean): void {
    const { qname, prefix, local } = name;
    if (this.stack.length >= MAX_DEPTH) throw this.limit(lt, `The XML nests elements deeper than ${count(MAX_DEPTH)} levels`, 'too-deep', MAX_DEPTH);
    if (++this.elements > MAX_ELEMENTS) throw this.tooManyElements(lt);
    const parent = this.stack[this.stack.length - 1];
    const mark = this.undo.length;
    let declared = 0;
    if (raw) {
      for (let a = 0; a < raw.length; a += 3) {
        const attr = raw[a] as Name;
        if (attr.qname !== 'xmlns' && attr.prefix !== 'xmlns') continue;
        if (++declared > MAX_DECLARATIONS)
          throw this.limit(
            raw[a + 2] as number,
            `The XML declares more than ${count(MAX_DECLARATIONS)} namespaces on <${qname}>`,
            'too-many-declarations',
            MAX_DECLARATIONS,
          );
        this.bind(attr.prefix ? attr.local : '', raw[a + 1] as string, raw[a + 2] as number);
      }
    }
    const ns = this.bindings.get(prefix);
    if (prefix === 'xmlns') throw this.fail(lt + 1, `<${qname}>: the prefix xmlns is reserved for namespace declarations`);
    if (prefix && ns === undefined) {
      const { line, column } = position(this.s, lt);
      throw new XmlError(`The prefix "${prefix}" of <${qname}> is not declared`, line, column);
    }
    let attrs = NO_ATTRS;
    if (raw && raw.length / 3 > declared) {
      const list: XmlAttribute[] = [];
      /** `local uri` of the prefixed attributes so far, once there are too many to scan; a local name has no space. */
      let expanded: Set<string> | undefined;
      let prefixed = 0;
      for (let a = 0; a < raw.length; a += 3) {
        const attr = raw[a] as Name;
        if (attr.qname === 'xmlns' || attr.prefix === 'xmlns') continue;
        const ap = attr.prefix;
        // Unprefixed attributes are in no namespace (XML Namespaces §6.2).
        const uri = ap ? this.bindings.get(ap) : '';
        if (uri === undefined) throw this.fail(raw[a + 2] as number, `the prefix "${ap}" of attribute ${attr.qname} is not declared`);
        if (ap) {
          // a:x and b:x with a and b bound to one URI are the same attribute (Namespaces in XML §6.3).
          const repeated = expanded ? expanded.has(`${attr.local} ${uri}`) : list.some((o) => o.ns === uri && o.local === attr.local);
          if (repeated) throw this.fail(raw[a + 2] as number, `attribute ${attr.qname} of <${qname}> repeats another in namespace ${uri}`);
          if (expanded) expanded.add(`${attr.local} ${uri}`);
          else if (++prefixed >= SCAN)
            expanded = new Set(
              list
                .filter((o) => o.prefix)
                .map((o) => `${o.local} ${o.ns}`)
                .concat(`${attr.local} ${uri}`),
            );
        }
        list.push({ local: attr.local, prefix: ap, ns: uri, value: raw[a + 1] as string });
      }
      attrs = list;
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
      const depth = this.stack.length;
      let frame = this.frames[depth];
      if (frame === undefined) this.frames[depth] = frame = { name, el, mark, first: this.pending.length, length: 0 };
      else {
        frame.name = name;
        frame.el = el;
        frame.mark = mark;
        frame.first = this.pending.length;
        frame.length = 0;
        frame.parts = undefined;
        frame.chunks = undefined;
      }
      this.stack.push(frame);
      this.ancestors.push(el);
    } else {
      this.unbind(mark);
      if (parent && this.onClose?.(el, this.ancestors)) this.pending.pop();
    }
  }
}

/**
 * Where the element past the first `limit` starts, or -1: start tags counted as the parser finds
 * them, comments, CDATA sections and processing instructions skipped as it skips them. Exact for
 * a well-formed document; in a malformed one a stray "<" (in an attribute value, say) counts as
 * an element, so it may be refused for its size rather than for the "<".
 */
function elementPast(s: string, limit: number): number {
  let elements = 0;
  for (let lt = s.indexOf('<'); lt >= 0;) {
    const c = s.charCodeAt(lt + 1);
    let next = lt + 1;
    if (c === 0x21 /* ! */) {
      if (s.startsWith('<!--', lt)) next = s.indexOf('-->', lt + 4);
      else if (s.startsWith('<![CDATA[', lt)) next = s.indexOf(']]>', lt + 9);
    } else if (c === 0x3f /* ? */) {
      next = s.indexOf('?>', lt + 2);
    } else if (c !== 0x2f /* / */ && ++elements > limit) {
      return lt;
    }
    // Cut short inside a comment, CDATA or instruction: the parser says so.
    if (next < 0) return -1;
    lt = s.indexOf('<', next);
  }
  return -1;
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

/**
 * Parses a document, keeping what was read when one of the limits stops it: the root with the
 * elements closed so far and the open chain closed where the reading stopped, and the limit
 * (`stopped`). Any other error (malformed, truncated, a DOCTYPE) is thrown as by parseDocument.
 */
export function parseDocumentKeeping(text: string, onClose?: CloseHook): { root: XmlElement; stopped?: XmlLimitError } {
  const parser = new Parser(text, onClose);
  try {
    return { root: parser.parse() };
  } catch (err) {
    const root = err instanceof XmlLimitError ? parser.keptSoFar() : undefined;
    if (!root) throw err;
    return { root, stopped: err as XmlLimitError };
  }
}
