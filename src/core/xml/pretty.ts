/**
 * A forgiving XML tokenizer and pretty-printer for display: the results panel (a browser bundle)
 * and `carrier inspect --show` print bodies with it, so it is plain TypeScript with no Node or DOM
 * imports. It never throws: replies can be malformed (that is often why someone is looking), so
 * anything it cannot read stays text, and should anything still go wrong the body is shown as
 * received. Bodies come from servers, so it works in one pass without recursion and in time
 * linear in the text, however deep or wide the markup (see readTag).
 */

export type PieceClass = 'punct' | 'tag' | 'prefix' | 'attr' | 'value' | 'text' | 'comment' | 'cdata' | 'decl';
export interface Piece {
  readonly cls: PieceClass;
  readonly text: string;
}
export interface Line {
  /** Levels of indentation: the nesting depth, but at most INDENT_LIMIT. */
  readonly depth: number;
  readonly pieces: readonly Piece[];
}

/**
 * Deeper lines are indented as this deep. Indenting 200,000 levels by their depth would print
 * 40 GB of spaces; real replies nest under 15 levels, and past a screen's width more indentation
 * shows nothing anyway.
 */
export const INDENT_LIMIT = 40;

interface Attr {
  readonly name: string;
  readonly raw: string;
  readonly value: string;
  readonly quote: string;
}

export type Token =
  | { kind: 'open' | 'selfclose'; name: string; attrs: Attr[]; raw: string }
  | { kind: 'close'; name: string; raw: string }
  | { kind: 'text' | 'comment' | 'cdata' | 'decl'; raw: string };

const SPECIALS: ReadonlyArray<readonly [string, string, 'comment' | 'cdata' | 'decl']> = [
  ['<!--', '-->', 'comment'],
  ['<![CDATA[', ']]>', 'cdata'],
  ['<?', '?>', 'decl'],
  ['<!', '>', 'decl'],
];

/** The tokens of `xml`; their `raw` texts joined give `xml` back, character for character. */
export function tokenize(xml: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = xml.length;
  while (i < n) {
    if (xml.charCodeAt(i) !== 0x3c /* < */) {
      const next = xml.indexOf('<', i);
      const end = next === -1 ? n : next;
      tokens.push({ kind: 'text', raw: xml.slice(i, end) });
      i = end;
      continue;
    }
    const next = xml.charCodeAt(i + 1);
    const special = next === 0x21 /* ! */ || next === 0x3f /* ? */ ? SPECIALS.find(([start]) => xml.startsWith(start, i)) : undefined;
    if (special) {
      const [start, stop, kind] = special;
      const close = xml.indexOf(stop, i + start.length);
      const end = close === -1 ? n : close + stop.length;
      tokens.push({ kind, raw: xml.slice(i, end) });
      i = end;
      continue;
    }
    const tag = readTag(xml, i);
    if (!tag) {
      // A lone '<' that starts no tag: keep it as text and move on.
      tokens.push({ kind: 'text', raw: '<' });
      i += 1;
      continue;
    }
    tokens.push(tag.token);
    i = tag.end;
  }
  return tokens;
}

const NO_ATTRS: Attr[] = Object.freeze([]) as unknown as Attr[];

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
const isNameStart = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c >= 0xc0;
const isNameChar = (c: number) => isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x3a || c === 0xb7;
/** Where an attribute name stops: space, `=`, `/`, `<`, `>`. */
const endsAttrName = (c: number) => isSpace(c) || c === 0x3d || c === 0x2f || c === 0x3c || c === 0x3e;

/**
 * A start or end tag at `start`, or undefined when the text there is no tag. Neither a name nor
 * a value may hold "<": a tag that does not close is given up at the next "<" at the latest, and
 * that "<" is where the caller goes on, so no character is scanned more than twice.
 */
