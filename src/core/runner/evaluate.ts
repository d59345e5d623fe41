/**
 * Judges one exchange against a compiled `expect`. Every failure says what was expected, what
 * came and where: the concrete reply path and the expectation's line:column in the file.
 *
 * Unstated expectations are not "anything goes": they fall back on core's verdict
 * (src/core/verdict.ts), the same one that sets `carrier send`'s exit code. Without `fault` a
 * SOAP fault fails the test; without `status` a non-2xx status fails it (unless a fault is
 * expected); a 2xx reply that is not the service's answer (an HTML page, an empty body, plain
 * text, JSON, XML cut short) fails whatever is expected; and without `success` or `messages` an
 * in-body error fails it. A collection of bare requests therefore still catches a broken service.
 */
import type { Exchange } from '../exchange';
import { classifyExchange } from '../verdict';
import { BODY_PHRASES, bodyKind } from '../reply/bodyKind';
import { findingText } from '../findingText';
import { headerValue } from '../recognize/headers';
import { compareDates, parseDate } from './dates';
import { compareDecimals, magnitudeProblem } from './decimal';
import type { CompareSpec, CompiledExpect, ReplyAssertion, ReplyOp } from './compileExpect';
import type { Matcher, Pattern } from './pattern';
import { checkAll, type PathFailure, type ReplyPath, type ValueCheck } from './replyPath';
import { DATE_TYPES, NUMERIC_TYPES, resultType, typeAtPath, type ScalarType, type ValueType } from './replyTypes';
import type { Failure, SourceLocation } from './types';
import { countOf, decimalOf, numberOf, NumberLiteral, show, textOf, valuesEqual, type Expected } from './values';
import { mentionsVariable } from '../requestFile/variables';
import { fillText, type Lookup } from './variables';

/** At most this many failing items of one `[*]` assertion are listed; the rest are counted. */
const MAX_ITEM_FAILURES = 5;

const SYMBOL: Record<string, string> = { equals: '=', lt: '<', lte: '≤', gt: '>', gte: '≥' };

function holds(op: string, cmp: number): boolean {
  switch (op) {
    case 'lt':
      return cmp < 0;
    case 'lte':
      return cmp <= 0;
    case 'gt':
      return cmp > 0;
    case 'gte':
      return cmp >= 0;
    default:
      return cmp === 0;
  }
}

function operandText(o: NumberLiteral | string): string {
  return o instanceof NumberLiteral ? o.raw : o;
}

function specText(spec: CompareSpec): string {
  return spec.map((s) => `${SYMBOL[s.op]} ${operandText(s.operand)}`).join(' and ');
}

/** Whether a count (or page number) satisfies every comparison of a spec. */
function countHolds(n: number, spec: CompareSpec): boolean {
  const d = decimalOf(n)!;
  return spec.every((s) => {
    const o = decimalOf(s.operand);
    return !!o && holds(s.op, compareDecimals(d, o));
  });
}

class Judge {
  readonly failures: Failure[] = [];
  constructor(private readonly lookup: Lookup) {}

  add(f: Failure): void {
    this.failures.push(f);
  }

