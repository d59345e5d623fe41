/**
 * Turns the `expect` object of a request file into checks, once per file: regexes compiled,
 * paths parsed, number literals kept exact, each check tied to its line:column. Mistakes are
 * reported here with their location, so a run never starts with an expectation it cannot judge.
 */
import type { Node } from 'jsonc-parser';
import { LineIndex } from './locate';
import { parseReplyPath, PathSyntaxError, type ReplyPath } from './replyPath';
import type { Failure, SourceLocation } from './types';
import { NumberLiteral, type Expected } from './values';
import { parseDate } from './dates';
import { magnitudeProblem, parseDecimal } from './decimal';
import { Pattern } from './pattern';
import { referencedNames } from './variables';
import type { OperationDef } from '../catalog/types';
import { replyPathProblem, type ReplyAdditions } from './replyPathCheck';
import { resultType, typeAtPath } from './replyTypes';
import { MAX_RETRY_ATTEMPTS, MAX_RETRY_DELAY_MS, RETRY_DEFAULTS, RETRY_KEYS, type RetryPolicy } from '../requestFile/retry';
import { closest, didYouMean } from '../requestFile/suggest';
import type { CompiledSnapshot } from './snapshot';

export type CompareOp = 'equals' | 'lt' | 'lte' | 'gt' | 'gte';
export const COMPARE_OPS: readonly CompareOp[] = ['equals', 'lt', 'lte', 'gt', 'gte'];

export interface Located<T> {
  readonly value: T;
  readonly location: SourceLocation;
}

/** `{ "gte": 1 }` or a bare number (meaning equals); operands kept as exact decimals. */
export type CompareSpec = ReadonlyArray<{ readonly op: CompareOp; readonly operand: NumberLiteral | string; readonly location: SourceLocation }>;

/**
 * `allowEmpty`: the file says (`"allowEmpty": true` beside the assertions) that a `{{variable}}`
 * of the value may be empty, and an empty `matches` pattern is meant; otherwise either is refused.
 */
export type ReplyOp =
  | { readonly op: 'equals'; readonly expected: Expected; readonly location: SourceLocation; readonly allowEmpty?: boolean }
  | { readonly op: 'matches'; readonly pattern: Pattern; readonly location: SourceLocation; readonly allowEmpty?: boolean }
  | { readonly op: 'exists'; readonly expected: boolean; readonly location: SourceLocation }
  | { readonly op: 'lt' | 'lte' | 'gt' | 'gte'; readonly operand: NumberLiteral | string; readonly location: SourceLocation; readonly allowEmpty?: boolean }
  | { readonly op: 'count'; readonly spec: CompareSpec; readonly location: SourceLocation };

export interface ReplyAssertion {
  readonly path: ReplyPath;
  readonly location: SourceLocation;
  readonly ops: readonly ReplyOp[];
}

export interface CompiledExpect {
  readonly status?: Located<readonly number[]>;
  readonly fault?: Located<boolean> & { readonly code?: Located<Pattern>; readonly reason?: Located<Pattern> };
  readonly success?: Located<boolean>;
  readonly messages: ReadonlyArray<Located<Pattern>>;
  readonly maxMs?: Located<number>;
  /**
   * What the reply body is, when it is not the service's XML answer (docs/collections.md#expect):
   * unstated, an HTML page, an empty body or plain text fails the test whatever else holds.
   */
  readonly body?: Located<ReplyBodyKind>;
  /** Contract warnings fail the test too (docs/collections.md#contract-findings). */
  readonly conforms?: Located<boolean>;
  readonly reply: readonly ReplyAssertion[];
  readonly documents?: {
    readonly location: SourceLocation;
    readonly count?: Located<CompareSpec>;
    readonly type?: Located<'pdf'>;
    readonly pages?: Located<CompareSpec>;
  };
}

export const EMPTY_EXPECT: CompiledExpect = { messages: [], reply: [] };

/** A literal quoted in a message: a thousand-digit typo is named by its start. */
function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const EXPECT_KEYS = ['status', 'fault', 'success', 'messages', 'maxMs', 'body', 'conforms', 'reply', 'documents'];
/** What a reply body may be said to be: `xml` is the service's answer (the default), `any` anything. */
export type ReplyBodyKind = 'xml' | 'html' | 'text' | 'empty' | 'any';
const BODY_KINDS: readonly ReplyBodyKind[] = ['xml', 'html', 'text', 'empty', 'any'];
const REPLY_OPS = ['equals', 'matches', 'exists', 'absent', 'lt', 'lte', 'gt', 'gte', 'count'];
/** Beside the assertions of a reply path: an empty value or pattern there is meant. */
const ALLOW_EMPTY = 'allowEmpty';

