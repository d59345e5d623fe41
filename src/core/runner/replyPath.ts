/**
 * Paths into the parsed reply, as `expect.reply` keys and `capture` values write them:
 * `Result.ServiceLevels[0].Code`, `Result.Charges[*].Amount`, `Result.Shipment[?].ShortStatus`.
 *
 *   name     a child element (record field)
 *   [n]      item n of a list, 0-based; [-1] is the last item
 *   [*]      every item: holds when the list has at least one item and all of them satisfy the
 *            rest of the assertion (an empty list fails, so a missing list never passes quietly)
 *   [?]      some item: holds when at least one item satisfies the rest of the assertion — all
 *            of its checks, by that one item
 *   $        the whole reply (only as the entire path)
 *
 * A single value where a list is indexed is read as a one-item list: elements the catalog does
 * not describe become arrays only when they repeat, so `[0]` and `[*]` work on them either way.
 */
import { isObject } from '../objects';

export type PathStep =
  { readonly kind: 'key'; readonly name: string } | { readonly kind: 'index'; readonly index: number } | { readonly kind: 'every' } | { readonly kind: 'some' };

export interface ReplyPath {
  readonly text: string;
  readonly steps: readonly PathStep[];
  readonly quantified: boolean;
}

export class PathSyntaxError extends Error {
  constructor(
    readonly path: string,
    readonly column: number,
    message: string,
  ) {
    super(`${message} in reply path "${path}" at character ${column + 1}`);
    this.name = 'PathSyntaxError';
  }
}

const NAME = /[^.[\]\s]+/y;
const INDEX = /\[(-?\d+|\*|\?)\]/y;

export function parseReplyPath(text: string): ReplyPath {
  if (text === '$') return { text, steps: [], quantified: false };
  if (text === '') throw new PathSyntaxError(text, 0, 'Empty path (use "$" for the whole reply)');
  const steps: PathStep[] = [];
  let i = 0;
  let expectName = true;
  while (i < text.length) {
    if (text[i] === '[') {
      INDEX.lastIndex = i;
      const m = INDEX.exec(text);
      if (!m) throw new PathSyntaxError(text, i, 'Expected [n], [*] or [?]');
      steps.push(m[1] === '*' ? { kind: 'every' } : m[1] === '?' ? { kind: 'some' } : { kind: 'index', index: Number(m[1]) });
      i = INDEX.lastIndex;
      expectName = false;
      continue;
    }
    if (!expectName) {
      if (text[i] !== '.') throw new PathSyntaxError(text, i, 'Expected "." or "["');
      i++;
    }
    NAME.lastIndex = i;
    const m = NAME.exec(text);
    if (!m) throw new PathSyntaxError(text, i, 'Expected an element name');
    steps.push({ kind: 'key', name: m[0] });
    i = NAME.lastIndex;
    expectName = false;
  }
  return { text, steps, quantified: steps.some((s) => s.kind === 'every' || s.kind === 'some') };
}

function appendStep(path: string, step: PathStep, index?: number): string {
  if (step.kind === 'key') return path ? `${path}.${step.name}` : step.name;
  return `${path}[${index ?? (step.kind === 'index' ? step.index : '?')}]`;
}

/** The items of a value read as a list: arrays as they are, a single present value as one item. */
export function asList(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}

/** One place a check did not hold: the concrete path (indexes filled in) and the value found. */
export interface PathFailure {
  readonly path: string;
  readonly actual: unknown;
  readonly message: string;
  /**
   * Which of the checks did not hold (its index), for a failure of one check at one value. Absent
   * when the assertion as a whole did not: no item of a `[?]` list satisfies every check, a
   * quantified list is empty, or a list is named without an index.
   */
  readonly check?: number;
}

export interface PathOutcome {
  readonly ok: boolean;
  readonly failures: readonly PathFailure[];
}

/** Checks a value at a concrete path; returns why it does not hold, or undefined when it does. */
export type ValueCheck = (value: unknown, path: string) => string | undefined;

const PASS: PathOutcome = { ok: true, failures: [] };

