/**
 * Keys written twice in one JSON object. JSON.parse keeps the last and jsonc-parser's tree finds
 * the first, so a second `"expect"` or `"fault"` silently changed what ran; every file format
 * of the workbench treats one as an error.
 *
 * One pass over the text with an explicit stack: no recursion, so nesting depth is bounded only
 * by memory, and each key costs one Map lookup. It scans characters itself (jsonc-parser's scanner
 * is several times slower than the parse it follows) and only accepts text that a
 * JSON-with-comments parser accepted.
 *
 * Plain JSON, checked on every keystroke in the editor, first takes a cheaper test that hashes no
 * key: the keys written (colons outside strings) against the keys JSON.parse kept.
 */
import { formatPath } from './jsonPath';
import type { LineIndex } from './lineIndex';
import type { Finding, JsonPath } from './types';

export interface DuplicateKey {
  /** The key after unescaping: `"a"` and `"\u0061"` are one key. */
  readonly key: string;
  /** The object holding both; [] for the top level. */
  readonly parent: JsonPath;
  /** The second occurrence's key token, quotes included. */
  readonly offset: number;
  readonly length: number;
  /** The first occurrence's key token. */
  readonly firstOffset: number;
  readonly firstLength: number;
}

export interface DuplicateKeys {
  /** In text order, at most `limit`. */
  readonly duplicates: DuplicateKey[];
  /** Duplicates after the first `limit`: counted, and the first of them located. */
  readonly more: number;
  readonly moreOffset?: number;
  readonly moreLength?: number;
}

/**
 * A file with a hundred thousand repeated keys deserves a few findings, not a hundred thousand
 * paths of its whole depth each.
 */
export const DUPLICATE_KEY_LIMIT = 100;

const QUOTE = 34;
const BACKSLASH = 92;
const SLASH = 47;
const STAR = 42;

interface Frame {
  isObject: boolean;
  /** Key → offset of its first token; created at the object's second key (most objects are small, many have one key). */
  keys: Map<string, number> | undefined;
  firstKey: string | undefined;
  firstKeyOffset: number;
  /** The current property's key, or the current item's index: the path to a nested duplicate. */
  key: string;
  index: number;
}

/**
 * Duplicate keys in `text`, which must already be JSON with comments that parsed (jsonc-parser
 * or JSON.parse) — a malformed text gives no exception, only an unreliable answer.
 */
export function findDuplicateKeys(text: string, limit = DUPLICATE_KEY_LIMIT): DuplicateKeys {
  const duplicates: DuplicateKey[] = [];
  let more = 0;
  let moreOffset = -1;
  let moreLength = 0;
  // Frames are reused by depth: a wide array of objects allocates one frame, not one per item.
  const frames: Frame[] = [];
  let depth = 0;
  let expectKey = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i + 1);
      if (end < 0) break;
      const top = depth > 0 ? frames[depth - 1] : undefined;
      if (expectKey && top?.isObject) {
        const raw = text.slice(i + 1, end);
        const key = raw.indexOf('\\') < 0 ? raw : unescape(text.slice(i, end + 1));
        const first = firstOffset(top, key, i);
        if (first >= 0) {
          if (duplicates.length < limit) {
            duplicates.push({
              key,
              parent: pathOf(frames, depth),
              offset: i,
              length: end + 1 - i,
              firstOffset: first,
              firstLength: closingQuote(text, first + 1) + 1 - first,
            });
          } else if (more++ === 0) {
            moreOffset = i;
            moreLength = end + 1 - i;
          }
        }
        top.key = key;
        expectKey = false;
      }
      i = end + 1;
      continue;
    }
    switch (c) {
      case 123: // {
      case 91: {
        // [
        let frame = frames[depth];
        if (!frame) frames[depth] = frame = { isObject: false, keys: undefined, firstKey: undefined, firstKeyOffset: -1, key: '', index: 0 };
        frame.isObject = c === 123;
        frame.keys?.clear();
        frame.firstKey = undefined;
        frame.index = 0;
        depth++;
        expectKey = frame.isObject;
        break;
      }
      case 125: // }
      case 93: // ]
        if (depth > 0) depth--;
        expectKey = false;
        break;
      case 44: {
        // ,
        const top = depth > 0 ? frames[depth - 1] : undefined;
        if (top && !top.isObject) top.index++;
        expectKey = top?.isObject === true;
        break;
      }
      case SLASH: {
        const next = text.charCodeAt(i + 1);
        if (next === SLASH) {
          const eol = nextLineBreak(text, i + 2);
          i = eol < 0 ? n : eol;
          continue;
        }
        if (next === STAR) {
          const close = text.indexOf('*/', i + 2);
          i = close < 0 ? n : close + 2;
          continue;
        }
        break;
      }
    }
    i++;
  }
  return more > 0 ? { duplicates, more, moreOffset, moreLength } : { duplicates, more };
}