/** What the file's reply paths are checked against: its operation at its version, and what a live contract adds. */
export interface ReplyContext {
  readonly shape: OperationDef;
  readonly added?: ReplyAdditions;
}

class Compiler {
  readonly problems: Failure[] = [];
  constructor(
    private readonly text: string,
    private readonly lines: LineIndex,
    private readonly reply?: ReplyContext,
    /** Where the expectations are written, for messages: `expect`, or `retry.until` (the same language). */
    readonly root = 'expect',
  ) {}

  problem(node: Node, message: string): void {
    this.problems.push({ kind: 'file', message, location: this.lines.of(node) });
  }

  loc(node: Node): SourceLocation {
    return this.lines.of(node);
  }

  properties(node: Node, what: string): Array<[string, Node, Node]> {
    if (node.type !== 'object') {
      this.problem(node, `${what} must be an object`);
      return [];
    }
    return (node.children ?? []).flatMap((p) => {
      const [key, value] = p.children ?? [];
      return key && value ? [[String(key.value), value, p] as [string, Node, Node]] : [];
    });
  }

  /**
   * `allowEmpty` undefined: an empty pattern cannot be meant there (messages, fault); false: it
   * can, but the file does not say so.
   */
  regex(node: Node, what: string, allowEmpty?: boolean): Pattern | undefined {
    if (node.type !== 'string') {
      this.problem(node, `${what} must be a regular expression written as a string`);
      return undefined;
    }
    if (node.value === '' && !allowEmpty) {
      // An empty pattern matches every text: the expectation would hold whatever came.
      this.problem(
        node,
        `${what}: an empty pattern matches everything, so it checks nothing; write what the text must contain${allowEmpty === false ? `, or "${ALLOW_EMPTY}": true beside it if that is meant` : ''}`,
      );
      return undefined;
    }
    try {
      return new Pattern(node.value as string);
    } catch (e) {
      this.problem(node, `${what} is not a valid regular expression: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** A number literal, or undefined (with a problem) when it is beyond any value a reply carries. */
  number(node: Node, what: string): NumberLiteral | undefined {
    const literal = new NumberLiteral(this.text.slice(node.offset, node.offset + node.length));
    const d = parseDecimal(literal.raw);
    const problem = d ? magnitudeProblem(d) : `is not a number the runner reads`;
    if (problem) {
      this.problem(node, `${what}: ${clip(literal.raw)} ${problem}`);
      return undefined;
    }
    return literal;
  }

  expected(node: Node, what: string): Expected | undefined {
    switch (node.type) {
      case 'number':
        return this.number(node, what);
      case 'array': {
        const items = (node.children ?? []).map((c) => this.expected(c, what));
        return items.every((i) => i !== undefined) ? (items as Expected[]) : undefined;
      }
      case 'object': {
        const entries = this.properties(node, 'value').map(([k, v]) => [k, this.expected(v, what)] as const);
        return entries.every(([, v]) => v !== undefined) ? (Object.fromEntries(entries) as Expected) : undefined;
      }
      default:
        return node.value as string | boolean | null;
    }
  }

  operand(node: Node, what: string): NumberLiteral | string | undefined {
    if (node.type === 'number') return this.number(node, what);
    if (node.type === 'string') {
      const text = node.value as string;
      const d = parseDecimal(text);
      const problem = d && magnitudeProblem(d);
      if (problem) {
        this.problem(node, `${what}: ${clip(text)} ${problem}`);
        return undefined;
      }
      // A {{variable}} is judged when the run has its value.
      if (d || parseDate(text) || referencedNames(text).length) return text;
    }
    this.problem(
      node,
      `${what} needs a number, a decimal string ("0.10"), a money string ("$1,234.56"), a date ("2026-11-23", "2026-11-23T08:00:00Z", "11/23/2026") or a {{variable}}`,
    );
    return undefined;
  }

  compare(node: Node, what: string, integer: boolean): CompareSpec | undefined {
    if (node.type === 'number') {
      if (integer && !(Number.isInteger(node.value) && node.value >= 0)) {
        this.problem(node, `${what} must be a whole number, 0 or more`);
        return undefined;
      }
      const operand = this.operand(node, what);
      return operand === undefined ? undefined : [{ op: 'equals', operand, location: this.loc(node) }];
    }
    const spec: Array<CompareSpec[number]> = [];
    for (const [key, value, prop] of this.properties(node, what)) {
      if (!(COMPARE_OPS as readonly string[]).includes(key)) {
        this.problem(prop, `${what}: unknown comparison "${key}"; use ${COMPARE_OPS.join(', ')}`);
        continue;
      }
      if (integer && (value.type !== 'number' || !Number.isInteger(value.value) || value.value < 0)) {
        this.problem(value, `${what}.${key} must be a whole number, 0 or more`);
        continue;
      }
      const operand = this.operand(value, `${what}.${key}`);
      if (operand !== undefined) spec.push({ op: key as CompareOp, operand, location: this.loc(prop) });
    }
    if (!spec.length && node.type === 'object') this.problem(node, `${what} needs at least one of ${COMPARE_OPS.join(', ')}`);
    return spec.length ? spec : undefined;
  }

  /** A reply path, parsed and held against the catalog; undefined (with a problem) when it is neither. */
  replyPath(pathText: string, node: Node, what: string, one: boolean): ReplyPath | undefined {
    let path: ReplyPath;
    try {
      path = parseReplyPath(pathText);
    } catch (e) {
      this.problem(node, e instanceof PathSyntaxError ? e.message : String(e));
      return undefined;
    }
    if (one && path.quantified) {
      this.problem(node, `${what}: a capture takes one value; use [0] or [-1] instead of [*] or [?]`);
      return undefined;
    }
    const problem = this.reply && replyPathProblem(this.reply.shape, path, this.reply.added);
    if (problem) {
      this.problem(node, `${what}: "${pathText}": ${problem}`);
      return undefined;
    }
    return path;
  }

  /**
   * An expected number for a field the catalog types as a string (a PRO number, a ZIP, money) is
   * refused: `56391174` would equal `"56391174"` but never the `"056391174"` the service sends,
   * and two texts are compared as text (values.ts). Ordering comparisons read money strings as
   * numbers, as documented, and are left alone.
   */
  numberForString(path: ReplyPath, node: Node, what: string): boolean {
    if (node.type !== 'number' || !this.reply) return false;
    const type = typeAtPath(resultType(this.reply.shape.operation, this.reply.shape.version), path);
    if (!type || type.list || type.scalar !== 'string') return false;
    const raw = this.text.slice(node.offset, node.offset + node.length);
    const last = [...path.steps].reverse().find((s) => s.kind === 'key');
    const field = last?.kind === 'key' ? last.name : path.text;
    this.problem(
      node,
      `${what}: ${field} is a string field; write the expected text, e.g. "${clip(raw)}" (to compare money or other text as a number, use gte and lte)`,
    );
    return true;
  }

  replyAssertion(pathText: string, node: Node, prop: Node): ReplyAssertion | undefined {
    const path = this.replyPath(pathText, prop, `${this.root}.reply`, false);
    const ops: ReplyOp[] = [];
    // A bare value is shorthand for { "equals": value }.
    if (node.type !== 'object') {
      if (path && this.numberForString(path, node, `"${pathText}"`)) return undefined;
      const expected = this.expected(node, `"${pathText}"`);
      if (expected === undefined || !path) return undefined;
      ops.push({ op: 'equals', expected, location: this.loc(node) });
      return { path, location: this.loc(prop), ops };
    }
    const properties = this.properties(node, `"${pathText}"`);
    // Read first, wherever it is written: it applies to every assertion of the object.
    const allowNode = properties.find(([key]) => key === ALLOW_EMPTY)?.[1];
    if (allowNode && allowNode.type !== 'boolean') this.problem(allowNode, `"${pathText}".${ALLOW_EMPTY} must be true or false`);
    const allowEmpty = allowNode?.value === true;
    const allow = allowEmpty ? { allowEmpty } : {};
    for (const [key, value, opProp] of properties) {
      const location = this.loc(opProp);
      switch (key) {
        case ALLOW_EMPTY:
          break;
        case 'equals': {
          if (path && this.numberForString(path, value, `"${pathText}".equals`)) break;
          const expected = this.expected(value, `"${pathText}".equals`);
          if (expected !== undefined) ops.push({ op: 'equals', expected, location, ...allow });
          break;
        }
        case 'matches': {
          const re = this.regex(value, `"${pathText}".matches`, allowEmpty);
          if (re) ops.push({ op: 'matches', pattern: re, location, ...allow });
          break;
        }
        case 'exists':
        case 'absent':
          if (value.type !== 'boolean') {
            this.problem(value, `"${pathText}".${key} must be true or false`);
            break;
          }
          ops.push({ op: 'exists', expected: key === 'exists' ? value.value === true : value.value !== true, location });
          break;
        case 'lt':
        case 'lte':
        case 'gt':
        case 'gte': {
          const operand = this.operand(value, `"${pathText}".${key}`);
          if (operand !== undefined) ops.push({ op: key, operand, location, ...allow });
          break;
        }
        case 'count': {
          const spec = this.compare(value, `"${pathText}".count`, true);
          if (spec) ops.push({ op: 'count', spec, location });
          break;
        }
        default:
          this.problem(opProp, `"${pathText}": unknown assertion "${key}"; use ${REPLY_OPS.join(', ')} (and ${ALLOW_EMPTY})`);
      }
    }
    if (!ops.length && properties.every(([key]) => key === ALLOW_EMPTY)) this.problem(node, `"${pathText}" has no assertion; use ${REPLY_OPS.join(', ')}`);
    return ops.length && path ? { path, location: this.loc(prop), ops } : undefined;
  }

  expect(node: Node): CompiledExpect {
    const out: { -readonly [K in keyof CompiledExpect]: CompiledExpect[K] } = { messages: [], reply: [] };
    for (const [key, value, prop] of this.properties(node, this.root)) {
      const location = this.loc(prop);
      switch (key) {
        case 'status': {
          const items = value.type === 'array' ? (value.children ?? []) : [value];
          const codes = items.filter((n) => n.type === 'number' && Number.isInteger(n.value) && n.value >= 100 && n.value <= 599).map((n) => n.value as number);
          if (codes.length !== items.length || !codes.length)
            this.problem(value, `${this.root}.status must be an HTTP status code (100–599) or a list of them`);
          else out.status = { value: codes, location };
          break;
        }
        case 'fault': {
          if (value.type === 'boolean') {
            out.fault = { value: value.value === true, location };
            break;
          }
          const fault: { value: boolean; location: SourceLocation; code?: Located<Pattern>; reason?: Located<Pattern> } = { value: true, location };
          for (const [k, v, p] of this.properties(value, `${this.root}.fault`)) {
            if (k !== 'code' && k !== 'reason') {
              this.problem(p, `${this.root}.fault: unknown key "${k}"; use code or reason`);
              continue;
            }
            const re = this.regex(v, `${this.root}.fault.${k}`);
            if (re) fault[k] = { value: re, location: this.loc(p) };
          }
          out.fault = fault;
          break;
        }
        case 'success':
          if (value.type !== 'boolean') this.problem(value, `${this.root}.success must be true or false`);
          else out.success = { value: value.value === true, location };
          break;
        case 'messages': {
          const items = value.type === 'array' ? (value.children ?? []) : [value];
          out.messages = items.flatMap((n) => {
            const re = this.regex(n, `${this.root}.messages item`);
            return re ? [{ value: re, location: this.loc(n) }] : [];
          });
          break;
        }
        case 'maxMs':
          if (value.type !== 'number' || !(value.value > 0)) this.problem(value, `${this.root}.maxMs must be a positive number of milliseconds`);
          else out.maxMs = { value: value.value as number, location };
          break;
        case 'body':
          if (value.type !== 'string' || !(BODY_KINDS as readonly string[]).includes(value.value as string))
            this.problem(value, `${this.root}.body must be one of ${BODY_KINDS.map((k) => `"${k}"`).join(', ')}`);
          else out.body = { value: value.value as ReplyBodyKind, location };
          break;
        case 'conforms':
          if (value.type !== 'boolean') this.problem(value, `${this.root}.conforms must be true or false`);
          else out.conforms = { value: value.value === true, location };
          break;
        case 'reply':
          out.reply = this.properties(value, `${this.root}.reply`).flatMap(([path, v, p]) => {
            const a = this.replyAssertion(path, v, p);
            return a ? [a] : [];
          });
          break;
        case 'documents': {
          const docs: { -readonly [K in keyof NonNullable<CompiledExpect['documents']>]: NonNullable<CompiledExpect['documents']>[K] } = { location };
          for (const [k, v, p] of this.properties(value, `${this.root}.documents`)) {
            if (k === 'count' || k === 'pages') {
              const spec = this.compare(v, `${this.root}.documents.${k}`, true);
              if (spec) docs[k] = { value: spec, location: this.loc(p) };
            } else if (k === 'type') {
              if (v.value !== 'pdf') this.problem(v, `${this.root}.documents.type: only "pdf" is known`);
              else docs.type = { value: 'pdf', location: this.loc(p) };
            } else this.problem(p, `${this.root}.documents: unknown key "${k}"; use count, type or pages`);
          }
          out.documents = docs;
          break;
        }
        default:
          this.problem(prop, `Unknown expectation "${key}"${this.root === 'expect' ? '' : ` in ${this.root}`}; use ${EXPECT_KEYS.join(', ')}`);
      }
    }
    return out;
  }
}

/** `reply`: the file's operation, when it names one the catalog has; its reply paths are checked against it. */
export function compileExpect(node: Node | undefined, text: string, lines: LineIndex, reply?: ReplyContext): { expect: CompiledExpect; problems: Failure[] } {
  if (!node) return { expect: EMPTY_EXPECT, problems: [] };
  const c = new Compiler(text, lines, reply);
  return { expect: c.expect(node), problems: c.problems };
}

export interface CompiledCapture {
  readonly name: string;
  readonly path: ReplyPath;
  readonly location: SourceLocation;
}

const VARIABLE_NAME = /^[A-Za-z_][\w.-]*$/;

/** `capture: { name: path }`; paths may index ([0], [-1]) but not quantify. */
export function compileCapture(
  node: Node | undefined,
  text: string,
  lines: LineIndex,
  reply?: ReplyContext,
): { captures: CompiledCapture[]; problems: Failure[] } {
  if (!node) return { captures: [], problems: [] };
  const c = new Compiler(text, lines, reply);
  const captures: CompiledCapture[] = [];
  for (const [name, value, prop] of c.properties(node, 'capture')) {
    if (!VARIABLE_NAME.test(name)) {
      c.problem(prop, `capture name "${name}" must start with a letter or _ and hold only letters, digits, _, - and .`);
      continue;
    }
    if (value.type !== 'string') {
      c.problem(value, `capture "${name}" must be a reply path written as a string, e.g. "BolID"`);
      continue;
    }
    const path = c.replyPath(value.value as string, value, `capture "${name}"`, true);
    if (path) captures.push({ name, path, location: lines.of(prop) });
  }
  return { captures, problems: c.problems };
}

/** A file's `retry`, compiled: the policy, and `until` in the language of `expect`. */
export interface CompiledRetry extends RetryPolicy {
  readonly until: CompiledExpect;
  /** The `until` key: where a wait that never held points. */
  readonly location: SourceLocation;
}

/** Whether compiled expectations state anything: an `until` that states nothing would hold at once. */
function statesSomething(e: CompiledExpect): boolean {
  return !!(e.status || e.fault || e.success || e.messages.length || e.maxMs || e.body || e.conforms || e.reply.length || e.documents);
}

/**
 * `retry: { until, attempts, delayMs, backoff, maxDelayMs }` (docs/request-files.md#retry). `until`
 * is compiled as `expect` is (its reply paths held against the catalog, its mistakes located);
 * the numbers are checked against the limits of src/core/requestFile/retry.ts.
 */
export function compileRetry(node: Node | undefined, text: string, lines: LineIndex, reply?: ReplyContext): { retry?: CompiledRetry; problems: Failure[] } {
  if (!node) return { problems: [] };
  const c = new Compiler(text, lines, reply, 'retry.until');
  // The reader already said that a `retry` which is not an object is wrong (read.ts).
  if (node.type !== 'object') return { problems: [] };
  const policy: { -readonly [K in keyof RetryPolicy]: RetryPolicy[K] } = { ...RETRY_DEFAULTS };
  let until: CompiledExpect | undefined;
  let location: SourceLocation | undefined;
  const whole = (value: Node, key: string, min: number, max: number, unit: string): number | undefined => {
    if (value.type !== 'number' || !Number.isInteger(value.value) || value.value < min || value.value > max) {
      c.problem(value, `retry.${key} must be a whole number from ${min} to ${max}${unit}`);
      return undefined;
    }
    return value.value as number;
  };
  for (const [key, value, prop] of c.properties(node, 'retry')) {
    switch (key) {
      case 'until': {
        location = c.loc(prop);
        if (value.type !== 'object') {
          c.problem(value, 'retry.until must be an object in the language of expect, e.g. { "reply": { "Result.Status": "Delivered" } }');
          break;
        }
        const before = c.problems.length;
        const compiled = c.expect(value);
        if (c.problems.length === before && !statesSomething(compiled))
          c.problem(value, 'retry.until checks nothing, so it would hold at once; say what must hold (status, fault, success, messages, reply, documents)');
        until = compiled;
        break;
      }
      case 'attempts':
        policy.attempts = whole(value, key, 1, MAX_RETRY_ATTEMPTS, '') ?? policy.attempts;
        break;
      case 'delayMs':
      case 'maxDelayMs': {
        const ms = whole(value, key, 0, MAX_RETRY_DELAY_MS, ' (milliseconds, at most an hour)');
        if (ms !== undefined) policy[key] = ms;
        break;
      }
      case 'backoff':
        if (value.type !== 'number' || !(value.value >= 1) || value.value > 10)
          c.problem(value, 'retry.backoff must be a number from 1 to 10 (each wait is the last one times this)');
        else policy.backoff = value.value as number;
        break;
      default: {
        const guess = closest(key, RETRY_KEYS);
        c.problem(prop, `retry: unknown key "${key}"${guess ? didYouMean(guess) : `; use ${RETRY_KEYS.join(', ')}`}`);
      }
    }
  }
  if (!location)
    c.problem(
      node,
      'retry.until is missing: say what must hold before the waiting ends, as in expect (e.g. "until": { "reply": { "Result.Status": "Delivered" } })',
    );
  if (policy.maxDelayMs !== undefined && policy.maxDelayMs < policy.delayMs) {
    const prop = node.children?.find((p) => p.children?.[0]?.value === 'maxDelayMs');
    c.problem(prop ?? node, `retry.maxDelayMs (${policy.maxDelayMs}) is below delayMs (${policy.delayMs}): no wait could be that short`);
  }
  if (c.problems.length || !until || !location) return { problems: c.problems };
  return { retry: { ...policy, until, location }, problems: [] };
}

/**
 * `snapshot: true | false | { "ignore": [reply paths] }` (docs/collections.md#snapshots). Each
 * ignore path is checked as expect's reply paths are (replyPathCheck.ts), its mistakes located;
 * `[*]` and `[?]` stand for any item, a negative index for none, so it is refused.
 */
export function compileSnapshot(
  node: Node | undefined,
  text: string,
  lines: LineIndex,
  reply?: ReplyContext,
): { snapshot?: CompiledSnapshot; problems: Failure[] } {
  if (!node) return { problems: [] };
  const c = new Compiler(text, lines, reply, 'snapshot');
  const location = c.loc(node.parent?.type === 'property' ? node.parent : node);
  if (node.type === 'boolean') return { snapshot: { ...(node.value === false ? { off: true } : {}), ignore: [], location }, problems: [] };
  const ignore: ReplyPath[] = [];
  for (const [key, value, prop] of c.properties(node, 'snapshot')) {
    if (key !== 'ignore') {
      c.problem(prop, `snapshot: unknown key "${key}"; use "ignore": ["Result.Charges[*].Amount"]`);
      continue;
    }
    if (value.type !== 'array') {
      c.problem(value, 'snapshot.ignore must be a list of reply paths, e.g. ["Result.Charges[*].Amount"]');
      continue;
    }
    for (const item of value.children ?? []) {
      if (item.type !== 'string') {
        c.problem(item, 'snapshot.ignore: each item is a reply path written as a string');
        continue;
      }
      const p = c.replyPath(item.value as string, item, 'snapshot.ignore', false);
      if (!p) continue;
      if (!p.steps.length) c.problem(item, 'snapshot.ignore: "$" would ignore the whole reply; write "snapshot": false to keep no snapshot');
      else if (p.steps.some((s) => s.kind === 'index' && s.index < 0))
        c.problem(item, `snapshot.ignore: "${p.text}": a negative index is not one item of every reply; use [*] for every item`);
      else ignore.push(p);
    }
  }
  return c.problems.length ? { problems: c.problems } : { snapshot: { ignore, location }, problems: [] };
}
