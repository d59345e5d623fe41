/**
 * Secrets out of everything people see. The API key (and every variable an environment marks
 * secret) is replaced by •••• in each displayed, logged, stored or exported copy: envelopes, URLs,
 * form bodies, curl commands, error messages, echoed replies, recorded traffic. A secret reaches
 * text in many spellings — XML-escaped or written as character references, percent- or
 * form-encoded, JSON-escaped, split by an XML comment or a CDATA boundary, one layer of escaping
 * over another — so a secret long enough to be one is searched by value in all of them at once
 * (spellingPattern), and the spans found are masked together, so no spelling leaves half of
 * another behind.
 */
import type { HttpRequestSpec } from './exchange';

export const MASK = '••••';
const ELLIPSIS = '…';
/** Fewer characters of a secret before a cut say next to nothing about it, and would mask ordinary words. */
const MIN_CUT_PREFIX = 4;
/**
 * Secrets this long or longer are found by value wherever they are, in every spelling. Shorter ones
 * would mask ordinary words and numbers: the inspector masks them only where they stand as a key.
 */
export const MIN_SECRET_BY_VALUE = 8;

const XML_TEXT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const XML_ALL: Record<string, string> = { ...XML_TEXT, '"': '&quot;', "'": '&apos;' };

/** Spellings by secret: every send of a run redacts the same key, and working them out is most of the cost. */
const spellingCache = new Map<string, readonly string[]>();
const SPELLING_CACHE_LIMIT = 64;

/** Every spelling of `secret` that the envelope builder, URLs, forms or JSON could give it. */
export function secretSpellings(secret: string): string[] {
  let cached = spellingCache.get(secret);
  if (!cached) {
    if (spellingCache.size >= SPELLING_CACHE_LIMIT) spellingCache.clear();
    spellingCache.set(secret, (cached = spellingsOf(secret)));
  }
  return [...cached];
}

