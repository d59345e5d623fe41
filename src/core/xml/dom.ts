/**
 * XML text → a small namespace-resolved element tree. Prefixes are resolved to URIs (never
 * stripped), a DOCTYPE is refused so no entity is ever expanded or fetched, and malformed or
 * truncated input becomes an XmlError with a line and column, a document past one of the
 * reader's limits an XmlLimitError. The parsing and the limits are in parser.ts.
 */
import { XmlError, type XmlElement } from './node';
import { parseDocument, type CloseHook } from './parser';

export {
  MAX_ATTRIBUTES,
  MAX_ATTRIBUTES_TOTAL,
  MAX_DECLARATIONS,
  MAX_DEPTH,
  MAX_ELEMENTS,
  MAX_NAME_LENGTH,
  MAX_NAMESPACES_IN_SCOPE,
  MAX_TEXT_LENGTH,
  MAX_TOTAL_TEXT,
} from './parser';
export { decodeEntities, XmlError, XmlLimitError, XMLNS_NS, type XmlAttribute, type XmlElement } from './node';
export type { CloseHook } from './parser';

/** Parses a whole document and returns its root element with namespaces resolved. */
export function parseXml(text: string, onClose?: CloseHook): XmlElement {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!body.trim()) throw new XmlError('The body is empty: no XML to read', undefined, undefined, 'empty');
  return parseDocument(body, onClose);
}

export function attr(el: XmlElement, ns: string, local: string): string | undefined {
  return el.attrs.find((a) => a.ns === ns && a.local === local)?.value;
}

export function childElements(el: XmlElement, ns: string, local: string): XmlElement[] {
  return el.children.filter((c) => c.ns === ns && c.local === local);
}
