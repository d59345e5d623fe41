/**
 * XML text → a small namespace-resolved element tree. Prefixes are resolved to URIs (never
 * stripped), DOCTYPE is refused before parsing so no entity is ever expanded or fetched, and
 * malformed or truncated input becomes an XmlError with a line and column.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface XmlAttribute {
  readonly local: string;
  readonly ns: string;
  readonly prefix: string;
  readonly value: string;
}

export interface XmlElement {
  readonly local: string;
  /** Namespace URI; '' when the element is in no namespace. */
  readonly ns: string;
  readonly prefix: string;
  readonly attrs: readonly XmlAttribute[];
  readonly children: readonly XmlElement[];
  /** The element's own text (text and CDATA children joined); whitespace kept as received. */
  readonly text: string;
}

export class XmlError extends Error {
  constructor(message: string, readonly line?: number, readonly column?: number, readonly code = 'malformed') {
    super(line !== undefined ? `${message} (line ${line}, column ${column})` : message);
    this.name = 'XmlError';
  }
}

export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Entities are decoded here in one pass (see decodeEntities); the parser must not touch them.
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
  commentPropName: '#comment',
  allowBooleanAttributes: true,
});

/** Refuses a DOCTYPE anywhere in the prolog: entity expansion and external fetches are never wanted. */
function refuseDoctype(text: string): void {
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt < 0) return;
    if (text.startsWith('<?', lt)) { i = text.indexOf('?>', lt) + 2; if (i < 2) return; continue; }
    if (text.startsWith('<!--', lt)) { i = text.indexOf('-->', lt) + 3; if (i < 3) return; continue; }
    if (/^<!DOCTYPE/i.test(text.slice(lt, lt + 9))) {
      const { line, column } = position(text, lt);
      throw new XmlError('Refused: the XML declares a DOCTYPE; entities are never expanded or fetched', line, column, 'doctype');
    }
    return;
  }
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) { line++; last = i; }
  return { line, column: offset - last };
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The five predefined entities and character references; anything else is left as written. */
export function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (m, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref];
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

type Node = Record<string, unknown>;

function explainInvalid(text: string, err: { code: string; msg: string; line: number; col: number }): XmlError {
  // The validator's message for input that simply stops is unreadable; say what a person needs.
  const trimmed = text.trimEnd();
  if (err.code === 'InvalidXml' && /^Invalid '\[/.test(err.msg)) {
    const open = err.msg.match(/"([^"]+)"/g)?.map((s) => s.slice(1, -1)) ?? [];
    const { line, column } = position(text, trimmed.length);
    return new XmlError(`The XML ends before ${open.length ? `<${open[open.length - 1]}> is closed` : 'it is complete'}: the body is truncated or incomplete`, line, column, 'truncated');
  }
  return new XmlError(`Malformed XML: ${err.msg}`, err.line, err.col);
}

/** Parses a whole document and returns its root element with namespaces resolved. */
export function parseXml(text: string): XmlElement {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!body.trim()) throw new XmlError('The body is empty: no XML to read', undefined, undefined, 'empty');
  refuseDoctype(body);
  const valid = XMLValidator.validate(body, { allowBooleanAttributes: true });
  if (valid !== true) throw explainInvalid(body, valid.err);
  const nodes = parser.parse(body) as Node[];
  const roots = nodes.filter((n) => elementName(n) !== undefined);
  if (roots.length !== 1) throw new XmlError(roots.length ? 'The XML has more than one root element' : 'The XML has no root element');
  return build(roots[0], new Map([['xml', XML_NS], ['xmlns', XMLNS_NS]]));
}

function elementName(node: Node): string | undefined {
  for (const k of Object.keys(node)) if (k !== ':@' && k[0] !== '#') return k;
  return undefined;
}

function split(qname: string): [string, string] {
  const i = qname.indexOf(':');
  return i < 0 ? ['', qname] : [qname.slice(0, i), qname.slice(i + 1)];
}

function build(node: Node, inherited: ReadonlyMap<string, string>): XmlElement {
  const qname = elementName(node)!;
  const rawAttrs = (node[':@'] ?? {}) as Record<string, string>;
  let scope: Map<string, string> | ReadonlyMap<string, string> = inherited;
  for (const [name, value] of Object.entries(rawAttrs)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      if (scope === inherited) scope = new Map(inherited);
      (scope as Map<string, string>).set(name === 'xmlns' ? '' : name.slice(6), decodeEntities(String(value)));
    }
  }
  const [prefix, local] = split(qname);
  const ns = scope.get(prefix) ?? '';
  if (prefix && !scope.has(prefix)) throw new XmlError(`The prefix "${prefix}" of <${qname}> is not declared`);
  const attrs: XmlAttribute[] = [];
  for (const [name, value] of Object.entries(rawAttrs)) {
    const [ap, al] = split(name);
    if (name === 'xmlns' || ap === 'xmlns') continue;
    // Unprefixed attributes are in no namespace (XML Namespaces §6.2).
    attrs.push({ local: al, prefix: ap, ns: ap ? scope.get(ap) ?? '' : '', value: decodeEntities(String(value)) });
  }
  const children: XmlElement[] = [];
  let text = '';
  for (const child of (node[qname] as Node[]) ?? []) {
    if ('#text' in child) text += decodeEntities(String(child['#text']));
    else if ('#cdata' in child) for (const c of child['#cdata'] as Node[]) text += String(c['#text'] ?? '');
    else if ('#comment' in child) continue;
    else if (elementName(child) !== undefined) children.push(build(child, scope));
  }
  return { local, ns, prefix, attrs, children, text };
}

export function attr(el: XmlElement, ns: string, local: string): string | undefined {
  return el.attrs.find((a) => a.ns === ns && a.local === local)?.value;
}

export function childElements(el: XmlElement, ns: string, local: string): XmlElement[] {
  return el.children.filter((c) => c.ns === ns && c.local === local);
}
