/**
 * A forgiving XML tokenizer and pretty-printer for display. It never throws: replies can be
 * malformed (that is often why someone is looking), so anything it cannot read stays text.
 * Pure and DOM-free so it runs under the unit tests too.
 */

export type PieceClass = 'punct' | 'tag' | 'prefix' | 'attr' | 'value' | 'text' | 'comment' | 'cdata' | 'decl';
export interface Piece { readonly cls: PieceClass; readonly text: string }
export interface Line { readonly depth: number; readonly pieces: readonly Piece[] }

type Token =
  | { kind: 'open' | 'selfclose'; name: string; attrs: Array<{ name: string; raw: string; value: string; quote: string }>; raw: string }
  | { kind: 'close'; name: string; raw: string }
  | { kind: 'text' | 'comment' | 'cdata' | 'decl'; raw: string };

export function tokenize(xml: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = xml.length;
  while (i < n) {
    if (xml[i] !== '<') {
      const next = xml.indexOf('<', i);
      const end = next === -1 ? n : next;
      tokens.push({ kind: 'text', raw: xml.slice(i, end) });
      i = end;
      continue;
    }
    const special = (start: string, stop: string, kind: 'comment' | 'cdata' | 'decl'): boolean => {
      if (!xml.startsWith(start, i)) return false;
      const close = xml.indexOf(stop, i + start.length);
      const end = close === -1 ? n : close + stop.length;
      tokens.push({ kind, raw: xml.slice(i, end) });
      i = end;
      return true;
    };
    if (special('<!--', '-->', 'comment') || special('<![CDATA[', ']]>', 'cdata') || special('<?', '?>', 'decl') || special('<!', '>', 'decl')) continue;
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

function readTag(xml: string, start: number): { token: Token; end: number } | undefined {
  const closing = xml[start + 1] === '/';
  const nameMatch = /^[A-Za-z_][\w.\-:]*/.exec(xml.slice(start + (closing ? 2 : 1), start + (closing ? 2 : 1) + 256));
  if (!nameMatch) return undefined;
  const name = nameMatch[0];
  let i = start + (closing ? 2 : 1) + name.length;
  const attrs: Array<{ name: string; raw: string; value: string; quote: string }> = [];
  const attrRe = /\s*([^\s=/>]+)(?:\s*=\s*("([^"]*)"|'([^']*)'|[^\s>]+))?/y;
  while (i < xml.length) {
    const ws = /\s*/y;
    ws.lastIndex = i;
    ws.exec(xml);
    i = ws.lastIndex;
    if (xml[i] === '>') {
      return { token: closing ? { kind: 'close', name, raw: xml.slice(start, i + 1) } : { kind: 'open', name, attrs, raw: xml.slice(start, i + 1) }, end: i + 1 };
    }
    if (xml.startsWith('/>', i)) return { token: { kind: 'selfclose', name, attrs, raw: xml.slice(start, i + 2) }, end: i + 2 };
    attrRe.lastIndex = i;
    const m = attrRe.exec(xml);
    if (!m || m[0].length === 0) return undefined;
    const quoted = m[2] ?? '';
    const quote = quoted.startsWith('"') ? '"' : quoted.startsWith("'") ? "'" : '';
    attrs.push({ name: m[1], raw: m[0], value: m[3] ?? m[4] ?? quoted, quote });
    i = attrRe.lastIndex;
  }
  return undefined;
}

function nameParts(name: string, cls: 'tag' | 'attr'): Piece[] {
  const colon = name.indexOf(':');
  return colon > 0 ? [{ cls: 'prefix', text: name.slice(0, colon + 1) }, { cls, text: name.slice(colon + 1) }] : [{ cls, text: name }];
}

function tagPieces(t: Extract<Token, { kind: 'open' | 'selfclose' | 'close' }>): Piece[] {
  if (t.kind === 'close') return [{ cls: 'punct', text: '</' }, ...nameParts(t.name, 'tag'), { cls: 'punct', text: '>' }];
  const pieces: Piece[] = [{ cls: 'punct', text: '<' }, ...nameParts(t.name, 'tag')];
  for (const a of t.attrs) {
    pieces.push({ cls: 'text', text: ' ' }, ...nameParts(a.name, 'attr'));
    if (a.raw.includes('=')) pieces.push({ cls: 'punct', text: '=' }, { cls: 'value', text: `${a.quote}${a.value}${a.quote}` });
  }
  pieces.push({ cls: 'punct', text: t.kind === 'selfclose' ? '/>' : '>' });
  return pieces;
}

const SIMPLE_CLASS = { comment: 'comment', cdata: 'cdata', decl: 'decl', text: 'text' } as const;

/** One element per line, indented; an element holding only text stays on one line. */
export function prettyLines(xml: string): Line[] {
  const tokens = tokenize(xml).filter((t) => !(t.kind === 'text' && t.raw.trim() === ''));
  const lines: Line[] = [];
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'open') {
      const next = tokens[i + 1];
      const after = tokens[i + 2];
      if (next?.kind === 'close' && next.name === t.name) {
        lines.push({ depth, pieces: [...tagPieces(t), ...tagPieces(next)] });
        i += 1;
      } else if ((next?.kind === 'text' || next?.kind === 'cdata') && after?.kind === 'close' && after.name === t.name) {
        lines.push({ depth, pieces: [...tagPieces(t), { cls: SIMPLE_CLASS[next.kind], text: next.kind === 'text' ? next.raw.trim() : next.raw }, ...tagPieces(after)] });
        i += 2;
      } else {
        lines.push({ depth, pieces: tagPieces(t) });
        depth++;
      }
    } else if (t.kind === 'close') {
      depth = Math.max(0, depth - 1);
      lines.push({ depth, pieces: tagPieces(t) });
    } else if (t.kind === 'selfclose') {
      lines.push({ depth, pieces: tagPieces(t) });
    } else {
      lines.push({ depth, pieces: [{ cls: SIMPLE_CLASS[t.kind], text: t.kind === 'text' ? t.raw.trim() : t.raw }] });
    }
  }
  return lines;
}

export function prettyText(xml: string, indent = '  '): string {
  return prettyLines(xml).map((l) => indent.repeat(l.depth) + l.pieces.map((p) => p.text).join('')).join('\n');
}

export function looksLikeXml(text: string): boolean {
  return text.trimStart().startsWith('<');
}