function spellingsOf(secret: string): string[] {
  const forms = new Set<string>([secret]);
  forms.add(secret.replace(/[&<>]/g, (c) => XML_TEXT[c]));
  forms.add(secret.replace(/[&<>"']/g, (c) => XML_ALL[c]));
  forms.add(secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
  const uri = encodeURIComponent(secret);
  forms.add(uri);
  forms.add(uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  forms.add(new URLSearchParams([['', secret]]).toString().slice(1));
  forms.add(uri.replace(/%20/g, '+'));
  forms.add(JSON.stringify(secret).slice(1, -1));
  forms.delete('');
  return [...forms].sort((a, b) => b.length - a.length);
}

/** As a `{{variable}}` goes into a regular expression (src/core/runner/pattern.ts), and as RegExp prints it. */
const regexEscaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const regexEscapedKeepingSlash = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The spellings a secret takes once a report has transformed it: put into a pattern (regex-escaped,
 * with or without `\/`), then written into JSON (backslashes doubled), XML (escaped) or a terminal.
 * Only final texts — reports, the run's output — need these; an exchange never holds them.
 */
function derivedSpellingsOf(secret: string): string[] {
  const forms = new Set<string>(secretSpellings(secret));
  for (const base of [secret, regexEscaped(secret), regexEscapedKeepingSlash(secret)]) {
    forms.add(base);
    forms.add(JSON.stringify(base).slice(1, -1));
    forms.add(base.replace(/[&<>]/g, (c) => XML_TEXT[c]));
    forms.add(base.replace(/[&<>"']/g, (c) => XML_ALL[c]));
    forms.add(JSON.stringify(base.replace(/[&<>"']/g, (c) => XML_ALL[c])).slice(1, -1));
    forms.add(JSON.stringify(JSON.stringify(base).slice(1, -1)).slice(1, -1));
  }
  forms.delete('');
  return [...forms].sort((a, b) => b.length - a.length);
}

export interface RedactorOptions {
  /**
   * Also find the spellings a report's own transformations give a secret (derivedSpellingsOf):
   * for the final text of everything a run prints or writes.
   */
  readonly derived?: boolean;
  /**
   * Also mask a value wherever it stands as a key (an APIKey element, query or form field, JSON
   * member), whatever its length, and leave secrets shorter than MIN_SECRET_BY_VALUE to that: for
   * traffic the workbench did not write (the traffic inspector, `carrier send --out`).
   */
  readonly inPlace?: boolean;
}

/** Where a search looks. */
export interface SpanOptions {
  /**
   * The text is bytes read as latin1 (one character per byte) of UTF-8 or ASCII-compatible text:
   * a secret's own characters are searched as their UTF-8 bytes; escapes are ASCII either way.
   */
  readonly utf8Bytes?: boolean;
  /** The text was cut short: a secret's start at its very end (MIN_CUT_PREFIX characters or more) is masked too. */
  readonly cut?: boolean;
}

/**
 * Where any spelling of a character but itself begins (escapesOf): a percent-encoded byte, a
 * character reference, a named entity, a JSON escape. A second layer (anyOneLayer) spells the
 * first layer's `%`, `&`, `#`, `;` or backslash with one of these, or leaves it as itself, so a
 * layered spelling holds one too. A `%` or `&` that starts none of them (`68%`, a bare `&` in
 * text that is not XML) cannot be part of a secret's spelling. EscapeStarts: what may follow a
 * `&` or a backslash to start an escape, looked for by holdsEscape.
 */
export interface EscapeStarts {
  /** Entity names after `&`, with their `;` (`#` alone for a character reference). */
  readonly entity: readonly string[];
  /** Characters after a backslash, by code: a JSON escape. */
  readonly json: ReadonlySet<number>;
}

const codes = (chars: string) => new Set([...chars].map((c) => c.charCodeAt(0)));

const ANY_ESCAPE: EscapeStarts = { entity: ['#', 'amp;', 'lt;', 'gt;', 'quot;', 'apos;'], json: codes('u"\\/bfnrt') };

/**
 * The escape starts that can begin a spelling of one of `secrets` (escapesOf): `%XX`, `&#`, `&amp;`
 * and `\u` spell any character or, layered, an escape's own syntax; `\\` is a backslash escaped
 * once more. A named entity or short JSON escape spells its one character only: `&lt;` matters
 * when a secret holds `<`, `\"` when one holds `"`. The JSON of a report is full of `\"` and
 * `\n`; for a key without quotes or newlines it still takes the plain search.
 */
function escapeStartsFor(secrets: readonly string[]): EscapeStarts {
  const entity = ['#', 'amp;'];
  let json = 'u\\';
  for (const [ch, name] of Object.entries(NAMED)) if (ch !== '&' && secrets.some((s) => s.includes(ch))) entity.push(`${name};`);
  for (const [ch, letter] of Object.entries(JSON_SHORT)) if (ch !== '\\' && secrets.some((s) => s.includes(ch))) json += letter;
  return { entity, json: codes(json) };
}

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** Each EscapeStarts' entity starts (`&#`, `&amp;`…), made once. */
const entityNeedlesOf = new WeakMap<EscapeStarts, readonly string[]>();

function entityNeedles(starts: EscapeStarts): readonly string[] {
  let found = entityNeedlesOf.get(starts);
  if (!found) entityNeedlesOf.set(starts, (found = starts.entity.map((name) => `&${name}`)));
  return found;
}

/**
 * Whether `text` holds an escape's start: a `%` with a hex digit after it, or one of the starts
 * after a `&` or a backslash. An entity start is one native search each (`&#`, `&amp;`): a reply
 * holds few `&`, or many that start none (`&lt;` in escaped XML). A JSON escape is looked for
 * from backslash to backslash, the character after each compared in place: a report's JSON has
 * a backslash at every quote and newline, which each search for `\u`, `\\`… would stop at again.
 * A 3 KB rate quote reply with its `68%` in it costs a look at the character after that one `%`.
 */
/** @internal Exported for its test. */
export function holdsEscape(text: string, starts: EscapeStarts = ANY_ESCAPE): boolean {
  for (let at = text.indexOf('%'); at >= 0; at = text.indexOf('%', at + 1)) if (isHex(text.charCodeAt(at + 1))) return true;
  const needles = entityNeedles(starts);
  for (let i = 0; i < needles.length; i++) if (text.includes(needles[i])) return true;
  for (let at = text.indexOf('\\'); at >= 0; at = text.indexOf('\\', at + 1)) if (starts.json.has(text.charCodeAt(at + 1))) return true;
  return false;
}

/**
 * Around a whole value: an element's text (`>…<`), a query or form field (`=…&`), a quoted
 * string or attribute (`"…"`, `'…'`), or the whole text (a string value redacted on its own).
 */
const WHOLE_VALUE_BEFORE = new Set(['>', '=', '"', "'"]);
const WHOLE_VALUE_AFTER = new Set(['<', '&', '"', "'"]);

/** A stretch to mask, [start, end). */
export type Span = readonly [number, number];
/** A span and what replaces it. */
export type Replacement = readonly [number, number, string];

/** No options: one object for every call that passes none. */
const NO_OPTIONS: SpanOptions = Object.freeze({});

/** Each span with what replaces it (Redactor.replacements). */
function replacementsOf(text: string, spans: readonly Span[], mask: string): Replacement[] {
  return spans.map((s) => [s[0], s[1], mask + openCdataBoundaries(text.slice(s[0], s[1]))] as const);
}

/** MASK as UTF-8 bytes read as latin1: what replaces a secret in a utf8Bytes view. */
const MASK_BYTES = Buffer.from(MASK, 'utf8').toString('latin1');

/**
 * A redactor for a fixed set of secrets; spellings are computed once. Empty values are ignored
 * (nothing to hide), the mask itself too. A secret of MIN_SECRET_BY_VALUE characters or more is
 * found by value in every spelling the wire allows (spellingPattern). A shorter one would be found
 * inside ordinary text (a key `1` in `/1.0.3/`, `2026` in every date): it is masked as a whole
 * value only — an element's whole text, a field's whole value, a whole quoted string, in the
 * spellings the workbench itself writes (secretSpellings) — or, with `inPlace`, only where it
 * stands as a key.
 */
export class Redactor {
  /** Secrets searched by pattern (spellingPattern). */
  private readonly byValue: string[];
  /** Exact spellings searched as they are: a report's derived spellings of long secrets. */
  private readonly spellings: string[];
  /** The spellings but the secrets themselves, which byValueIn finds as they are in any case. */
  private readonly searchedSpellings: string[];
  /** Spellings of short secrets, masked only where one is a whole value (WHOLE_VALUE_BEFORE/AFTER). */
  private readonly wholeValues: string[];
  private spellingBytes: string[] | undefined;
  private wholeValueBytes: string[] | undefined;
  private byValueBytes: string[] | undefined;
  private readonly byValueHasSpace: boolean;
  /** Escape starts that can begin a spelling of a byValue secret (escapeStartsFor). */
  private readonly escapeStarts: EscapeStarts;
  private readonly inPlace: boolean;
  /**
   * The fewest characters of a text that can hold what is searched for (inPlace aside): a
   * secret's every spelling is at least as long as the secret, a start cut short (`cut`)
   * MIN_CUT_PREFIX characters. Header values, a finding's kind: most short texts are not searched.
   */
  private readonly shortest: number;
  private readonly shortestCut: number;
  /** Final texts only: a spelling cut short by a report's `…` still gives its start away. */
  private readonly truncations: boolean;
  private readonly patterns: { text?: RegExp; utf8?: RegExp; tailText?: RegExp; tailUtf8?: RegExp } = {};

  constructor(secrets: Iterable<string | undefined>, options: RedactorOptions = {}) {
    const long = new Set<string>();
    const all = new Set<string>();
    const whole = new Set<string>();
    for (const s of secrets) {
      if (!s || s === MASK || s.trim() === '') continue;
      const isLong = [...s].length >= MIN_SECRET_BY_VALUE;
      if (isLong) {
        long.add(s);
        if (options.derived) for (const f of derivedSpellingsOf(s)) all.add(f);
      } else if (!options.inPlace) {
        for (const f of options.derived ? derivedSpellingsOf(s) : secretSpellings(s)) whole.add(f);
      }
    }
    this.byValue = [...long].sort((a, b) => b.length - a.length);
    this.byValueHasSpace = this.byValue.some((v) => v.includes(' '));
    this.escapeStarts = escapeStartsFor(this.byValue);
    this.spellings = [...all].sort((a, b) => b.length - a.length);
    this.searchedSpellings = this.spellings.filter((f) => !long.has(f));
    this.wholeValues = [...whole].sort((a, b) => b.length - a.length);
    this.inPlace = options.inPlace === true;
    this.truncations = options.derived === true;
    this.shortest = Math.min(...[...this.byValue, ...this.spellings, ...this.wholeValues].map((f) => f.length));
    this.shortestCut = this.byValue.length ? Math.min(this.shortest, MIN_CUT_PREFIX) : this.shortest;
  }

  /** Nothing to hide: texts come back as they are. */
  get empty(): boolean {
    return this.byValue.length === 0 && this.spellings.length === 0 && this.wholeValues.length === 0 && !this.inPlace;
  }

  /** `text` with every secret masked; with `utf8Bytes`, `text` is bytes read as latin1 (an HTTP head) and still gets the readable mask. */
  text(text: string, options: SpanOptions = NO_OPTIONS): string {
    if (this.empty || !text) return text;
    // Most texts hold no secret: nothing more is made for them than the search.
    const spans = this.spans(text, options);
    let out = spans.length ? maskSpans(text, replacementsOf(text, spans, MASK)) : text;
    if (this.truncations && out.includes(ELLIPSIS)) out = this.cutShort(out);
    return out;
  }

  /**
   * UTF-8 (or ASCII-compatible) bytes with every secret masked byte for byte: everything else
   * stays exactly as it was, invalid UTF-8 included. The same buffer back when nothing was found.
   */
  bytes(bytes: Buffer, options: Omit<SpanOptions, 'utf8Bytes'> = {}): Buffer {
    if (this.empty || !bytes.length) return bytes;
    const view = bytes.toString('latin1');
    const found = this.replacements(view, { ...options, utf8Bytes: true }, MASK_BYTES);
    return found.length ? Buffer.from(maskSpans(view, found), 'latin1') : bytes;
  }

  /**
   * What to put where: each span of spans() with the mask, followed by a CDATA boundary the span
   * crossed (`••••]]>`), so XML that was well-formed stays so. For texts whose characters map to
   * bytes one to one or two to one (Latin-1, UTF-16), to mask the bytes as they went.
   */
  replacements(text: string, options: SpanOptions = NO_OPTIONS, mask = MASK): Replacement[] {
    return replacementsOf(text, this.spans(text, options), mask);
  }

  /**
   * Where the secrets are in `text`, merged and in order: by value (every spelling, also split by
   * XML comments or CDATA sections), exact spellings, and with `inPlace` wherever a key stands.
   */
  spans(text: string, options: SpanOptions = NO_OPTIONS): Span[] {
    const found: Array<[number, number]> = [];
    if (this.empty || !text || (!this.inPlace && text.length < (options.cut ? this.shortestCut : this.shortest))) return found;
    if (this.byValue.length) {
      this.byValueIn(text, options.utf8Bytes === true, found);
      const view = withoutIgnorables(text);
      if (view) {
        const before = found.length;
        this.byValueIn(view.text, options.utf8Bytes === true, found);
        if (options.cut) this.tail(view.text, options.utf8Bytes === true, found);
        for (let i = before; i < found.length; i++)
          found[i] = [view.origin(found[i][0]), found[i][1] === view.text.length ? text.length : view.origin(found[i][1] - 1) + 1];
      }
      if (options.cut) this.tail(text, options.utf8Bytes === true, found);
    }
    const spellings = options.utf8Bytes
      ? (this.spellingBytes ??= this.searchedSpellings.map((s) => Buffer.from(s, 'utf8').toString('latin1')))
      : this.searchedSpellings;
    for (let i = 0; i < spellings.length; i++) {
      const s = spellings[i];
      for (let at = text.indexOf(s); at >= 0; at = text.indexOf(s, at + s.length)) found.push([at, at + s.length]);
    }
    const wholeValues = options.utf8Bytes
      ? (this.wholeValueBytes ??= this.wholeValues.map((s) => Buffer.from(s, 'utf8').toString('latin1')))
      : this.wholeValues;
    for (let i = 0; i < wholeValues.length; i++) {
      const s = wholeValues[i];
      for (let at = text.indexOf(s); at >= 0; at = text.indexOf(s, at + 1)) {
        const end = at + s.length;
        if ((at === 0 || WHOLE_VALUE_BEFORE.has(text[at - 1])) && (end === text.length || WHOLE_VALUE_AFTER.has(text[end]))) found.push([at, end]);
      }
    }
    if (this.inPlace) keyPlaces(text, found);
    return merge(found);
  }

  /**
   * Every spelling of the long secrets in `text`. Each spelling but the literal one holds an
   * escape (holdsEscape; or a form's `+` for a space): a text with none — most replies, even
   * those with a `68%` in them — can hold a secret only as it is, found by indexOf instead of the
   * spelling pattern, the cost of redacting every reply a run receives. The literal one is looked
   * for either way: the pattern misses one that a match of another secret ran into, and the
   * exact spellings leave the secrets themselves to this search.
   */
  private byValueIn(text: string, utf8: boolean, found: Array<[number, number]>): void {
    if (holdsEscape(text, this.escapeStarts) || (this.byValueHasSpace && text.includes('+'))) collect(this.pattern(utf8), text, found);
    const literals = utf8 ? (this.byValueBytes ??= this.byValue.map((s) => Buffer.from(s, 'utf8').toString('latin1'))) : this.byValue;
    for (let i = 0; i < literals.length; i++) {
      const s = literals[i];
      for (let at = text.indexOf(s); at >= 0; at = text.indexOf(s, at + s.length)) found.push([at, at + s.length]);
    }
  }

  /** A secret's start right before the `…` a report cut a long value with: masked like the whole. */
  private cutShort(text: string): string {
    let out = text;
    for (const s of [...this.spellings, ...this.byValue]) {
      for (let n = s.length - 1; n >= MIN_CUT_PREFIX; n--) {
        const cut = `${s.slice(0, n)}${ELLIPSIS}`;
        if (out.includes(cut)) out = out.split(cut).join(`${MASK}${ELLIPSIS}`);
      }
    }
    return out;
  }

  /** True when `text` holds any spelling of a secret (or, with `inPlace`, a key where keys stand). */
  finds(text: string): boolean {
    return this.spans(text).length > 0;
  }

  private pattern(utf8: boolean): RegExp {
    const key = utf8 ? 'utf8' : 'text';
    let re = this.patterns[key];
    if (!re) {
      const literal = utf8 ? utf8Literal : undefined;
      re = this.patterns[key] = new RegExp(this.byValue.map((s) => `(?:${spellingPattern(s, literal)})`).join('|'), 'g');
    }
    return re;
  }

  /** A start of a secret at the very end of a text that was cut short there. */
  private tail(text: string, utf8: boolean, found: Array<[number, number]>): void {
    const key = utf8 ? 'tailUtf8' : 'tailText';
    let re = this.patterns[key];
    if (!re) {
      const literal = utf8 ? utf8Literal : undefined;
      re = this.patterns[key] = new RegExp(this.byValue.map((s) => `(?:${prefixPattern(s, literal)})`).join('|'), 'g');
    }
    const longest = this.byValue[0].length * LONGEST_FORM;
    const from = Math.max(0, text.length - longest);
    re.lastIndex = 0;
    const m = re.exec(from ? text.slice(from) : text);
    if (m) found.push([from + m.index, text.length]);
  }

  request(spec: HttpRequestSpec): HttpRequestSpec {
    if (this.empty) return spec;
    return {
      method: spec.method,
      url: this.text(spec.url),
      headers: spec.headers.map((h) => [h[0], this.text(h[1])] as const),
      body: this.text(spec.body),
    };
  }

  /** A copy of a JSON-like value with every string redacted (objects copied only where changed). */
  deep<T>(value: T): T {
    if (this.empty) return value;
    return this.walk(value) as T;
  }

  /**
   * Copies are made on the first change only: a reply without secrets allocates nothing here.
   * Parsed replies and fault details nest as deep as the XML parser allows (MAX_DEPTH in
   * src/core/xml/parser.ts), so the walk keeps its own stack instead of the call stack.
   */
  private walk(root: unknown): unknown {
    if (!isBranch(root)) return this.leaf(root);
    const stack: WalkFrame[] = [walkFrame(root)];
    let done: unknown = root;
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.i === top.length) {
        stack.pop();
        done = top.copy ?? top.value;
        const parent = stack[stack.length - 1];
        if (parent) settle(parent, done);
        continue;
      }
      const child = childOf(top);
      if (isBranch(child)) stack.push(walkFrame(child));
      else settle(top, this.leaf(child));
    }
    return done;
  }

  private leaf(value: unknown): unknown {
    return typeof value === 'string' ? this.text(value) : value;
  }
}

// ---- a secret in every spelling ----

/** Escapes a character of text for a regular expression. */
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Hex digits in either case: %2f and %2F, &#x4A; and &#x4a;, \\u00e9 and \\u00E9. */
const hexDigits = (hex: string) => [...hex].map((d) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d)).join('');
const utf8Literal = (ch: string) => Buffer.from(ch, 'utf8').toString('latin1');

/** A piece of an escape: a character of its syntax (`&`, `#`, `;`, `%`, `\`), or the rest as a pattern. */
type Piece = { readonly syntax: string } | { readonly re: string };

/** Syntax characters that a second layer of escaping writes as escapes themselves (`&amp;#x41;`, `%26%2365%3B`, `\u0026amp;`). */
const LAYERED = new Set(['&', '#', ';', '%', '\\']);
const NAMED: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' };
const JSON_SHORT: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
/** The longest a character can be spelled here (`\u0026#x1F600;` written with JSON escapes, say), for the search at a cut. */
const LONGEST_FORM = 48;

/**
 * Each way the wire writes one character (a code point) other than as itself: percent-encoded
 * (its UTF-8 bytes, or one Latin-1 byte), an XML character reference (decimal or hex, any
 * leading zeros), an XML named entity, a JSON escape (\uXXXX per UTF-16 unit, or the short ones).
 */
function escapesOf(ch: string): Piece[][] {
  const cp = ch.codePointAt(0)!;
  const pct = (b: number): Piece[] => [{ syntax: '%' }, { re: hexDigits(b.toString(16).padStart(2, '0')) }];
  const out: Piece[][] = [[...Buffer.from(ch, 'utf8')].flatMap(pct)];
  if (cp >= 0x80 && cp <= 0xff) out.push(pct(cp));
  out.push([{ syntax: '&' }, { syntax: '#' }, { re: `0*${cp}` }, { syntax: ';' }]);
  out.push([{ syntax: '&' }, { syntax: '#' }, { re: `[xX]0*${hexDigits(cp.toString(16))}` }, { syntax: ';' }]);
  if (NAMED[ch]) out.push([{ syntax: '&' }, { re: NAMED[ch] }, { syntax: ';' }]);
  const units: Piece[] = [];
  for (let i = 0; i < ch.length; i++) units.push({ syntax: '\\' }, { re: `u${hexDigits(ch.charCodeAt(i).toString(16).padStart(4, '0'))}` });
  out.push(units);
  if (JSON_SHORT[ch]) out.push([{ syntax: '\\' }, { re: esc(JSON_SHORT[ch]) }]);
  return out;
}

/** One character in any single-layer spelling (for the syntax of a second layer). */
const singleLayer = new Map<string, string>();
function anyOneLayer(ch: string): string {
  let re = singleLayer.get(ch);
  if (re === undefined) {
    const forms = escapesOf(ch).map((f) => f.map((p) => ('syntax' in p ? esc(p.syntax) : p.re)).join(''));
    re = `(?:${[...forms, esc(ch), ...(ch === ' ' ? ['\\+'] : [])].join('|')})`;
    singleLayer.set(ch, re);
  }
  return re;
}

/** One character of a secret as the wire may write it: itself, an escape, or an escape whose syntax is escaped once more. */
function characterPattern(ch: string, literal: (ch: string) => string): string {
  const forms = escapesOf(ch).map((f) => f.map((p) => ('syntax' in p ? (LAYERED.has(p.syntax) ? anyOneLayer(p.syntax) : esc(p.syntax)) : p.re)).join(''));
  forms.push(esc(literal(ch)));
  // A form body writes a space as +.
  if (ch === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

const patternCache = new Map<string, string>();

/**
 * A regular expression (source) for `secret` in every spelling the wire allows, each character
 * independently: as itself, percent-encoded (either case; UTF-8 or Latin-1), as an XML character
 * reference or named entity, JSON-escaped — and any of these with its own syntax escaped once
 * more (`\u0026amp;` in JSON written by .NET, `%26%2365%3B` in a form that carries XML). Comments
 * and CDATA sections between characters are searched by Redactor.spans on a view without them.
 */
export function spellingPattern(secret: string, literal: (ch: string) => string = (c) => c): string {
  const key = `${literal === utf8Literal ? 'b' : 't'}${secret}`;
  let re = patternCache.get(key);
  if (re === undefined) {
    if (patternCache.size >= SPELLING_CACHE_LIMIT) patternCache.clear();
    re = [...secret].map((ch) => characterPattern(ch, literal)).join('');
    patternCache.set(key, re);
  }
  return re;
}

/** The first MIN_CUT_PREFIX or more characters of `secret`, in any spelling, right at the end of the text. */
function prefixPattern(secret: string, literal?: (ch: string) => string): string {
  const chars = [...secret].map((ch) => characterPattern(ch, literal ?? ((c) => c)));
  let re = '';
  for (let i = chars.length - 1; i >= MIN_CUT_PREFIX; i--) re = `(?:${chars[i]}${re})?`;
  // The cut may also fall inside the escape of the next character (`…%3` of `%3C`, `…\u0026l` of
  // `\u0026lt;`), or inside a comment or CDATA marker that was to come before it.
  return `${chars.slice(0, MIN_CUT_PREFIX).join('')}${re}(?:(?:[%&\\\\][\\w#;]{0,12}){1,4}|<!--[\\s\\S]{0,1024}|<(?:!-?|!\\[[A-Z]{0,5}\\[?)?|\\]\\]?)?$`;
}

function collect(re: RegExp, text: string, found: Array<[number, number]>): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    found.push([m.index, m.index + m[0].length]);
  }
}

function merge(found: Array<[number, number]>): Span[] {
  if (found.length < 2) return found;
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: Array<[number, number]> = [found[0]];
  for (let i = 1; i < found.length; i++) {
    const last = out[out.length - 1];
    if (found[i][0] <= last[1]) last[1] = Math.max(last[1], found[i][1]);
    else out.push(found[i]);
  }
  return out;
}

const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

/** `text` with each span replaced; comments inside a span go with it. */
function maskSpans(text: string, found: readonly Replacement[]): string {
  if (!found.length) return text;
  let out = '';
  let at = 0;
  for (const [start, end, replacement] of found) {
    out += text.slice(at, start) + replacement;
    at = end;
  }
  return out + text.slice(at);
}

/** The CDATA markers of a masked stretch that do not pair up inside it: at most a close then an open. */
function openCdataBoundaries(masked: string): string {
  if (!masked.includes(CDATA_CLOSE) && !masked.includes(CDATA_OPEN)) return '';
  let closes = 0;
  let open = false;
  const marker = /<!--[\s\S]*?-->|<!\[CDATA\[|\]\]>/g;
  for (let m = marker.exec(masked); m; m = marker.exec(masked)) {
    if (m[0] === CDATA_OPEN) open = true;
    else if (m[0] === CDATA_CLOSE) {
      if (open) open = false;
      else closes++;
    }
  }
  return `${closes ? CDATA_CLOSE : ''}${open ? CDATA_OPEN : ''}`;
}

/**
 * Whether `text` holds `<!`, which starts a comment or a CDATA section: looked for from each `!`,
 * which replies and reports seldom hold, where a search for `<!` stops at every tag.
 */
function holdsMarkupDeclaration(text: string): boolean {
  for (let at = text.indexOf('!', 1); at >= 0; at = text.indexOf('!', at + 1)) if (text.charCodeAt(at - 1) === 0x3c /* < */) return true;
  return false;
}

/**
 * The text without XML comments and CDATA markers, and where each of its characters came from:
 * a secret written `abc<!-- -->def` or `abc]]><![CDATA[def` is whole again there. Undefined when
 * there is nothing to take out. Linear: a comment left open ends the taking out of comments.
 */
function withoutIgnorables(text: string): { text: string; origin(i: number): number } | undefined {
  if (!holdsMarkupDeclaration(text) && !text.includes(CDATA_CLOSE)) return undefined;
  const pieces: string[] = [];
  const viewStarts: number[] = [];
  const originStarts: number[] = [];
  let viewLength = 0;
  let at = 0;
  let comment = text.indexOf('<!--');
  let open = text.indexOf(CDATA_OPEN);
  let close = text.indexOf(CDATA_CLOSE);
  for (;;) {
    if (comment >= 0 && comment < at) comment = text.indexOf('<!--', at);
    if (open >= 0 && open < at) open = text.indexOf(CDATA_OPEN, at);
    if (close >= 0 && close < at) close = text.indexOf(CDATA_CLOSE, at);
    const next = Math.min(...[comment, open, close].filter((n) => n >= 0));
    if (!Number.isFinite(next)) break;
    let end: number;
    if (next === comment) {
      const shut = text.indexOf('-->', comment + 4);
      if (shut < 0) {
        comment = -1;
        continue;
      }
      end = shut + 3;
    } else end = next + (next === open ? CDATA_OPEN.length : CDATA_CLOSE.length);
    if (next > at) {
      pieces.push(text.slice(at, next));
      viewStarts.push(viewLength);
      originStarts.push(at);
      viewLength += next - at;
    }
    at = end;
  }
  if (at === 0) return undefined;
  if (at < text.length) {
    pieces.push(text.slice(at));
    viewStarts.push(viewLength);
    originStarts.push(at);
  }
  return {
    text: pieces.join(''),
    origin(i) {
      let lo = 0;
      let hi = viewStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (viewStarts[mid] <= i) lo = mid;
        else hi = mid - 1;
      }
      return originStarts[lo] + (i - viewStarts[lo]);
    },
  };
}

// ---- where a key stands ----

/** Cheap first look: no name of a key can be in a text without one of these (`api`, or its `a` escaped). */
const MAY_NAME_KEY = /api|%[46]1|\\u00[46]1/i;
/** A field, element or member name that holds an API key. */
const KEY_NAME = /^api[-_]?key$/i;
/** `<p:APIKey …>` (not `<APIKey/>`): its content, up to the next tag, is found by ContentEnds. */
const KEY_ELEMENT = /<(?:[\w.-]+:)?api[-_]?key\b(?:\s[^<>]*?)?(?<!\/)>/gi;
/** The same element XML-escaped inside another document's text. */
const KEY_ELEMENT_ESCAPED = /&lt;(?:[\w.-]+:)?api[-_]?key\b(?:\s(?:(?!&gt;)[^<>])*?)?&gt;((?:(?!&lt;)[^<])+)/gi;
/** `name=value` in a query string or form body (also inside XML, after `&amp;`). */
const FIELD = /(?:^|[?&;\s"'(,])([^=&?#;\s"'<>]{1,64})=([^&#;\s"'<>]+)/g;
/** `"name": "value"` in JSON. */
const MEMBER = /"((?:[^"\\]|\\.){1,64})"\s*:\s*"((?:[^"\\]|\\.)+)"/g;

function decodedName(name: string, decode: (s: string) => string): string {
  try {
    return decode(name);
  } catch {
    return name;
  }
}

/**
 * Where an element's content ends: at the next tag that is not a comment or a CDATA section.
 * The end of the next comment and CDATA section are remembered, so every content of a text is
 * read in one pass however many comments are left open.
 */
class ContentEnds {
  private commentEnd = -2;
  private cdataEnd = -2;
  constructor(private readonly text: string) {}

  after(from: number): number {
    const t = this.text;
    let i = from;
    for (;;) {
      const lt = t.indexOf('<', i);
      if (lt < 0) return t.length;
      i = lt;
      if (t.startsWith('<!--', i)) {
        if (this.commentEnd !== -1 && this.commentEnd < i) this.commentEnd = t.indexOf('-->', i + 4);
        if (this.commentEnd < 0) return i;
        i = this.commentEnd + 3;
      } else if (t.startsWith('<![CDATA[', i)) {
        if (this.cdataEnd !== -1 && this.cdataEnd < i) this.cdataEnd = t.indexOf(']]>', i + 9);
        if (this.cdataEnd < 0) return i;
        i = this.cdataEnd + 3;
      } else return i;
    }
  }
}

/** Values that stand where a key stands, whatever they are: each as a span of `text`. */
/**
 * The content of every APIKey element (any prefix, any attributes) that has one: text, comments
 * and CDATA sections up to the next tag, as spans of `text`. Linear in the text.
 */
export function keyElementContents(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (!MAY_NAME_KEY.test(text)) return out;
  const ends = new ContentEnds(text);
  KEY_ELEMENT.lastIndex = 0;
  for (let m = KEY_ELEMENT.exec(text); m; m = KEY_ELEMENT.exec(text)) {
    const start = m.index + m[0].length;
    const end = ends.after(start);
    if (text.slice(start, end).trim() !== '') out.push([start, end]);
    KEY_ELEMENT.lastIndex = Math.max(KEY_ELEMENT.lastIndex, end);
  }
  return out;
}

function keyPlaces(text: string, found: Array<[number, number]>): void {
  if (!MAY_NAME_KEY.test(text)) return;
  for (const span of keyElementContents(text)) found.push(span);
  KEY_ELEMENT_ESCAPED.lastIndex = 0;
  for (let m = KEY_ELEMENT_ESCAPED.exec(text); m; m = KEY_ELEMENT_ESCAPED.exec(text)) {
    if (m[1].trim() !== '') found.push([m.index + m[0].length - m[1].length, m.index + m[0].length]);
  }
  FIELD.lastIndex = 0;
  for (let m = FIELD.exec(text); m; m = FIELD.exec(text)) {
    if (KEY_NAME.test(decodedName(m[1], (s) => decodeURIComponent(s.replace(/\+/g, ' ')))))
      found.push([m.index + m[0].length - m[2].length, m.index + m[0].length]);
  }
  MEMBER.lastIndex = 0;
  for (let m = MEMBER.exec(text); m; m = MEMBER.exec(text)) {
    if (KEY_NAME.test(decodedName(m[1], (s) => JSON.parse(`"${s}"`) as string)))
      found.push([m.index + m[0].length - 1 - m[2].length, m.index + m[0].length - 1]);
  }
}

/** An object or array being redacted: where the walk is in it, and its copy once something changed. */
interface WalkFrame {
  readonly value: Record<string, unknown> | unknown[];
  /** Property names of an object; undefined for an array, whose indexes are walked. */
  readonly keys: string[] | undefined;
  readonly length: number;
  i: number;
  copy?: Record<string, unknown> | unknown[];
}

const isBranch = (v: unknown): v is Record<string, unknown> | unknown[] => v !== null && typeof v === 'object';

function walkFrame(value: Record<string, unknown> | unknown[]): WalkFrame {
  const keys = Array.isArray(value) ? undefined : Object.keys(value);
  return { value, keys, length: keys ? keys.length : (value as unknown[]).length, i: 0 };
}

function childOf(f: WalkFrame): unknown {
  return f.keys ? (f.value as Record<string, unknown>)[f.keys[f.i]] : (f.value as unknown[])[f.i];
}

/** The walked form of the frame's current child is `w`: copy the frame on its first change. */
function settle(f: WalkFrame, w: unknown): void {
  if (w !== childOf(f)) {
    if (f.keys) ((f.copy ??= { ...(f.value as Record<string, unknown>) }) as Record<string, unknown>)[f.keys[f.i]] = w;
    else ((f.copy ??= (f.value as unknown[]).slice()) as unknown[])[f.i] = w;
  }
  f.i++;
}

export function redactText(text: string, secrets: Iterable<string | undefined>): string {
  return new Redactor(secrets).text(text);
}

/** The last step of a text a run prints or writes: every spelling a report could give a secret, cut ones included. */
export function redactFinalText(text: string, secrets: Iterable<string | undefined>): string {
  return new Redactor(secrets, { derived: true }).text(text);
}

export function redactRequest(spec: HttpRequestSpec, secrets: Iterable<string | undefined>): HttpRequestSpec {
  return new Redactor(secrets).request(spec);
}

/** The values to hide for an exchange: the API key and the values of the secret variables. */
export function secretValues(apiKey: string | undefined, variables: Readonly<Record<string, unknown>>, secretNames: readonly string[]): string[] {
  const out: string[] = [];
  if (apiKey) out.push(apiKey);
  for (const name of secretNames) {
    const v = variables[name];
    if (v !== undefined && v !== null && String(v) !== '') out.push(String(v));
  }
  return out;
}
