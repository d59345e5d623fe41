/**
 * Secrets out of everything people see. The API key (and every variable an environment marks
 * secret) is replaced by •••• in each displayed, logged, stored or exported copy: envelopes, URLs,
 * form bodies, curl commands, error messages, echoed replies. A secret reaches text in several
 * spellings (XML-escaped in an envelope, percent- or form-encoded in a URL), so every spelling the
 * workbench itself could produce is searched for; the longest first, so a shorter spelling never
 * leaves half of a longer one behind.
 */
import type { HttpRequestSpec } from './exchange';

export const MASK = '••••';
const ELLIPSIS = '…';
/** Fewer characters of a secret before a cut say next to nothing about it, and would mask ordinary words. */
const MIN_CUT_PREFIX = 4;

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
}

/**
 * A redactor for a fixed set of secrets; spellings are computed once. Empty values are ignored
 * (nothing to hide), the mask itself too.
 */
export class Redactor {
  private readonly spellings: string[];
  /** Final texts only: a spelling cut short by a report's `…` still gives its start away. */
  private readonly truncations: boolean;

  constructor(secrets: Iterable<string | undefined>, options: RedactorOptions = {}) {
    const all = new Set<string>();
    const spell = options.derived ? derivedSpellingsOf : secretSpellings;
    for (const s of secrets) if (s && s !== MASK) for (const f of spell(s)) all.add(f);
    this.spellings = [...all].sort((a, b) => b.length - a.length);
    this.truncations = options.derived === true;
  }

  get empty(): boolean {
    return this.spellings.length === 0;
  }

  text(text: string): string {
    let out = text;
    for (const s of this.spellings) if (out.includes(s)) out = out.split(s).join(MASK);
    if (this.truncations && out.includes(ELLIPSIS)) out = this.cutShort(out);
    return out;
  }

  /** A secret's start right before the `…` a report cut a long value with: masked like the whole. */
  private cutShort(text: string): string {
    let out = text;
    for (const s of this.spellings) {
      for (let n = s.length - 1; n >= MIN_CUT_PREFIX; n--) {
        const cut = `${s.slice(0, n)}${ELLIPSIS}`;
        if (out.includes(cut)) out = out.split(cut).join(`${MASK}${ELLIPSIS}`);
      }
    }
    return out;
  }

  /** True when `text` holds any spelling of a secret. */
  finds(text: string): boolean {
    return this.spellings.some((s) => text.includes(s));
  }

  request(spec: HttpRequestSpec): HttpRequestSpec {
    if (this.empty) return spec;
    return {
      method: spec.method,
      url: this.text(spec.url),
      headers: spec.headers.map(([n, v]) => [n, this.text(v)] as const),
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
