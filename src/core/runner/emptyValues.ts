/**
 * A `{{variable}}` of an expectation that is empty checks nothing: `"matches": "{{pattern}}"`
 * with an empty pattern matches every value, and `"equals": "{{po}}"` expects an empty element.
 * Where the value is known before anything is sent — `--var`, a data row's cell, the
 * environment's or the collection's `variables` — such an expectation is a file error at its
 * line:column, unless the file says the empty value is meant (`"allowEmpty": true` beside the
 * assertions of a reply path; `messages` and `fault` patterns have no such key). Values captured
 * from earlier replies are known only during the run, where the judge refuses them
 * (evaluate.ts, Judge). docs/collections.md#expect.
 *
 * This file checks one file's expectations against the values known for it; rows.ts asks it
 * for each data row, emptyVariables.ts for the rest of a run's values.
 */
import type { CompiledExpect } from './compileExpect';
import type { Failure, SourceLocation } from './types';
import { NumberLiteral, type Expected } from './values';
import { variableReferences } from './variables';

/** A value of an expectation that may name variables. */
interface ExpectationText {
  /** For messages: `"Result.Charges[0].Amount".matches`, `expect.messages`. */
  readonly what: string;
  readonly texts: readonly string[];
  readonly location: SourceLocation;
  /** undefined: the file cannot say an empty value is meant there (messages, fault). */
  readonly allowEmpty?: boolean;
}

/** A variable's value known before the run, and where it comes from (`--var pattern=`). */
export interface KnownValue {
  readonly value: string;
  readonly from: string;
}

/** The known value of a name; undefined when it is known only during the run (or not at all). */
export type KnownLookup = (name: string) => KnownValue | undefined;

function stringsOf(value: Expected, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('{{')) out.push(value);
  } else if (Array.isArray(value)) value.forEach((v) => stringsOf(v, out));
  else if (value && typeof value === 'object' && !(value instanceof NumberLiteral)) Object.values(value).forEach((v) => stringsOf(v, out));
  return out;
}

function expectationTexts(expect: CompiledExpect): ExpectationText[] {
  const out: ExpectationText[] = [];
  for (const assertion of expect.reply) {
    for (const op of assertion.ops) {
      const what = `"${assertion.path.text}".${op.op}`;
      const allowEmpty = 'allowEmpty' in op && op.allowEmpty === true;
      if (op.op === 'equals') out.push({ what, texts: stringsOf(op.expected), location: op.location, allowEmpty });
      else if (op.op === 'matches') out.push({ what, texts: [op.pattern.source], location: op.location, allowEmpty });
      else if (op.op !== 'exists' && op.op !== 'count' && typeof op.operand === 'string')
        out.push({ what, texts: [op.operand], location: op.location, allowEmpty });
    }
  }
  for (const m of expect.messages) out.push({ what: 'expect.messages', texts: [m.value.source], location: m.location });
  if (expect.fault?.code) out.push({ what: 'expect.fault.code', texts: [expect.fault.code.value.source], location: expect.fault.code.location });
  if (expect.fault?.reason) out.push({ what: 'expect.fault.reason', texts: [expect.fault.reason.value.source], location: expect.fault.reason.location });
  return out.filter((t) => t.texts.length && !t.allowEmpty);
}

/** The expectations of `expect` that a known empty value empties, each once per name. */
export function emptyExpectationProblems(expect: CompiledExpect, known: KnownLookup): Failure[] {
  const problems: Failure[] = [];
  for (const e of expectationTexts(expect)) {
    const said = new Set<string>();
    for (const ref of e.texts.flatMap(variableReferences)) {
      const k = known(ref.name);
      if (k?.value !== '' || said.has(ref.name)) continue;
      said.add(ref.name);
      const hint =
        e.allowEmpty === false ? `; give it a value, or write "allowEmpty": true beside the assertions if an empty value is meant` : '; give it a value';
      problems.push({
        kind: 'variable',
        message: `${e.what}: {{${ref.name}}} is empty (${k.from}), and an expectation with an empty value checks nothing${hint}`,
        location: e.location,
      });
    }
  }
  return problems;
}
