/**
 * Text from a reply made visible as it is. A bidi override (U+202E) would mirror the panel's own
 * words around it and turn "fdp.exe" into "exe.pdf"; a zero-width or other format character
 * would hide in a value. Each such character is shown as a marker, `⟨U+202E⟩`, instead of acting.
 * Which characters those are is core's terminal-safe rule (src/core/terminalText.ts), asked one
 * character at a time, so the panel and the terminal never disagree on the list.
 */
import { terminalSafe } from '../core/view';

/** The marker a hidden character is shown as. */
export function markerOf(codePoint: number): string {
  return `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

export type TextPiece = { readonly text: string } | { readonly hidden: number };

/** `text` cut into what is shown as it is and the code points shown as markers; undefined when nothing is hidden. */
export function hiddenPieces(text: string): TextPiece[] | undefined {
  if (terminalSafe(text) === text) return undefined;
  const pieces: TextPiece[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Printable ASCII is never hidden; tab and newline stay, and CR before LF ends a line as LF does.
    if ((c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) === 0x0a)) continue;
    const pair = c >= 0xd800 && c <= 0xdbff && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff;
    const ch = pair ? text.slice(i, i + 2) : text[i];
    if (terminalSafe(ch) !== ch) {
      if (i > from) pieces.push({ text: text.slice(from, i) });
      pieces.push({ hidden: ch.codePointAt(0)! });
      from = i + ch.length;
    }
    if (pair) i++;
  }
  if (from < text.length) pieces.push({ text: text.slice(from) });
  return pieces;
}

/** For attributes (a title, an aria-label), where only a string fits. */
export function visibleString(text: string): string {
  const pieces = hiddenPieces(text);
  return pieces ? pieces.map((p) => ('text' in p ? p.text : markerOf(p.hidden))).join('') : text;
}

/** For the page: a text node, or the text with each hidden character as a styled marker. */
export function visibleNode(text: string): Node {
  const pieces = hiddenPieces(text);
  if (!pieces) return document.createTextNode(text);
  const out = document.createDocumentFragment();
  for (const p of pieces) {
    if ('text' in p) {
      out.appendChild(document.createTextNode(p.text));
      continue;
    }
    const marker = document.createElement('span');
    marker.className = 'hidden-char';
    marker.title = `An invisible character in the text (U+${p.hidden.toString(16).toUpperCase().padStart(4, '0')}), shown instead of acting`;
    marker.textContent = markerOf(p.hidden);
    out.appendChild(marker);
  }
  return out;
}
