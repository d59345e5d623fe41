/**
 * An exchange judged once: its verdict (src/core/verdict.ts, with the contract findings the
 * reply reader made) and the request file's `expect` as it was when the exchange was sent
 * (evaluate.ts). The runner judges each test's exchange here and the editor each send from a
 * request file; the CLI, the reports, the results panel, History and the Test Explorer show the
 * judgement they get and never judge again (docs/architecture.md#judged-once).
 */
import type { Exchange, ExpectationFailure, JudgedExpectations } from '../exchange';
import { decideVerdict } from '../verdict';
import { findingText } from '../findingText';
import type { CompiledExpect, CompareSpec, ReplyOp } from './compileExpect';
import { evaluateExchange, strictFor, type JudgeOptions } from './evaluate';
import type { Failure, SnapshotOutcome, SourceLocation } from './types';
import { NumberLiteral } from './values';
import { variableText, type Lookup } from './variables';
import { compileRequestFile, type LoadContext } from './loadFile';
import { runVariables } from '../requestFile/runVariables';
import { Redactor, secretValues } from '../redact';
import { judgeSnapshot, type SnapshotInput } from './snapshot';

export interface Judged {
  /** The exchange with its `judgement`. */
  readonly exchange: Exchange;
  /** The failures of `expect` (and of the contract), located: what a test reports. */
  readonly failures: Failure[];
  /** Contract warnings that did not fail it (the run and the file are not strict): said beside the result. */
  readonly warnings: Failure[];
  /** What became of the test's snapshot, when it is held to one. */
  readonly snapshot?: SnapshotOutcome;
}

export interface JudgeInput extends JudgeOptions {
  readonly expect: CompiledExpect;
  readonly lookup: Lookup;
  /** The request file's opening brace: where failures of unstated expectations point. */
  readonly fileLocation?: SourceLocation;
  /** The request file, for the judgement (the exchange's `source` when not given). */
  readonly file?: string;
  /** Secrets out of the failures (they quote expected values a variable may have filled). */
  readonly redact?: (failures: Failure[]) => Failure[];
  /**
   * False when nobody will read the exchange itself (a CLI run keeps only its failures and a
   * transcript): the failures are the judgement, and no judged copy of the exchange is made.
   */
  readonly keepExchange?: boolean;
  /** The reply's snapshot, when the test is held to one (snapshot.ts): its differences fail the test with the rest. */
  readonly snapshot?: SnapshotInput;
}

/** At most this many contract warnings are said beside a result; the reply keeps them all. */
const MAX_WARNINGS = 10;
const NO_WARNINGS: Failure[] = [];

export function judgeExchange(exchange: Exchange, input: JudgeInput): Judged {
  const verdict = exchange.judgement?.verdict ?? decideVerdict(exchange);
  const strict = strictFor(input.expect, input);
  let failures = evaluateExchange(exchange, input.expect, input.lookup, input.fileLocation, { strictContract: strict });
  let snapshot: SnapshotOutcome | undefined;
  if (input.snapshot) {
    const judged = judgeSnapshot(exchange, input.snapshot, failures.length > 0);
    snapshot = judged.outcome;
    if (judged.failures.length) failures = [...failures, ...judged.failures];
  }
  if (input.redact && failures.length) failures = input.redact(failures);
  let warnings: Failure[] = NO_WARNINGS;
  if (!strict) {
    // A loop, not filter and map: most replies have no contract finding, and this is per test.
    for (const f of exchange.findings) {
      if (f.kind !== 'contract' || f.severity !== 'warning') continue;
      if (warnings === NO_WARNINGS) warnings = [];
      if (warnings.length === MAX_WARNINGS) break;
      warnings.push({
        kind: 'contract',
        message: `contract warning: ${findingText(f)}`,
        ...(f.path && f.path !== '$' ? { path: f.path } : {}),
        ...(input.fileLocation ? { location: input.fileLocation } : {}),
      });
    }
  }
  if (input.redact && warnings.length) warnings = input.redact(warnings);
  const kept = snapshot ? { snapshot } : {};
  if (input.keepExchange === false) return { exchange, failures, warnings, ...kept };
  const expectations = judgedExpectations(input.expect, failures, input.file ?? exchange.source ?? '', strict);
  return { exchange: { ...exchange, judgement: { verdict, ...(expectations ? { expectations } : {}) } }, failures, warnings, ...kept };
}

/** The exchange with its verdict only: sent from no request file, or from one that states nothing. */
export function withVerdict(exchange: Exchange): Exchange {
  return exchange.judgement ? exchange : { ...exchange, judgement: { verdict: decideVerdict(exchange) } };
}

interface Unit {
  readonly text: string;
  readonly location: SourceLocation;
  /** Every place a failure of this expectation can point at. */
  readonly places: ReadonlySet<string>;
}

const at = (l: { readonly line: number; readonly column: number }) => `${l.line}:${l.column}`;

/**
 * What the file's `expect` held, expectation by expectation: each top-level key, each reply path,
 * each message pattern, each documents check. Undefined when the file states none.
 */
