/**
 * A regular expression from a request file (`matches`, `fault.reason`, `messages`). A
 * `{{variable}}` inside it stands for the variable's value matched literally, so
 * `"is scheduled for {{run.nextBusinessDay}}"` works without escaping the slashes of a date.
 * Patterns without variables are compiled once, when the file is read.
 */
import { fillText, type Lookup } from './variables';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export class Pattern {
  private readonly fixed: RegExp | undefined;

  /** Throws SyntaxError when the source is not a valid regular expression. */
  constructor(readonly source: string) {
    const probe = fillText(source, () => 'x');
    if (probe.missing.length === 0 && probe.text === source) this.fixed = new RegExp(source);
    else new RegExp(probe.text);
  }

  /** The regex with variables filled in; `missing` names the variables without a value. */
  resolve(lookup: Lookup): { regex?: RegExp; missing: string[] } {
    if (this.fixed) return { regex: this.fixed, missing: [] };
    const filled = fillText(this.source, (name) => { const v = lookup(name); return v === undefined ? undefined : escape(v); });
    return filled.missing.length ? { missing: filled.missing } : { regex: new RegExp(filled.text), missing: [] };
  }

  toString(): string {
    return `/${this.source}/`;
  }
}
