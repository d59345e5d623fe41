/**
 * How deep a JSON text nests, found in one pass without parsing it. Everything that reads a
 * request file after the parse (validation, the schema check, number literals, the envelope
 * writer) walks it one level at a time, so a file from a repository is refused, located, before
 * anything can exhaust the call stack. Real request files nest about ten levels deep.
 */
export const MAX_JSON_DEPTH = 128;

/** The offset of the first `{` or `[` deeper than `limit`, or -1; strings and comments are skipped. */
export function tooDeepAt(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return i;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return -1;
}