export function judgedExpectations(
  expect: CompiledExpect,
  failures: readonly Failure[],
  file: string,
  strictContract: boolean,
): JudgedExpectations | undefined {
  const units = unitsOf(expect);
  if (!units.length) return undefined;
  const failedPlaces = new Set(failures.flatMap((f) => (f.location ? [at(f.location)] : [])));
  const known = new Set(units.flatMap((u) => [...u.places]));
  const checked = units.map((u) => ({ text: u.text, line: u.location.line, column: u.location.column, held: ![...u.places].some((p) => failedPlaces.has(p)) }));
  const held = checked.filter((c) => c.held).length;
  const out: ExpectationFailure[] = failures.map((f) => ({
    message: f.message,
    ...(f.path ? { path: f.path } : {}),
    ...(f.location ? { line: f.location.line, column: f.location.column } : {}),
    implied: !f.location || !known.has(at(f.location)) || (f.kind === 'contract' && !expect.conforms),
  }));
  return { file, total: units.length, held, passed: failures.length === 0, strictContract, checked, failures: out };
}

function operand(o: NumberLiteral | string): string {
  return o instanceof NumberLiteral ? o.raw : JSON.stringify(o);
}

function specText(spec: CompareSpec): string {
  return spec.map((s) => (s.op === 'equals' ? operand(s.operand) : `${s.op} ${operand(s.operand)}`)).join(', ');
}

function opText(op: ReplyOp): string {
  switch (op.op) {
    case 'equals':
      return `equals ${op.expected instanceof NumberLiteral ? op.expected.raw : JSON.stringify(op.expected)}`;
    case 'matches':
      return `matches ${JSON.stringify(op.pattern.source)}`;
    case 'exists':
      return op.expected ? 'exists' : 'absent';
    case 'count':
      return `count ${specText(op.spec)}`;
    default:
      return `${op.op} ${operand(op.operand)}`;
  }
}

/** By compiled expect: copies of a file share theirs (loadFile.ts), and a run judges each many times. */
const unitsByExpect = new WeakMap<CompiledExpect, Unit[]>();

function unitsOf(e: CompiledExpect): Unit[] {
  let known = unitsByExpect.get(e);
  if (!known) unitsByExpect.set(e, (known = unitsMade(e)));
  return known;
}

function unitsMade(e: CompiledExpect): Unit[] {
  const out: Unit[] = [];
  const unit = (text: string, location: SourceLocation, ...more: Array<{ readonly location: SourceLocation } | undefined>) =>
    out.push({ text, location, places: new Set([location, ...more.filter((m) => m !== undefined).map((m) => m!.location)].map(at)) });
  if (e.status) unit(`status ${e.status.value.join(' or ')}`, e.status.location);
  if (e.body) unit(`body ${e.body.value}`, e.body.location);
  if (e.fault)
    unit(
      `fault ${e.fault.code || e.fault.reason ? [e.fault.code && `code ~ ${e.fault.code.value.source}`, e.fault.reason && `reason ~ ${e.fault.reason.value.source}`].filter(Boolean).join(', ') : e.fault.value}`,
      e.fault.location,
      e.fault.code,
      e.fault.reason,
    );
  if (e.success) unit(`success ${e.success.value}`, e.success.location);
  for (const m of e.messages) unit(`message ~ ${m.value.source}`, m.location);
  if (e.maxMs) unit(`maxMs ${e.maxMs.value}`, e.maxMs.location);
  if (e.conforms) unit(`conforms ${e.conforms.value}`, e.conforms.location);
  for (const a of e.reply) unit(`${a.path.text} ${a.ops.map(opText).join(', ')}`, a.location, ...a.ops);
  if (e.documents) {
    const d = e.documents;
    if (!d.count && !d.type && !d.pages) unit('documents', d.location);
    if (d.count) unit(`documents count ${specText(d.count.value)}`, d.count.location);
    if (d.type) unit(`documents type ${d.type.value}`, d.type.location);
    if (d.pages) unit(`documents pages ${specText(d.pages.value)}`, d.pages.location);
  }
  return out;
}

/** A send of a request file from the editor: the file's text as it was sent, and where it went. */
export interface SentFile {
  readonly text: string;
  readonly fileName: string;
  /** The environment's variables and which of them are secret (as the send resolved it). */
  readonly variables: Readonly<Record<string, unknown>>;
  readonly secrets: readonly string[];
  /** The run.* variables of the send (runVariables.ts); made now when not given. */
  readonly runVariables?: Readonly<Record<string, string>>;
  /** Where the file's stored contract is read (the reply names it adds); without, the catalog's alone. */
  readonly context?: LoadContext;
}

/**
 * Judges an exchange sent from a request file against that file's `expect` as it was sent, with
 * the variables a send from the editor has. A file whose `expect` does not compile is judged on
 * its verdict alone: the editor shows its mistakes where they are written.
 */
export function judgeSentFile(exchange: Exchange, sent: SentFile): Exchange {
  if (exchange.recorded) return withVerdict(exchange);
  const file = compileRequestFile(sent.text, sent.fileName, undefined, undefined, sent.context);
  if (file.problems.length) return withVerdict(exchange);
  const variables: Record<string, unknown> = { ...(sent.runVariables ?? runVariables()), ...sent.variables };
  const lookup = (name: string): string | undefined => (Object.prototype.hasOwnProperty.call(variables, name) ? variableText(variables[name]) : undefined);
  const redactor = new Redactor(secretValues(undefined, variables, sent.secrets), { derived: true });
  return judgeExchange(exchange, { expect: file.expect, lookup, fileLocation: file.location, file: sent.fileName, redact: (f) => redactor.deep(f) }).exchange;
}