/**
 * False when plain JSON `text` (no comments: JSON.parse accepted it) certainly has no duplicate
 * key, `keysKept` being the keys of its JSON.parse result (valueShape). Linear, and hashes no key.
 */
export function mayHaveDuplicateKeys(text: string, keysKept: number): boolean {
  // Written keys ≥ kept keys, equal exactly without duplicates; every written key's colon
  // follows a closing quote, so counting those colons bounds the written keys from above.
  return colonsAfterQuotes(text) !== keysKept;
}

/** Colons whose previous non-blank character is `"`: every key's, and rarely one in a string. */
function colonsAfterQuotes(text: string): number {
  let count = 0;
  for (let colon = text.indexOf(':'); colon >= 0; colon = text.indexOf(':', colon + 1)) {
    let k = colon - 1;
    let c = text.charCodeAt(k);
    while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(--k);
    if (c === QUOTE) count++;
  }
  return count;
}

/** The offset of the `"` closing the string whose content starts at `from`, or -1. */
function closingQuote(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at >= 0) {
    // A quote ends the string unless an odd run of backslashes escapes it.
    let backslashes = 0;
    for (let k = at - 1; k >= from && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

function nextLineBreak(text: string, from: number): number {
  for (let k = from; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 10 || c === 13) return k;
  }
  return -1;
}

function unescape(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/** Records `key` in `frame`; the offset of its earlier occurrence, or -1. */
function firstOffset(frame: Frame, key: string, offset: number): number {
  if (frame.firstKey === undefined) {
    frame.firstKey = key;
    frame.firstKeyOffset = offset;
    return -1;
  }
  if (frame.keys === undefined) frame.keys = new Map();
  if (frame.keys.size === 0) frame.keys.set(frame.firstKey, frame.firstKeyOffset);
  const earlier = frame.keys.get(key);
  if (earlier !== undefined) return earlier;
  frame.keys.set(key, offset);
  return -1;
}

function pathOf(frames: readonly Frame[], depth: number): JsonPath {
  const path: JsonPath = [];
  // The innermost frame is the object holding the duplicate; the frames above it lead there.
  for (let d = 0; d < depth - 1; d++) path.push(frames[d].isObject ? frames[d].key : frames[d].index);
  return path;
}

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);

/**
 * `duplicate key "expect" (first at 3:3); JSON keeps only one of them`, located at the second
 * key; the parent's path is named for a nested key, and both spellings when they differ.
 */
export function duplicateKeyMessage(d: DuplicateKey, text: string, lines: LineIndex): string {
  const first = lines.position(d.firstOffset);
  const where = d.parent.length ? ` in ${clip(formatPath(d.parent))}` : '';
  const spelling = text.slice(d.offset, d.offset + d.length);
  const firstSpelling = text.slice(d.firstOffset, d.firstOffset + d.firstLength);
  const spellings = spelling === firstSpelling ? '' : `, spelled ${clip(firstSpelling)} there and ${clip(spelling)} here`;
  return `duplicate key ${clip(JSON.stringify(d.key))}${where} (first at ${first.line + 1}:${first.character + 1}${spellings}); JSON keeps only one of them`;
}

/** Located error findings, as the request-file and environments readers report them. */
export function duplicateKeyFindings(text: string, lines: LineIndex, found: DuplicateKeys = findDuplicateKeys(text)): Finding[] {
  const findings: Finding[] = found.duplicates.map((d) => ({
    severity: 'error',
    code: 'duplicate-key',
    message: duplicateKeyMessage(d, text, lines),
    path: formatPath([...d.parent, d.key]),
    range: lines.range(d.offset, d.length),
  }));
  if (found.more > 0 && found.moreOffset !== undefined) {
    findings.push({
      severity: 'error',
      code: 'duplicate-key',
      message: `${found.more} more duplicate key${found.more === 1 ? '' : 's'} from here on (only the first ${found.duplicates.length} are listed); JSON keeps only one of each`,
      path: '',
      range: lines.range(found.moreOffset, found.moreLength ?? 0),
    });
  }
  return findings;
}
