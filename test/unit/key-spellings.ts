/**
 * Random API keys and every spelling the wire allows them, written independently of the
 * redactor (src/core/redact.ts) so the tests check it rather than repeat it: XML named entities,
 * character references (hex in either case, decimal, leading zeros, any mix), a comment or a
 * CDATA boundary inside, percent-encoding (either case, fully or partly), form encoding, JSON
 * escapes (\uXXXX, \/), and one layer of escaping over another (.NET's \u0026amp;, &amp;#x41;,
 * percent-encoded references). `leaksOf` finds any of them — or any eight characters of the key
 * in a row — in an output.
 */

/** A small seeded generator (mulberry32), so a failing run can be repeated from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Characters special to regular expressions, XML, URLs or JSON. */
const SPECIAL = `&<>"'%+ /\\.*?^$\{}()|[]=#;-_~`;

export interface KeyOptions {
  /** Mix in regex, XML, URL and JSON special characters. */
  readonly specials?: boolean;
  /** Add a character outside ASCII (still in Latin-1). */
  readonly latin1?: boolean;
}

export function randomKey(next: () => number, options: KeyOptions = {}): string {
  const length = 16 + Math.floor(next() * 13);
  const pick = (set: string) => set[Math.floor(next() * set.length)];
  let key = '';
  for (let i = 0; i < length; i++) key += options.specials && next() < 0.35 ? pick(SPECIAL) : pick(ALNUM);
  if (options.latin1) key = `${key.slice(0, 5)}é${key.slice(5)}`;
  // A CDATA section cannot hold "]]>" itself; a key never needs it.
  return key.replace(/\]\]>/g, ']x>').replace(/^ | $/g, 'k');
}

export type Context = 'xml' | 'url' | 'json' | 'any';

export interface Spelling {
  readonly name: string;
  readonly text: string;
  /** Where it can stand: XML text, a URL query value, a JSON string, anywhere. */
  readonly context: Context;
}