function readTag(xml: string, start: number): { token: Token; end: number } | undefined {
  const n = xml.length;
  const closing = xml.charCodeAt(start + 1) === 0x2f; /* / */
  let i = start + (closing ? 2 : 1);
  if (!isNameStart(xml.charCodeAt(i))) return undefined;
  const nameStart = i;
  while (i < n && isNameChar(xml.charCodeAt(i))) i++;
  const name = xml.slice(nameStart, i);
  let attrs = NO_ATTRS;
  for (;;) {
    const from = i;
    while (i < n && isSpace(xml.charCodeAt(i))) i++;
    if (i >= n) return undefined;
    const c = xml.charCodeAt(i);
    if (c === 0x3e /* > */) {
      return {
        token: closing ? { kind: 'close', name, raw: xml.slice(start, i + 1) } : { kind: 'open', name, attrs, raw: xml.slice(start, i + 1) },
        end: i + 1,
      };
    }
    if (c === 0x2f && xml.charCodeAt(i + 1) === 0x3e) return { token: { kind: 'selfclose', name, attrs, raw: xml.slice(start, i + 2) }, end: i + 2 };
    const attrStart = i;
    while (i < n && !endsAttrName(xml.charCodeAt(i))) i++;
    if (i === attrStart) return undefined;
    const attrName = xml.slice(attrStart, i);
    let value = '';
    let quote = '';
    let j = i;
    while (j < n && isSpace(xml.charCodeAt(j))) j++;
    if (xml.charCodeAt(j) === 0x3d /* = */) {
      j++;
      while (j < n && isSpace(xml.charCodeAt(j))) j++;
      const q = xml.charCodeAt(j);
      let k = j + 1;
      if (q === 0x22 || q === 0x27) while (k < n && xml.charCodeAt(k) !== q && xml.charCodeAt(k) !== 0x3c) k++;
      if ((q === 0x22 || q === 0x27) && xml.charCodeAt(k) === q) {
        quote = xml[j];
        value = xml.slice(j + 1, k);
        i = k + 1;
      } else {
        // Unquoted (or a quote that never closes before "<"): up to space, "<" or ">".
        k = j;
        while (k < n && !isSpace(xml.charCodeAt(k)) && xml.charCodeAt(k) !== 0x3c && xml.charCodeAt(k) !== 0x3e) k++;
        if (k === j) return undefined;
        value = xml.slice(j, k);
        i = k;
      }
    }
    if (attrs === NO_ATTRS) attrs = [];
    attrs.push({ name: attrName, raw: xml.slice(from, i), value, quote });
  }
}

function pushName(into: Piece[], name: string, cls: 'tag' | 'attr'): void {
  const colon = name.indexOf(':');
  if (colon > 0) into.push({ cls: 'prefix', text: name.slice(0, colon + 1) }, { cls, text: name.slice(colon + 1) });
  else into.push({ cls, text: name });
}

function tagPieces(t: Extract<Token, { kind: 'open' | 'selfclose' | 'close' }>, into: Piece[] = []): Piece[] {
  if (t.kind === 'close') {
    into.push({ cls: 'punct', text: '</' });
    pushName(into, t.name, 'tag');
    into.push({ cls: 'punct', text: '>' });
    return into;
  }
  into.push({ cls: 'punct', text: '<' });
  pushName(into, t.name, 'tag');
  for (const a of t.attrs) {
    into.push({ cls: 'text', text: ' ' });
    pushName(into, a.name, 'attr');
    if (a.raw.includes('=')) into.push({ cls: 'punct', text: '=' }, { cls: 'value', text: `${a.quote}${a.value}${a.quote}` });
  }
  into.push({ cls: 'punct', text: t.kind === 'selfclose' ? '/>' : '>' });
  return into;
}

const SIMPLE_CLASS = { comment: 'comment', cdata: 'cdata', decl: 'decl', text: 'text' } as const;

/** One element per line, indented; an element holding only text stays on one line. */
export function prettyLines(xml: string): Line[] {
  try {
    return linesOf(xml);
  } catch {
    return [{ depth: 0, pieces: [{ cls: 'text', text: xml }] }];
  }
}

function linesOf(xml: string): Line[] {
  const tokens = tokenize(xml).filter((t) => !(t.kind === 'text' && t.raw.trim() === ''));
  const lines: Line[] = [];
  let depth = 0;
  const line = (pieces: Piece[]) => lines.push({ depth: Math.min(depth, INDENT_LIMIT), pieces });
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'open') {
      const next = tokens[i + 1];
      const after = tokens[i + 2];
      if (next?.kind === 'close' && next.name === t.name) {
        line(tagPieces(next, tagPieces(t)));
        i += 1;
      } else if ((next?.kind === 'text' || next?.kind === 'cdata') && after?.kind === 'close' && after.name === t.name) {
        const pieces = tagPieces(t);
        pieces.push({ cls: SIMPLE_CLASS[next.kind], text: next.kind === 'text' ? next.raw.trim() : next.raw });
        line(tagPieces(after, pieces));
        i += 2;
      } else {
        line(tagPieces(t));
        depth++;
      }
    } else if (t.kind === 'close') {
      depth = Math.max(0, depth - 1);
      line(tagPieces(t));
    } else if (t.kind === 'selfclose') {
      line(tagPieces(t));
    } else {
      line([{ cls: SIMPLE_CLASS[t.kind], text: t.kind === 'text' ? t.raw.trim() : t.raw }]);
    }
  }
  return lines;
}

export function prettyText(xml: string, indent = '  '): string {
  try {
    return prettyLines(xml)
      .map((l) => indent.repeat(l.depth) + l.pieces.map((p) => p.text).join(''))
      .join('\n');
  } catch {
    return xml;
  }
}

export function looksLikeXml(text: string): boolean {
  return text.trimStart().startsWith('<');
}
