/**
 * A regular expression from a request file (`matches`, `fault.code`/`reason`, `messages`). A
 * `{{variable}}` inside it stands for the variable's value matched literally, so
 * `"is scheduled for {{run.nextBusinessDay}}"` works without escaping the slashes of a date.
 * Patterns without variables are compiled once, when the file is read.
 *
 * A request file comes from a repository and a reply from a server: a backtracking engine would
 * let `(a+)+$` against forty `a`s hang a CI run for minutes. Patterns therefore run on re2js, a
 * linear-time engine (RE2's syntax: JavaScript's, without lookaround or backreferences, which
 * are refused with a located error when the file is read). `\uXXXX` and `\u{…}` are accepted as
 * JavaScript writes them.
 */
import type { RE2JS } from 're2js';
import { fillText, type Lookup } from './variables';

/**
 * re2js, required when a run first compiles a pattern: most collections have none, and the
 * engine's code (its Unicode tables above all) costs a process several milliseconds to load.
 */
let engine: typeof RE2JS | undefined;
function re2(): typeof RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy, as said above
  return (engine ??= (require('re2js') as typeof import('re2js')).RE2JS);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** What an assertion needs of a compiled pattern. */
export interface Matcher {
  /** Whether the pattern matches anywhere in `text` (unanchored, as `RegExp.test`). */
  test(text: string): boolean;
  /** `/source/`, for messages. */
  toString(): string;
}

/** JavaScript's `\uXXXX` and `\u{X…}` as RE2 writes them (`\x{…}`); every other escape stays. */
function fromJavaScript(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const m = /^u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/.exec(source.slice(i + 1, i + 10));
    if (m) {
      out += `\\x{${m[1] ?? m[2]}}`;
      i += m[0].length;
    } else {
      out += source.slice(i, i + 2);
      i++;
    }
  }
  return out;
}

function compile(source: string): Matcher {
  let re: RE2JS;
  try {
    re = re2().compile(fromJavaScript(source));
  } catch (e) {
    const message = String((e as Error).message).replace(/^error parsing regexp: /, '');
    const unsupported = /unsupported|invalid escape|\(\?[=!<]/.test(message)
      ? ' (patterns run on a linear-time engine: no lookahead, lookbehind or backreferences)'
      : '';
    throw new SyntaxError(`${message}${unsupported}`);
  }
  return { test: (text) => re.test(text), toString: () => `/${source}/` };
}

/** A pattern without variables (`carrier run --grep`), on the same linear-time engine; throws SyntaxError. */
export function linearPattern(source: string): Matcher {
  return compile(source);
}

export class Pattern {
  private readonly fixed: Matcher | undefined;

  /** Throws SyntaxError when the source is not a valid regular expression. */
  constructor(readonly source: string) {
    const probe = fillText(source, () => 'x');
    if (probe.missing.length === 0 && probe.text === source) this.fixed = compile(source);
    else compile(probe.text);
  }

  /** True when the pattern names no variable: the same regular expression whatever the run's values. */
  get constant(): boolean {
    return this.fixed !== undefined;
  }

  /** The pattern with variables filled in; `missing` names the variables without a value. */
  resolve(lookup: Lookup): { regex?: Matcher; missing: string[] } {
    if (this.fixed) return { regex: this.fixed, missing: [] };
    const filled = fillText(this.source, (name) => {
      const v = lookup(name);
      return v === undefined ? undefined : escape(v);
    });
    return filled.missing.length ? { missing: filled.missing } : { regex: compile(filled.text), missing: [] };
  }

  toString(): string {
    return `/${this.source}/`;
  }
}
