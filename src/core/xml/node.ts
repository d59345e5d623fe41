/** The element tree every XML reader in the workbench shares, and its one error type. */

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
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
    readonly code = 'malformed',
  ) {
    super(line !== undefined ? `${message} (line ${line}, column ${column})` : message);
    this.name = 'XmlError';
  }
}

/**
 * A document refused for its size or shape, not its syntax: it passed one of the reader's limits
 * (parser.ts). `limit` is the number passed; the message names it and where it was passed.
 */
export class XmlLimitError extends XmlError {
  constructor(
    message: string,
    line: number,
    column: number,
    code: string,
    readonly limit: number,
  ) {
    super(message, line, column, code);
  }
}

export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

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

/** 1-based line and column of a character offset, for messages. */
export function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return { line, column: offset - last };
}