  /**
   * Fills variables into an expected value; undefined (with a failure) when one is missing, or
   * is empty and `allowEmpty` is not true (undefined: the file cannot say an empty value is meant).
   */
  fill<T extends Expected>(value: T, location: SourceLocation, allowEmpty?: boolean): T | undefined {
    let missing: string[] = [];
    const empty: string[] = [];
    const lookup = allowEmpty ? this.lookup : this.noting(empty);
    const walk = (v: Expected): Expected => {
      if (typeof v === 'string') {
        const r = fillText(v, lookup);
        missing = missing.concat(r.missing);
        return r.text;
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object' && !(v instanceof NumberLiteral)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    const out = walk(value) as T;
    if (missing.length) {
      this.missing(missing, location);
      return undefined;
    }
    if (empty.length) {
      this.empty(empty, location, allowEmpty);
      return undefined;
    }
    return out;
  }

  /** A pattern with its variables filled in; undefined (with a failure) when one is missing, or empty as in `fill`. */
  regex(pattern: Pattern, location: SourceLocation, allowEmpty?: boolean): Matcher | undefined {
    const empty: string[] = [];
    const r = pattern.resolve(allowEmpty ? this.lookup : this.noting(empty));
    if (r.missing.length) this.missing(r.missing, location);
    else if (empty.length) {
      this.empty(empty, location, allowEmpty);
      return undefined;
    }
    return r.regex;
  }

  /** The lookup, noting the names whose value is empty: checked before the run where known (emptyValues.ts), else here. */
  private noting(empty: string[]): Lookup {
    return (name) => {
      const v = this.lookup(name);
      if (v === '' && !empty.includes(name)) empty.push(name);
      return v;
    };
  }

  private empty(names: readonly string[], location: SourceLocation, allowEmpty: boolean | undefined): void {
    const hint = allowEmpty === false ? '; write "allowEmpty": true beside the assertions if an empty value is meant' : '';
    this.add({
      kind: 'variable',
      message: `the expectation uses ${names.map((n) => `{{${n}}}`).join(', ')}, which ${names.length === 1 ? 'is' : 'are'} empty in this run, and an expectation with an empty value checks nothing${hint}`,
      location,
    });
  }

  private missing(names: readonly string[], location: SourceLocation): void {
    this.add({ kind: 'variable', message: `the expectation uses ${names.map((n) => `{{${n}}}`).join(', ')}, which has no value in this run`, location });
  }
}

/**
 * Why an operand cannot be compared with; undefined when it can. compileExpect.ts refuses such
 * literals; a {{variable}} is only known now.
 */
function operandProblem(operand: NumberLiteral | string): string | undefined {
  if (operand instanceof NumberLiteral) {
    let known = literalProblems.get(operand);
    if (known === undefined) literalProblems.set(operand, (known = operandProblemOf(operand) ?? null));
    return known ?? undefined;
  }
  return operandProblemOf(operand);
}

/** By literal: compiled expectations are judged against every reply of a run (null: none). */
const literalProblems = new WeakMap<NumberLiteral, string | null>();

function operandProblemOf(operand: NumberLiteral | string): string | undefined {
  const d = decimalOf(operand);
  if (d) {
    const p = magnitudeProblem(d);
    return p && `the expectation compares with ${operandText(operand)}, which ${p}`;
  }
  if (typeof operand === 'string' && parseDate(operand)) return undefined;
  return `the expectation compares with "${operandText(operand)}", which is not a number or a date`;
}

const TYPE_NAMES: Record<ScalarType, string> = {
  int: 'an int',
  float: 'a float',
  decimal: 'a decimal',
  dateTime: 'an xs:dateTime',
  date: 'a MM/DD/YYYY date',
  boolean: 'a boolean',
  string: 'a string',
  base64Binary: 'base64 data',
};

/** lt/lte/gt/gte: by the field's catalog type where it has one, else by what the operand is. */
function orderCheck(op: Extract<ReplyOp, { op: 'lt' | 'lte' | 'gt' | 'gte' }>, judge: Judge, type: ValueType | undefined): OpCheck | undefined {
  const operand = typeof op.operand === 'string' ? judge.fill(op.operand, op.location) : op.operand;
  if (operand === undefined) return undefined;
  const problem = operandProblem(operand);
  if (problem) {
    judge.add({ kind: 'variable', message: problem, location: op.location });
    return undefined;
  }
  const expected = `${SYMBOL[op.op]} ${operandText(operand)}`;
  const scalar = type && !type.list ? type.scalar : undefined;
  const asNumber = decimalOf(operand);
  const asDate = typeof operand === 'string' ? parseDate(operand) : undefined;
  // A string field (money, free text) is compared as what the operand is, as when untyped.
  const dates = scalar && DATE_TYPES.has(scalar) ? true : scalar && NUMERIC_TYPES.has(scalar) ? false : !asNumber && !!asDate;
  if (dates) {
    const wrong = asDate ? '' : `; the field is ${TYPE_NAMES[scalar!]}, so compare it with a date such as "2026-11-23" or "2026-11-23T08:00:00Z"`;
    return {
      expected,
      check: (v) => {
        const d = parseDate(v);
        return d && asDate && holds(op.op, compareDates(d, asDate)) ? undefined : `expected a date ${expected}, got ${show(v)}${wrong}`;
      },
    };
  }
  const numeric = !!scalar && NUMERIC_TYPES.has(scalar);
  const wrong = asNumber ? '' : `; the field is ${TYPE_NAMES[scalar!]}, so compare it with a number`;
  return {
    expected,
    check: (v) => {
      const d = numeric ? numberOf(v, scalar) : decimalOf(v);
      if (d && asNumber && holds(op.op, compareDecimals(d, asNumber))) return undefined;
      const malformed = !d && numeric && v !== undefined && v !== null ? ` (not ${TYPE_NAMES[scalar!]})` : '';
      return `expected a number ${expected}, got ${show(v)}${malformed}${wrong}`;
    },
  };
}

interface OpCheck {
  readonly expected: string;
  /** The value `equals` wants, shown as a reply value is (Failure.expectedValue). */
  readonly value?: string;
  readonly check: ValueCheck;
}

function opCheck(op: ReplyOp, judge: Judge, type: ValueType | undefined): OpCheck | undefined {
  switch (op.op) {
    case 'equals': {
      const expected = judge.fill(op.expected, op.location, op.allowEmpty === true);
      if (expected === undefined) return undefined;
      return {
        expected: `equals ${show(expected)}`,
        value: show(expected),
        check: (v) => (valuesEqual(expected, v, type) ? undefined : `expected ${show(expected)}, got ${show(v)}`),
      };
    }
    case 'matches': {
      const re = judge.regex(op.pattern, op.location, op.allowEmpty === true);
      if (!re) return undefined;
      return {
        expected: `matches ${re}`,
        check: (v) => {
          const t = textOf(v);
          return t !== undefined && re.test(t) ? undefined : `expected text matching ${re}, got ${show(v)}`;
        },
      };
    }
    case 'exists':
      return op.expected
        ? {
            expected: 'exists',
            check: (v) => (v !== undefined && v !== null ? undefined : `expected a value, got ${v === null ? 'nil (xsi:nil)' : 'nothing (absent)'}`),
          }
        : { expected: 'absent', check: (v) => (v === undefined || v === null ? undefined : `expected nothing (absent), got ${show(v)}`) };
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return orderCheck(op, judge, type);
    case 'count':
      return {
        expected: `count ${specText(op.spec)}`,
        check: (v) => {
          const n = countOf(v);
          return countHolds(n, op.spec) ? undefined : `expected count ${specText(op.spec)}, got ${n} item${n === 1 ? '' : 's'}`;
        },
      };
  }
}

/**
 * The checks of one assertion object are applied together (replyPath.ts checkAll), so `[?]`
 * needs one item that satisfies all of them. A failure of one check at one value is located at
 * that check; a failure of the object as a whole (no `[?]` item satisfies it, an empty list) at
 * the check when there is one, else at the path.
 */
/** An assertion's checks, ready to apply; `checks` empty when a variable it needs has no value. */
interface Prepared {
  readonly type: ValueType | undefined;
  readonly checks: ReadonlyArray<OpCheck & { readonly location: SourceLocation }>;
  readonly fns: readonly ValueCheck[];
  readonly expected: string;
}

/**
 * Checks of assertions whose operands name no variable, by assertion: the same for every reply
 * judged against them (copies of a file share their compiled assertions, loadFile.ts), so they
 * are made once, not once per exchange.
 */
const constantChecks = new WeakMap<ReplyAssertion, Prepared>();

function isConstant(op: ReplyOp): boolean {
  switch (op.op) {
    case 'equals':
      return !mentionsVariable(op.expected);
    case 'matches':
      return op.pattern.constant;
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return !mentionsVariable(op.operand);
    default:
      return true;
  }
}

function prepare(assertion: ReplyAssertion, judge: Judge, type: ValueType | undefined): Prepared {
  const known = constantChecks.get(assertion);
  if (known && known.type === type) return known;
  const checks = assertion.ops.flatMap((op) => {
    const c = opCheck(op, judge, type);
    return c ? [{ ...c, location: op.location }] : [];
  });
  const prepared: Prepared = { type, checks, fns: checks.map((c) => c.check), expected: checks.map((c) => c.expected).join(' and ') };
  // A constant assertion that failed to prepare said so to this judge only: made again next time, it says so again.
  if (checks.length === assertion.ops.length && assertion.ops.every(isConstant)) constantChecks.set(assertion, prepared);
  return prepared;
}

function judgeReply(exchange: Exchange, expect: CompiledExpect, judge: Judge): void {
  if (!expect.reply.length) return;
  for (const assertion of expect.reply) {
    const type = replyType(exchange.operation, exchange.version, assertion.path);
    const { checks, fns, expected } = prepare(assertion, judge, type);
    if (!checks.length) continue;
    const outcome = checkAll(exchange.parsed, assertion.path, fns, expected);
    if (outcome.ok) continue;
    const report = (failures: readonly PathFailure[], what: string, location: SourceLocation, value: string | undefined) => {
      const shown = failures.slice(0, MAX_ITEM_FAILURES);
      const plain = value === undefined ? {} : { expectedValue: value };
      for (const f of shown)
        judge.add({ kind: 'reply', message: `${f.path}: ${f.message}`, expected: what, ...plain, actual: show(f.actual), path: f.path, location });
      const more = failures.length - shown.length;
      if (more > 0)
        judge.add({
          kind: 'reply',
          message: `${assertion.path.text}: ${more} more item${more === 1 ? '' : 's'} fail ${what}`,
          expected: what,
          path: assertion.path.text,
          location,
        });
    };
    report(
      outcome.failures.filter((f) => f.check === undefined),
      expected,
      checks.length === 1 ? checks[0].location : assertion.location,
      checks.length === 1 ? checks[0].value : undefined,
    );
    checks.forEach((c, n) =>
      report(
        outcome.failures.filter((f) => f.check === n),
        c.expected,
        c.location,
        c.value,
      ),
    );
  }
}

/** Catalog types by shape and path: the same few paths are judged in every reply of a run. */
const replyTypes = new Map<string, ValueType | null>();
const REPLY_TYPES_LIMIT = 4096;

function replyType(operation: string | undefined, version: string | undefined, path: ReplyPath): ValueType | undefined {
  const key = `${operation ?? ''}\0${version ?? ''}\0${path.text}`;
  let type = replyTypes.get(key);
  if (type === undefined) {
    if (replyTypes.size >= REPLY_TYPES_LIMIT) replyTypes.clear();
    replyTypes.set(key, (type = typeAtPath(resultType(operation, version), path) ?? null));
  }
  return type ?? undefined;
}

function judgeDocuments(exchange: Exchange, expect: CompiledExpect, judge: Judge): void {
  const spec = expect.documents;
  if (!spec) return;
  const docs = exchange.documents;
  if (spec.count && !countHolds(docs.length, spec.count.value)) {
    judge.add({
      kind: 'documents',
      message: `documents: expected count ${specText(spec.count.value)}, got ${docs.length}`,
      expected: `count ${specText(spec.count.value)}`,
      actual: String(docs.length),
      location: spec.count.location,
    });
  }
  if (spec.type) {
    if (!docs.length)
      judge.add({
        kind: 'documents',
        message: 'documents: expected PDF documents, the reply has none',
        expected: 'type pdf',
        actual: 'no documents',
        location: spec.type.location,
      });
    for (const d of docs) {
      if (d.mediaType !== 'application/pdf')
        judge.add({
          kind: 'documents',
          message: `${d.path}: expected a PDF, got ${d.mediaType} (${d.size} bytes)`,
          expected: 'type pdf',
          actual: d.mediaType,
          path: d.path,
          location: spec.type.location,
        });
    }
  }
  if (spec.pages) {
    if (!docs.length)
      judge.add({
        kind: 'documents',
        message: `documents: expected pages ${specText(spec.pages.value)}, the reply has no documents`,
        expected: `pages ${specText(spec.pages.value)}`,
        actual: 'no documents',
        location: spec.pages.location,
      });
    for (const d of docs) {
      if (d.pages === undefined || !countHolds(d.pages, spec.pages.value)) {
        judge.add({
          kind: 'documents',
          message: `${d.path}: expected pages ${specText(spec.pages.value)}, got ${d.pages ?? 'no page count (not a readable PDF)'}`,
          expected: `pages ${specText(spec.pages.value)}`,
          actual: String(d.pages ?? 'unknown'),
          path: d.path,
          location: spec.pages.location,
        });
      }
    }
  }
}

function is2xx(status: number): boolean {
  return status >= 200 && status < 300;
}

/** At most this many contract findings of one reply become failures; the rest are counted. */
const MAX_CONTRACT_FAILURES = 10;

/**
 * The contract's findings as failures: every error (a typed client could not read the reply,
 * whatever `expect` says), and the warnings too when the file or the run is strict.
 */
function judgeContract(exchange: Exchange, strict: boolean, judge: Judge, location: SourceLocation | undefined): void {
  if (!exchange.findings.some((f) => f.kind === 'contract')) return;
  const failing = exchange.findings.filter((f) => f.kind === 'contract' && (f.severity === 'error' || (strict && f.severity === 'warning')));
  for (const f of failing.slice(0, MAX_CONTRACT_FAILURES)) {
    const grave = f.severity === 'error';
    judge.add({
      kind: 'contract',
      message: `contract${grave ? '' : ' (strict)'}: ${findingText(f)}`,
      expected: grave ? 'a reply a typed client can read' : 'a reply exactly as the contract describes it',
      actual: f.code ?? f.message,
      ...(f.path && f.path !== '$' ? { path: f.path } : {}),
      location,
    });
  }
  const more = failing.length - MAX_CONTRACT_FAILURES;
  if (more > 0) judge.add({ kind: 'contract', message: `contract: ${more} more finding${more === 1 ? '' : 's'} like these`, location });
}

/** How a run judges beyond the file's own `expect`. */
export interface JudgeOptions {
  /** Contract warnings fail too (`--strict-contract`, collection.json `"strictContract"`). */
  readonly strictContract?: boolean;
}

/** Whether contract warnings fail this test: the file's own "conforms" decides for it, either way; else the run's (or its collection's). */
export function strictFor(expect: CompiledExpect, options: JudgeOptions): boolean {
  return expect.conforms ? expect.conforms.value : options.strictContract === true;
}

/** The failures of one exchange against its expectations; empty when the test passes. */
export function evaluateExchange(
  exchange: Exchange,
  expect: CompiledExpect,
  lookup: Lookup,
  fileLocation?: SourceLocation,
  options: JudgeOptions = {},
): Failure[] {
  const judge = new Judge(lookup);
  if (exchange.error || !exchange.reply) {
    const e = exchange.error ?? { kind: 'reply', message: 'no reply' };
    judge.add({ kind: 'transport', message: `no reply: ${e.kind}: ${e.message}`, expected: 'a reply', actual: e.kind, location: fileLocation });
    return judge.failures;
  }
  const reply = exchange.reply;
  const fault = exchange.fault;
  const verdict = classifyExchange(exchange);
  // Not the service's XML answer (an IIS error page, an empty body, plain text): no expectation holds of it unless the file says that is the answer.
  // A reply that was read (a result or a fault) was XML; else the body says what it is.
  const body = exchange.parsed !== undefined || fault ? 'xml' : bodyKind(reply.bodyText, headerValue(reply.headers, 'content-type'));
  const bodyWanted = expect.body?.value ?? 'xml';
  if (bodyWanted !== 'any' && body !== bodyWanted) {
    const got = body === 'xml' ? BODY_PHRASES.xml : `${BODY_PHRASES[body]}${verdict.reason ? `: ${verdict.reason}` : ''}`;
    judge.add({
      kind: 'body',
      message: `reply body: expected ${BODY_PHRASES[bodyWanted]}${expect.body ? '' : ' (no "body" in expect)'}, got ${got}`,
      expected: BODY_PHRASES[bodyWanted],
      actual: BODY_PHRASES[body],
      location: expect.body?.location ?? fileLocation,
    });
  } else if (verdict.kind === 'unreadable' && body === 'xml' && bodyWanted !== 'any') {
    judge.add({
      kind: 'reply',
      message: `reply: expected the service's answer, got an unreadable reply: ${verdict.reason}`,
      expected: 'a readable reply',
      actual: verdict.reason,
      location: fileLocation,
    });
  }
  judgeContract(exchange, strictFor(expect, options), judge, expect.conforms?.location ?? fileLocation);

  if (expect.status) {
    if (!expect.status.value.includes(reply.status)) {
      const want = expect.status.value.join(' or ');
      judge.add({
        kind: 'status',
        message: `HTTP status: expected ${want}, got ${reply.status} ${reply.statusText}`.trim(),
        expected: want,
        actual: String(reply.status),
        location: expect.status.location,
      });
    }
  } else if (expect.fault?.value !== true && !is2xx(reply.status)) {
    judge.add({
      kind: 'status',
      message:
        `HTTP status: expected 2xx (no "status" in expect), got ${reply.status} ${reply.statusText}${fault ? ` — fault ${fault.code}: ${fault.reason}` : ''}`.trim(),
      expected: '2xx',
      actual: String(reply.status),
      location: fileLocation,
    });
  }

  if (expect.fault) {
    const f = expect.fault;
    if (!f.value && fault) {
      judge.add({
        kind: 'fault',
        message: `fault: expected none, got ${fault.code}: ${fault.reason}`,
        expected: 'no fault',
        actual: `${fault.code}: ${fault.reason}`,
        location: f.location,
      });
    } else if (f.value && !fault) {
      judge.add({
        kind: 'fault',
        message: `fault: expected a SOAP fault, got HTTP ${reply.status} without one`,
        expected: 'a SOAP fault',
        actual: 'no fault',
        location: f.location,
      });
    } else if (f.value && fault) {
      const code = f.code && judge.regex(f.code.value, f.code.location);
      if (f.code && code && !code.test(fault.code) && !fault.subcodes.some((s) => code.test(s))) {
        judge.add({
          kind: 'fault',
          message: `fault code: expected text matching ${code}, got ${JSON.stringify(fault.code)}${fault.subcodes.length ? ` (subcodes ${fault.subcodes.join(', ')})` : ''}`,
          expected: `code matches ${code}`,
          actual: fault.code,
          location: f.code.location,
        });
      }
      const reason = f.reason && judge.regex(f.reason.value, f.reason.location);
      if (f.reason && reason && !reason.test(fault.reason)) {
        judge.add({
          kind: 'fault',
          message: `fault reason: expected text matching ${reason}, got ${JSON.stringify(fault.reason)}`,
          expected: `reason matches ${reason}`,
          actual: fault.reason,
          location: f.reason.location,
        });
      }
    }
  } else if (fault) {
    // Unstated, "fault" means no fault at every status: a stated 500 is not a fault expected.
    judge.add({
      kind: 'fault',
      message: `fault: none expected (no "fault" in expect), got ${fault.code}: ${fault.reason}`,
      expected: 'no fault',
      actual: `${fault.code}: ${fault.reason}`,
      location: fileLocation,
    });
  }

  const inBody = exchange.findings.filter((f) => f.kind === 'in-body');
  const inBodyErrors = inBody.filter((f) => f.severity === 'error');
  if (expect.success) {
    if (expect.success.value && inBodyErrors.length) {
      const got = inBodyErrors.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ');
      judge.add({
        kind: 'success',
        message: `success: expected no in-body errors, got ${got}`,
        expected: 'no in-body errors',
        actual: got,
        path: inBodyErrors[0].path,
        location: expect.success.location,
      });
    } else if (!expect.success.value && !inBodyErrors.length) {
      judge.add({
        kind: 'success',
        message: 'success: expected the reply to report an in-body error (e.g. WasSuccess false), it reports none',
        expected: 'an in-body error',
        actual: 'none',
        location: expect.success.location,
      });
    }
  } else if (verdict.kind === 'in-body-error' && !expect.messages.length) {
    judge.add({
      kind: 'success',
      message: `success: the reply reports an in-body error (no "success" in expect): ${verdict.reason}`,
      expected: 'no in-body errors',
      actual: verdict.reason,
      path: inBodyErrors[0]?.path,
      location: fileLocation,
    });
  }
  for (const m of expect.messages) {
    const re = judge.regex(m.value, m.location);
    if (re && !inBody.some((f) => re.test(f.message))) {
      const got = inBody.length ? inBody.map((f) => JSON.stringify(f.message)).join(', ') : 'no in-body messages';
      judge.add({
        kind: 'messages',
        message: `messages: expected one matching ${re}, got ${got}`,
        expected: `a message matching ${re}`,
        actual: got,
        location: m.location,
      });
    }
  }

  if (expect.maxMs && exchange.timing && exchange.timing.totalMs > expect.maxMs.value) {
    judge.add({
      kind: 'maxMs',
      message: `time: expected at most ${expect.maxMs.value} ms, took ${Math.round(exchange.timing.totalMs)} ms`,
      expected: `≤ ${expect.maxMs.value} ms`,
      actual: `${Math.round(exchange.timing.totalMs)} ms`,
      location: expect.maxMs.location,
    });
  }

  judgeReply(exchange, expect, judge);
  judgeDocuments(exchange, expect, judge);
  return judge.failures;
}
