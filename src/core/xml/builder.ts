/**
 * Building XML to send: elements with namespaces, attributes and text, serialized as the DOM
 * Parsing spec's namespace-aware serialization does (a prefix or a default `xmlns` declared where
 * an element first needs it, never repeated below), optionally pretty-printed: one element per
 * line, two-space indent, text-only elements on one line, `<empty/>` elements.
 *
 * Written for the envelope builder and the sandbox's replies, which together built a few hundred
 * DOM nodes per request through a general-purpose DOM library; this keeps plain arrays and writes
 * one string.
 */
import { XML_NS, XMLNS_NS } from './node';

interface Attribute {
  readonly ns: string | null;
  readonly qname: string;
  readonly value: string;
}

type Prefixes = ReadonlyMap<string, string>;

export interface SerializeOptions {
  /** One element per line, indented; text-only elements stay on one line. */
  readonly prettyPrint?: boolean;
  readonly indent?: string;
  readonly newline?: string;
  /** Leave out `<?xml version="1.0" encoding="utf-8"?>`. */
  readonly headless?: boolean;
}

const escapeText = (s: string) => (/[&<>]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);
const escapeAttr = (s: string) => (/[&<>"]/.test(s) ? escapeText(s).replace(/"/g, '&quot;') : s);

function split(qname: string): [string | null, string] {
  const i = qname.indexOf(':');
  return i < 0 ? [null, qname] : [qname.slice(0, i), qname.slice(i + 1)];
}

/** The prefix to write for `ns`: `preferred` when it is bound to it, else the last one bound to it. */
function prefixFor(map: Prefixes, ns: string, preferred: string | null): string | undefined {
  if (preferred !== null && map.get(preferred) === ns) return preferred;
  let found: string | undefined;
  for (const [p, uri] of map) if (uri === ns) found = p;
  return found;
}

/** Serialization settings, with each level's indent made once per document. */
interface Layout {
  readonly pretty: boolean;
  readonly indent: string;
  readonly newline: string;
  readonly pads: string[];
}

function padOf(o: Layout, level: number): string {
  if (!o.pretty) return '';
  let pad = o.pads[level];
  if (pad === undefined) o.pads[level] = pad = o.indent.repeat(level);
  return pad;
}

/** Leaves share these until they are given an attribute or a child: most elements never get both. */
const NO_ATTRS: Attribute[] = [];
const NO_CHILDREN: (XmlNode | string)[] = [];

export class XmlNode {
  private attrs = NO_ATTRS;
  private children = NO_CHILDREN;

  constructor(
    private readonly ns: string | null,
    private readonly qname: string,
  ) {}

  /** A child element: `ele(ns, 'prefix:name')`, `ele(ns, 'name')` (default namespace) or `ele('name')` (no namespace). */
  ele(nsOrName: string, qname?: string): XmlNode {
    const child = qname === undefined ? new XmlNode(null, nsOrName) : new XmlNode(nsOrName || null, qname);
    if (this.children === NO_CHILDREN) this.children = [child];
    else this.children.push(child);
    return child;
  }

  /** An attribute: `att(ns, 'prefix:name', value)` or `att('name', value)`. */
  att(nsOrName: string, qnameOrValue: string, value?: string): this {
    const a = value === undefined ? { ns: null, qname: nsOrName, value: qnameOrValue } : { ns: nsOrName || null, qname: qnameOrValue, value };
    if (this.attrs === NO_ATTRS) this.attrs = [a];
    else this.attrs.push(a);
    return this;
  }

  txt(text: string): this {
    if (text === '') return this;
    if (this.children === NO_CHILDREN) this.children = [text];
    else this.children.push(text);
    return this;
  }

