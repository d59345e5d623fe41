/**
 * Text from outside — a reply, a request file, a recording, an environment, a file name — made
 * safe to write to a terminal, decided once here and asked by every console face (the CLI's
 * writer in src/cli/dispatch.ts, the run's terminal reporter in src/core/runner/reporters/cli.ts).
 * A terminal obeys the control characters it is given: an escape sequence in a fault string
 * would retitle the window, clear the screen, paint a fake "✓ succeeded" or add a link; a bidi
 * override would show a value other than the one received. Here each such character is written
 * as `\uXXXX`, visible and in the spelling JSON reads back as the same character, so JSON output
 * made safe stays the same JSON (JSON.stringify escapes C0 controls already, not the others).
 *
 * What is shown as `\uXXXX` (lowercase hex), everything else kept as is:
 * - C0 controls but tab and newline (U+0000–U+0008, U+000B–U+001F), and so ESC (U+001B): an
 *   escape sequence loses its power and its printable rest stays readable (`\u001b[2J`);
 * - carriage return, except right before a newline, where it is dropped: CRLF ends a line like
 *   LF on a screen, while a lone CR would let later text overwrite the line;
 * - DEL (U+007F) and the C1 controls (U+0080–U+009F; U+009B is a one-character CSI);
 * - invisible format characters that reorder or hide text: the bidi marks, embeddings, overrides
 *   and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), the zero-width ones
 *   (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+180E), the deprecated format characters
 *   U+206A–U+206F, the soft hyphen U+00AD, line and paragraph separators U+2028/U+2029, the
 *   interlinear annotation characters U+FFF9–U+FFFB;
 * - the tag characters U+E0000–U+E007F (invisible letters), as their two escaped halves;
 * - a lone surrogate, which no terminal can show.
 *
 * One pass, linear time: a plain text (nearly every one) is found so by one character-class test
 * and returned as it is; otherwise it is copied in slices between the characters shown.
 * Backslashes are not escaped: the point is that nothing acts on the terminal, not a reversible
 * spelling, and JSON output already doubles its backslashes.
 */

/** Any character terminalSafe may change (surrogates: every astral character takes the slow path). */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x08\x0B-\x1F\x7F-\x9F\xAD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uD800-\uDFFF\uFEFF\uFFF9-\uFFFB]/;

const HEX = '0123456789abcdef';

function shown(c: number): string {
  return `\\u${HEX[(c >> 12) & 15]}${HEX[(c >> 8) & 15]}${HEX[(c >> 4) & 15]}${HEX[c & 15]}`;
}

/** Whether the BMP character `c` (not a surrogate) is written as `\uXXXX`. */
function hidden(c: number): boolean {
  if (c < 0x20) return c !== 0x09 && c !== 0x0a;
  if (c < 0x7f) return false;
  if (c <= 0x9f) return true;
  if (c < 0xad) return false;
  return (
    c === 0xad ||
    c === 0x061c ||
    c === 0x180e ||
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x2028 && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x206f) ||
    c === 0xfeff ||
    (c >= 0xfff9 && c <= 0xfffb)
  );
}

/** `text` with nothing in it a terminal would act on or hide: see the rules above. */
export function terminalSafe(text: string): string {
  if (!UNSAFE.test(text)) return text;
  let out = '';
  let from = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) {
      if (!hidden(c)) continue;
      out += text.slice(from, i);
      from = i + 1;
      if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) continue; // CRLF: the LF alone
      out += shown(c);
      continue;
    }
    const low = c <= 0xdbff ? text.charCodeAt(i + 1) : NaN;
    if (low >= 0xdc00 && low <= 0xdfff) {
      // A pair: kept, unless it is a tag character (U+E0000–U+E007F is U+DB40 U+DC00–U+DC7F).
      if (c === 0xdb40 && low <= 0xdc7f) {
        out += `${text.slice(from, i)}${shown(c)}${shown(low)}`;
        from = i + 2;
      }
      i++;
      continue;
    }
    out += `${text.slice(from, i)}${shown(c)}`;
    from = i + 1;
  }
  return out + text.slice(from);
}
