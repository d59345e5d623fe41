/**
 * QName-valued attributes (`type="dat:TransitPoint"`, `element="tns:GetRateQuote"`,
 * `base="s:string"`) name things through the namespace declarations in scope where they are
 * written. Core's XML reader resolves element and attribute names but keeps no declarations, so
 * this walks the same text once more, start tag by start tag in document order, and pairs each
 * start tag with the element the reader built for it. The text has already been read as
 * well-formed XML by then, so this scan only has to find tags, not judge them.
 */
import { decodeEntities, XmlError, type XmlElement } from '../xml/dom';

export interface QName {
  readonly ns: string;
  readonly local: string;
}

export const qnameKey = (q: QName): string => `{${q.ns}}${q.local}`;

/** The prefixes in scope at each element of one parsed document. */
export class NamespaceScopes {
  private readonly scopes = new WeakMap<XmlElement, ReadonlyMap<string, string>>();

  constructor(text: string, root: XmlElement) {
    const declarations = startTagDeclarations(text);
    let index = 0;
    const base = new Map<string, string>([['xml', 'http://www.w3.org/XML/1998/namespace']]);
    // Iterative, in document order, so the n-th element met is the n-th start tag of the text.
    const stack: Array<{ el: XmlElement; parent: ReadonlyMap<string, string> }> = [{ el: root, parent: base }];
    while (stack.length) {
      const { el, parent } = stack.pop()!;
      const own = declarations[index++];
      if (own === undefined) throw new XmlError('namespace declarations out of step with the document');
      const scope = own.length ? new Map([...parent, ...own]) : parent;
      this.scopes.set(el, scope);
      for (let i = el.children.length - 1; i >= 0; i--) stack.push({ el: el.children[i], parent: scope });
    }
    if (index !== declarations.length) throw new XmlError('namespace declarations out of step with the document');
  }

  /** Every prefix bound at `el` ('' the default namespace), for writing a part of the document out on its own. */
  scope(el: XmlElement): ReadonlyMap<string, string> {
    return this.scopes.get(el) ?? new Map();
  }

  /**
   * The namespace and local name a QName attribute value stands for at `el`. An unprefixed name
   * takes the default namespace, as XML Schema's QName resolution does; an undeclared prefix is
   * undefined.
   */
  resolve(el: XmlElement, value: string): QName | undefined {
    const text = value.trim();
    const colon = text.indexOf(':');
    const prefix = colon < 0 ? '' : text.slice(0, colon);
    const local = colon < 0 ? text : text.slice(colon + 1);
    const ns = this.scopes.get(el)?.get(prefix);
    if (ns === undefined) return prefix === '' ? { ns: '', local } : undefined;
    return { ns, local };
  }
}

/** Each start tag's `xmlns` / `xmlns:p` declarations, in document order (`''` is the default namespace). */
function startTagDeclarations(s: string): Array<Array<[string, string]>> {
  const out: Array<Array<[string, string]>> = [];
  let pos = 0;
  for (;;) {
    const lt = s.indexOf('<', pos);
    if (lt < 0) return out;
    if (s.startsWith('<!--', lt)) {
      pos = after(s, '-->', lt + 4);
      continue;
    }
    if (s.startsWith('<![CDATA[', lt)) {
      pos = after(s, ']]>', lt + 9);
      continue;
    }
    if (s.startsWith('<?', lt)) {
      pos = after(s, '?>', lt + 2);
      continue;
    }
    if (s[lt + 1] === '/' || s[lt + 1] === '!') {
      pos = after(s, '>', lt + 1);
      continue;
    }
    const own: Array<[string, string]> = [];
    // Attribute values may hold `>`: step over quoted values rather than search for the end.
    let i = lt + 1;
    while (i < s.length && s[i] !== '>') {
      const eq = s.indexOf('=', i);
      const close = s.indexOf('>', i);
      if (eq < 0 || (close >= 0 && close < eq)) {
        i = close < 0 ? s.length : close;
        break;
      }
      const name = s.slice(i, eq).trim().split(/\s+/).pop() ?? '';
      let q = eq + 1;
      while (/\s/.test(s[q] ?? '')) q++;
      const quote = s[q];
      const end = s.indexOf(quote, q + 1);
      const value = decodeEntities(s.slice(q + 1, end));
      if (name === 'xmlns') own.push(['', value]);
      else if (name.startsWith('xmlns:')) own.push([name.slice(6), value]);
      i = end + 1;
    }
    out.push(own);
    pos = i + 1;
  }
}

function after(s: string, marker: string, from: number): number {
  const at = s.indexOf(marker, from);
  return at < 0 ? s.length : at + marker.length;
}