/** Items of a failed `[?]` whose reasons are quoted in its message. */
const SOME_HINTS = 3;

/**
 * Applies `check` at `path` under the quantifiers the path contains. Failures name the concrete
 * path of each offending item, so `[*]` reports which item broke the rule.
 */
export function checkPath(root: unknown, path: ReplyPath, check: ValueCheck): PathOutcome {
  return checkAll(root, path, [check]);
}

/**
 * Applies the checks of one assertion object together. Quantifiers range over items, not over
 * checks: `[?]` holds when one single item satisfies every check (two items that each satisfy
 * half do not), `[*]` when every item satisfies all of them; nested, each quantifier applies to
 * the rest of the path. `describe` names the checks in the message of a failed `[?]`.
 */
export function checkAll(root: unknown, path: ReplyPath, checks: readonly ValueCheck[], describe?: string): PathOutcome {
  return walk(root, path.steps, 0, '', checks, describe);
}

function walk(value: unknown, steps: readonly PathStep[], i: number, at: string, checks: readonly ValueCheck[], describe: string | undefined): PathOutcome {
  if (i === steps.length) {
    const here = at || '$';
    const failures: PathFailure[] = [];
    checks.forEach((check, n) => {
      const message = check(value, here);
      if (message !== undefined) failures.push({ path: here, actual: value, message, check: n });
    });
    return failures.length ? { ok: false, failures } : PASS;
  }
  const step = steps[i];
  switch (step.kind) {
    case 'key': {
      if (Array.isArray(value)) {
        const here = at || '$';
        return fail(here, value, `${here} is a list of ${value.length}; pick items with [n], [*] (every) or [?] (some) before .${step.name}`);
      }
      const child = isObject(value) ? value[step.name] : undefined;
      return walk(child, steps, i + 1, appendStep(at, step), checks, describe);
    }
    case 'index': {
      const items = asList(value);
      const n = step.index < 0 ? items.length + step.index : step.index;
      return walk(n >= 0 && n < items.length ? items[n] : undefined, steps, i + 1, appendStep(at, step, step.index), checks, describe);
    }
    case 'every': {
      const items = asList(value);
      if (!items.length) return fail(`${at}[*]`, value, `${at || '$'} has no items, so "every item" cannot hold`);
      const failures: PathFailure[] = [];
      items.forEach((item, n) => {
        for (const f of walk(item, steps, i + 1, appendStep(at, step, n), checks, describe).failures) failures.push(f);
      });
      return failures.length ? { ok: false, failures } : PASS;
    }
    case 'some': {
      const items = asList(value);
      if (!items.length) return fail(`${at}[?]`, value, `${at || '$'} has no items, so "some item" cannot hold`);
      const hints: string[] = [];
      for (let n = 0; n < items.length; n++) {
        const outcome = walk(items[n], steps, i + 1, appendStep(at, step, n), checks, describe);
        if (outcome.ok) return PASS;
        const first = outcome.failures[0];
        if (hints.length < SOME_HINTS && first) hints.push(`${first.path}: ${first.message}`);
      }
      const what = checks.length > 1 && describe ? ` ${describe} at once` : '';
      const more = items.length > hints.length ? '; …' : '';
      return fail(
        `${at}[?]`,
        value,
        `none of the ${items.length} item${items.length === 1 ? '' : 's'} of ${at || '$'} holds${what} (${hints.join('; ')}${more})`,
      );
    }
  }
}

function fail(path: string, actual: unknown, message: string): PathOutcome {
  return { ok: false, failures: [{ path, actual, message }] };
}

/** The single value at a path without quantifiers (captures); undefined when nothing is there. */
export function valueAt(root: unknown, path: ReplyPath): unknown {
  let value = root;
  for (const step of path.steps) {
    if (step.kind === 'key') value = isObject(value) ? value[step.name] : undefined;
    else if (step.kind === 'index') {
      const items = asList(value);
      const n = step.index < 0 ? items.length + step.index : step.index;
      value = items[n];
    } else throw new Error(`valueAt: "${path.text}" has a quantifier`);
  }
  return value;
}