const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const caseOf = (next: () => number, s: string, mode: 'upper' | 'lower' | 'mixed') =>
  [...s].map((c) => (mode === 'upper' ? c.toUpperCase() : mode === 'lower' ? c.toLowerCase() : next() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');

function hexRef(next: () => number, c: string): string {
  const hex = c.codePointAt(0)!.toString(16);
  return `&#x${next() < 0.3 ? '00' : ''}${caseOf(next, hex, 'mixed')};`;
}
const decRef = (next: () => number, c: string) => `&#${next() < 0.3 ? '0' : ''}${c.codePointAt(0)};`;
const pct = (c: string) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
const jsonU = (c: string) => [...c].map((_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
const xmlNamed = (s: string) => [...s].map((c) => NAMED[c] ?? c).join('');
/** What XML text must escape. */
const xmlMust = (c: string) => c === '&' || c === '<';
/** What a URL query value must percent-encode (and + and %, which mean something there). */
const urlMust = (c: string) => !/^[A-Za-z0-9\-_.~]$/.test(c);
const jsonMust = (c: string) => c === '"' || c === '\\' || c.charCodeAt(0) < 0x20;

export function spellingsOf(key: string, next: () => number): Spelling[] {
  const chars = [...key];
  const cut = 2 + Math.floor(next() * (chars.length - 4));
  const [a, b] = [chars.slice(0, cut).join(''), chars.slice(cut).join('')];
  const out: Spelling[] = [
    { name: 'as it is', text: key, context: 'any' },
    { name: 'XML named entities', text: xmlNamed(key), context: 'xml' },
    { name: 'XML hex references', text: chars.map((c) => hexRef(next, c)).join(''), context: 'xml' },
    { name: 'XML decimal references', text: chars.map((c) => decRef(next, c)).join(''), context: 'xml' },
    {
      name: 'XML references, any mix',
      text: chars
        .map((c) => {
          const r = next();
          if (r < 0.3 && !xmlMust(c)) return c;
          if (r < 0.45 && NAMED[c]) return NAMED[c];
          return r < 0.7 ? hexRef(next, c) : decRef(next, c);
        })
        .join(''),
      context: 'xml',
    },
    { name: 'split by a comment', text: `${xmlNamed(a)}<!-- ${next() < 0.5 ? 'x' : ''} -->${xmlNamed(b)}`, context: 'xml' },
    {
      name: 'split by two comments',
      text: `${xmlNamed(chars.slice(0, 2).join(''))}<!---->${xmlNamed(chars.slice(2, cut).join(''))}<!-- - -->${xmlNamed(b)}`,
      context: 'xml',
    },
    { name: 'CDATA then text', text: `<![CDATA[${a}]]>${xmlNamed(b)}`, context: 'xml' },
    { name: 'text then CDATA', text: `${xmlNamed(a)}<![CDATA[${b}]]>`, context: 'xml' },
    { name: 'two CDATA sections', text: `<![CDATA[${a}]]><![CDATA[${b}]]>`, context: 'xml' },
    { name: 'XML escaped twice', text: xmlNamed(key).replace(/&/g, '&amp;'), context: 'xml' },
    {
      name: 'references, XML-escaped',
      text: chars
        .map((c) => hexRef(next, c))
        .join('')
        .replace(/&/g, '&amp;'),
      context: 'xml',
    },
    { name: 'percent-encoded, upper case', text: chars.map(pct).join(''), context: 'url' },
    { name: 'percent-encoded, lower case', text: chars.map(pct).join('').toLowerCase(), context: 'url' },
    { name: 'percent-encoded, mixed case', text: caseOf(next, chars.map(pct).join(''), 'mixed'), context: 'url' },
    { name: 'percent-encoded in part', text: chars.map((c) => (urlMust(c) || next() < 0.4 ? caseOf(next, pct(c), 'mixed') : c)).join(''), context: 'url' },
    { name: 'form-encoded', text: new URLSearchParams([['k', key]]).toString().slice(2), context: 'url' },
    { name: 'percent-encoded references', text: encodeURIComponent(chars.map((c) => hexRef(next, c)).join('')), context: 'url' },
    { name: 'JSON', text: JSON.stringify(key).slice(1, -1), context: 'json' },
    { name: 'JSON \\u escapes', text: caseOf(next, chars.map(jsonU).join(''), 'mixed').replace(/\\U/g, '\\u'), context: 'json' },
    { name: 'JSON escapes, any mix', text: chars.map((c) => (jsonMust(c) || next() < 0.5 ? jsonU(c) : c === '/' ? '\\/' : c)).join(''), context: 'json' },
    // System.Text.Json escapes &, <, >, ', + by default: an XML-escaped key in a JSON string.
    {
      name: 'JSON of XML (.NET)',
      text: JSON.stringify(xmlNamed(key))
        .slice(1, -1)
        .replace(/[&<>'+]/g, (c) => jsonU(c)),
      context: 'json',
    },
  ];
  return out;
}

/** The spellings of `key` (and any 8 of its characters in a row, as written) found in `text`. */
export function leaksOf(text: string, key: string, spellings: readonly Spelling[]): string[] {
  const found = spellings.filter((s) => text.includes(s.text)).map((s) => s.name);
  const chars = [...key];
  for (let i = 0; i + 8 <= chars.length; i++) {
    const run = chars.slice(i, i + 8).join('');
    if (text.includes(run)) {
      found.push(`characters ${i}–${i + 7} (${run})`);
      break;
    }
  }
  return found;
}

/** Every reading of a file's bytes a person or a program could make: UTF-8, Latin-1, UTF-16 either way. */
export function readings(bytes: Buffer): string[] {
  const swapped = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2))).swap16();
  return [bytes.toString('utf8'), bytes.toString('latin1'), bytes.toString('utf16le'), swapped.toString('utf16le')];
}