  /**
   * This element and what it holds, appended to `out`. Written as one growing string: V8 joins
   * appended pieces lazily, which costs less than an array of a few hundred pieces and a join.
   * @internal
   */
  write(out: string, inherited: string | null, map: Prefixes, level: number, o: Layout): string {
    const colon = this.qname.indexOf(':');
    const prefix = colon < 0 ? null : this.qname.slice(0, colon);
    const local = colon < 0 ? this.qname : this.qname.slice(colon + 1);
    const ns = this.ns;
    const attrs = this.attrs;
    // Declarations written as attributes are in scope for the element itself.
    let scope = map;
    // Indexed loops throughout: for-of here made an iterator and a result object per step.
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i];
      if (a.ns !== XMLNS_NS || a.qname === 'xmlns') continue;
      if (scope === map) scope = new Map(map);
      (scope as Map<string, string>).set(split(a.qname)[1], a.value);
    }
    let name: string;
    let declare = '';
    if (ns === inherited) {
      name = ns === XML_NS ? `xml:${local}` : local;
    } else {
      const known = ns === null ? undefined : prefixFor(scope, ns, prefix);
      if (known !== undefined) {
        name = `${known}:${local}`;
      } else if (prefix !== null && ns !== null) {
        if (scope === map) scope = new Map(map);
        (scope as Map<string, string>).set(prefix, ns);
        name = `${prefix}:${local}`;
        declare = ` xmlns:${prefix}="${escapeAttr(ns)}"`;
      } else {
        name = local;
        declare = ` xmlns="${escapeAttr(ns ?? '')}"`;
        inherited = ns;
      }
    }
    const pretty = o.pretty;
    const pad = padOf(o, level);
    out += `${pad}<${name}${declare}`;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i];
      if (a.ns === null || a.ns === XMLNS_NS) out += ` ${a.qname}="${escapeAttr(a.value)}"`;
      else if (a.ns === XML_NS) out += ` xml:${split(a.qname)[1]}="${escapeAttr(a.value)}"`;
      else {
        const [ap, al] = split(a.qname);
        let use = prefixFor(scope, a.ns, ap);
        if (use === undefined) {
          use = ap ?? 'ns1';
          if (scope === map) scope = new Map(map);
          (scope as Map<string, string>).set(use, a.ns);
          out += ` xmlns:${use}="${escapeAttr(a.ns)}"`;
        }
        out += ` ${use}:${al}="${escapeAttr(a.value)}"`;
      }
    }
    const kids = this.children;
    if (!kids.length) return `${out}/>`;
    let textOnly = true;
    for (let i = 0; i < kids.length; i++)
      if (typeof kids[i] !== 'string') {
        textOnly = false;
        break;
      }
    if (textOnly) {
      out += '>';
      for (let i = 0; i < kids.length; i++) out += escapeText(kids[i] as string);
      return `${out}</${name}>`;
    }
    out += pretty ? `>${o.newline}` : '>';
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (typeof k === 'string') out += pretty ? `${padOf(o, level + 1)}${escapeText(k)}${o.newline}` : escapeText(k);
      else {
        // An element writes no line end of its own; its parent ends the line.
        out = k.write(out, inherited, scope, level + 1, o);
        if (pretty) out += o.newline;
      }
    }
    return `${out}${pad}</${name}>`;
  }
}

/** A document with an XML declaration (`version="1.0" encoding="utf-8"`) and one root. */
export class XmlDocument {
  private root?: XmlNode;

  ele(ns: string, qname: string): XmlNode {
    if (this.root) throw new Error('an XML document has one root element');
    return (this.root = new XmlNode(ns || null, qname));
  }

  end(options: SerializeOptions = {}): string {
    const o: Layout = { pretty: options.prettyPrint ?? false, indent: options.indent ?? '  ', newline: options.newline ?? '\n', pads: [] };
    let text = options.headless ? '' : `<?xml version="1.0" encoding="utf-8"?>${o.pretty ? o.newline : ''}`;
    if (this.root) text = this.root.write(text, null, new Map(), 0, o);
    if (o.pretty && text.endsWith(o.newline)) text = text.slice(0, -o.newline.length);
    return text;
  }
}

export function xmlDocument(): XmlDocument {
  return new XmlDocument();
}
