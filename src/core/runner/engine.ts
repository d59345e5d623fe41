/**
 * Runs a planned set of tests: collections one after another, the tests of a collection up to
 * its concurrency at once, each test waiting for the tests whose captures it uses. A test whose
 * producer failed is skipped with the reason; `bail` skips everything after the first failure.
 * A failed test runs again up to its `retries` before its result counts (runWithRetries).
 *
 * Hosts listen through RunObserver (testStart / testEnd with file locations); the CLI's
 * reporters and the Test Explorer are both just observers.
 */
import { setMaxListeners } from 'node:events';
import * as path from 'node:path';
import { Redactor } from '../redact';
import { substituteVariables, UnknownVariableError, type RequestFile } from '../requestFile';
import type { RunEnvironment, RunnerBackend } from './backend';
import { takeCaptures } from './captures';
import { transcriptOf } from './transcript';
import { judgeExchange } from './judge';
import type { LoadedFile } from './loadFile';
import { withProducers, type PlannedRun } from './plan';
import {
  isFlaky,
  type ExchangeTranscript,
  type Failure,
  type PlannedTest,
  type ReplySummary,
  type RunObserver,
  type RunReport,
  type TestAttempt,
  type TestResult,
  type TranscriptStore,
  type UntilAttempt,
  type UntilAttempts,
} from './types';
import { runVariables } from '../requestFile/runVariables';
import { variableText } from './variables';
import { attemptSummary, retryFailure, retryUntil } from './retryUntil';
import { wantedSnapshotFile, type SnapshotInput, type SnapshotOptions } from './snapshot';
import { rowLabel } from './data';

export interface ExecuteOptions {
  readonly backend: RunnerBackend;
  /**
   * The most requests in flight at once (`--concurrency`). A collection.json `concurrency` sets
   * its collection's own limit, never above this one; without either, requests go one by one.
   */
  readonly concurrency?: number;
  /** Stop starting tests after the first failure; the rest are reported as skipped. */
  readonly bail?: boolean;
  readonly timeoutMs?: number;
  /** `--env`: the environment for every test, over the files' and collections' own choice. */
  readonly environment?: string;
  /** `--var name=value`: over collection and environment variables (captured values win). */
  readonly variables?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Run only these test ids (and, so they can run, the tests they depend on). */
  readonly only?: Iterable<string>;
  /** Keep each whole Exchange in its TestResult (the Test Explorer shows them; the CLI need not). */
  readonly keepExchanges?: boolean;
  /** Keep each exchange as text for reports (transcript.ts): the JSON and HTML reports show them. */
  readonly transcripts?: boolean;
  /** Where to keep them; in memory, with each result, when not given. */
  readonly transcriptStore?: TranscriptStore;
  /** The `run.*` variables (runVariables.ts); computed at the start of the run when not given. */
  readonly runVariables?: Readonly<Record<string, string>>;
  /** Clock, for tests. */
  readonly now?: () => number;
  /** `--strict-contract`: contract warnings fail every test (errors always do). */
  readonly strictContract?: boolean;
  /** `--retries`: how often a failed test runs again, over its collection's `retries` (docs/collections.md#retries-and-flaky-tests). */
  readonly retries?: number;
  /**
   * Reply snapshots (docs/collections.md#snapshots): where they are read and written, and whether
   * the run writes them all (`--update-snapshots`) or fails on a missing one (`--ci`). Without it
   * no test is held to a snapshot.
   */
  readonly snapshots?: SnapshotOptions;
}

/** Which environment a test runs against: --env, else the file's, else its collection's. */
export function environmentNameOf(test: PlannedTest, file: LoadedFile | undefined, options: Pick<ExecuteOptions, 'environment'>): string | undefined {
  return options.environment ?? file?.request?.environment ?? test.collection.environment;
}

/**
 * Environments the plan names that do not exist (or lack an API key): usage errors the CLI
 * reports before sending anything.
 */
export function environmentProblems(plan: PlannedRun, options: Pick<ExecuteOptions, 'backend' | 'environment'>): Failure[] {
  const seen = new Map<string, string | undefined>();
  const problems: Failure[] = [];
  for (const test of plan.tests) {
    const file = plan.files.get(test.file);
    if (!file?.request) continue;
    const name = environmentNameOf(test, file, options);
    const key = name ?? '\0default';
    if (!seen.has(key)) {
      const env = options.backend.environment(name);
      seen.set(key, typeof env === 'string' ? env : undefined);
      if (typeof env === 'string') problems.push({ kind: 'environment', message: env });
    }
  }
  return problems;
}

let listedRunNames: readonly string[] | undefined;
/** The names the run itself defines ({{run.today}}…); any instant lists them. Listed when first asked: most runs have no data rows. */
const runNames = (): readonly string[] => (listedRunNames ??= Object.keys(runVariables(new Date(0), 'names')));

/**
 * In a data-driven run, a `{{name}}` that nothing defines — no column, no variable, no earlier
 * capture — is a mistake in the files (a column misspelt), not something to find out row by
 * row after sending: the CLI reports these before anything is sent, once per file and name.
 */
export function variableProblems(plan: PlannedRun, options: Pick<ExecuteOptions, 'backend' | 'environment' | 'variables'>): Failure[] {
  // Made when the first test with a data row needs it: a run without rows asks nothing of it.
  let byId: Map<string, PlannedTest> | undefined;
  const problems: Failure[] = [];
  const said = new Set<string>();
  for (const test of plan.tests) {
    const file = plan.files.get(test.file);
    if (!test.row || !file?.request || !file.uses.length || plan.unavailable.has(test.id)) continue;
    const env = options.backend.environment(environmentNameOf(test, file, options));
    if (typeof env === 'string') continue;
    byId ??= new Map(plan.tests.map((t) => [t.id, t]));
    const known = new Set([
      ...runNames(),
      ...Object.keys(test.collection.variables),
      ...Object.keys(env.variables),
      ...Object.keys(test.row.values),
      ...Object.keys(options.variables ?? {}),
      ...test.dependsOn.flatMap((d) => byId!.get(d)?.captures ?? []),
    ]);
    for (const name of file.uses) {
      const key = `${test.file}\0${name}`;
      if (known.has(name) || said.has(key)) continue;
      said.add(key);
      problems.push({
        kind: 'variable',
        message: `{{${name}}} has no value: ${path.basename(test.row.file)} has no column "${name}" (columns: ${Object.keys(test.row.texts).join(', ')}), and no variable or earlier capture defines it`,
        location: file.useLocations.get(name) ?? file.location,
      });
    }
  }
  return problems;
}

function summarize(exchange: TestResult['exchange']): ReplySummary | undefined {
  if (!exchange) return undefined;
  const summary: { -readonly [K in keyof ReplySummary]: ReplySummary[K] } = {};
  if (exchange.endpoint) summary.endpoint = exchange.endpoint;
  if (exchange.reply) summary.status = exchange.reply.status;
  if (exchange.timing) summary.totalMs = exchange.timing.totalMs;
  if (exchange.fault) summary.fault = `${exchange.fault.code}: ${exchange.fault.reason}`;
  return summary;
}

/** A failure located in `from` (the file a copy shares its compiled form with) as located in `to`. */
function withLocationFile(f: Failure, from: string, to: string): Failure {
  return f.location?.file === from ? { ...f, location: { ...f.location, file: to } } : f;
}

/** Where a result keeps the function its transcript is read back with (TranscriptStore.keep). */
const KEPT = Symbol('kept transcript');

/**
 * The `transcript` of a result whose store keeps it: one getter for every result. A getter of
 * its own per result (the store's function) would give each result a hidden class of its own,
 * in dictionary mode: a few hundred bytes more per test, thousands of tests long.
 */
function keptTranscript(this: { readonly [KEPT]: () => ExchangeTranscript }): ExchangeTranscript {
  return this[KEPT]();
}

/** Gives `target` the transcript `read` reads back, as every result carries one: read when asked, never copied. */
function keepTranscriptOn(target: object, read: () => ExchangeTranscript): void {
  Object.defineProperty(target, KEPT, { value: read });
  Object.defineProperty(target, 'transcript', { get: keptTranscript, enumerable: true });
}

/** What the reports keep of a failed attempt; its transcript stays where the store keeps it, read only when a report writes it. */
function attemptOf(r: TestResult): TestAttempt {
  const attempt = {
    failures: r.failures,
    ...(r.startedAt ? { startedAt: r.startedAt } : {}),
    durationMs: r.durationMs,
    ...(r.reply ? { reply: r.reply } : {}),
  };
  const read = (r as { readonly [KEPT]?: () => ExchangeTranscript })[KEPT];
  if (read) keepTranscriptOn(attempt, read);
  else if (r.transcript) Object.defineProperty(attempt, 'transcript', { value: r.transcript, enumerable: true });
  return attempt;
}

/** Nothing captured, nothing failed: shared by every result with none, rather than an empty object or list each. */
const NOTHING_CAPTURED: Readonly<Record<string, string>> = Object.freeze({});
const NO_FAILURES: readonly Failure[] = Object.freeze([]);
const NO_CAPTURES = Object.freeze({ values: NOTHING_CAPTURED, typed: NOTHING_CAPTURED, failures: NO_FAILURES });

class Run {
  private readonly results = new Map<string, TestResult>();
  /** Captured values with their reply types (a captured int stays a number in an int field). */
  private readonly capturedValues = new Map<string, Record<string, unknown>>();
  private readonly environments = new Map<string, RunEnvironment | string>();
  private readonly order: ReadonlyMap<string, number>;
  private stopReason: string | undefined;
  private readonly now: () => number;
  /** When the run started, for its `run.*` variables (runVariables.ts). */
  private readonly started = new Date();
  private builtinValues: Readonly<Record<string, string>> | undefined;
  /** One signal for every send of the run; each in-flight send listens to it. */
  private readonly abort = new AbortController();
  private readonly redactors = new Map<RunEnvironment, Redactor>();
  /** Test ids in the order they started (or were skipped): reports list them so. */
  private readonly ran: string[] = [];
  /** By plan position (`order`): 1 once the test is in `ran`. */
  private readonly listed: Uint8Array;

  constructor(
    private readonly plan: PlannedRun,
    private readonly options: ExecuteOptions,
    private readonly observer: RunObserver,
  ) {
    const order = new Map<string, number>();
    plan.tests.forEach((t, i) => order.set(t.id, i));
    this.order = order;
    this.listed = new Uint8Array(plan.tests.length);
    this.now = options.now ?? (() => performance.now());
    // Hundreds of concurrent sends each add a listener; that is the design, not a leak.
    setMaxListeners(0, this.abort.signal);
    const cancel = () => {
      this.stopReason ??= 'cancelled';
      this.abort.abort();
    };
    options.signal?.addEventListener('abort', cancel, { once: true });
    if (options.signal?.aborted) cancel();
  }

  private environment(name: string | undefined): RunEnvironment | string {
    const key = name ?? '\0default';
    let env = this.environments.get(key);
    if (env === undefined) this.environments.set(key, (env = this.options.backend.environment(name)));
    return env;
  }

  /**
   * The `run.*` values, as of the run's start, worked out when first used: a run whose files name
   * none and keep no snapshots never reads the holiday calendar for them.
   */
  private get builtins(): Readonly<Record<string, string>> {
    return (this.builtinValues ??= this.options.runVariables ?? runVariables(this.started));
  }

  private isListed(id: string): boolean {
    return this.listed[this.order.get(id)!] === 1;
  }

  private note(id: string): void {
    const at = this.order.get(id)!;
    if (this.listed[at] !== 1) {
      this.listed[at] = 1;
      this.ran.push(id);
    }
  }

  private finish(result: TestResult): TestResult {
    this.note(result.test.id);
    this.results.set(result.test.id, result);
    if (result.status === 'failed' && this.options.bail) this.stopReason ??= `not run: --bail after ${result.test.name} failed`;
    this.observer.testEnd?.(result);
    return result;
  }

  private skip(test: PlannedTest, reason: string): void {
    this.finish({ test, status: 'skipped', failures: NO_FAILURES, skipReason: reason, durationMs: 0, captured: NOTHING_CAPTURED });
  }

  /** Why a test cannot run because of its producers; undefined when they all passed. */
  private blockedBy(test: PlannedTest): string | undefined {
    for (const id of test.dependsOn) {
      const r = this.results.get(id);
      if (!r || r.status === 'passed') continue;
      const file = this.plan.files.get(test.file);
      const names = file ? file.uses.filter((n) => r.test.captures.includes(n)) : [];
      const what = names.length ? names.map((n) => `{{${n}}}`).join(', ') : 'a captured value';
      return `needs ${what} from ${r.test.name}, which ${r.status === 'failed' ? 'failed' : 'was skipped'}`;
    }
    return undefined;
  }

  /**
   * Lowest first: the run's own, the collection's, the environment's, the data row's, --var,
   * then captured values. `texts` is the same with the row's cells as written, for expectations.
   */
  private variablesFor(test: PlannedTest, env: RunEnvironment): { values: Record<string, unknown>; texts: Record<string, unknown> } {
    const vars: Record<string, unknown> = { ...this.builtins, ...test.collection.variables };
    for (const [k, v] of Object.entries(env.variables)) vars[k] = v;
    const texts = { ...vars };
    if (test.row) {
      Object.assign(vars, test.row.values);
      Object.assign(texts, test.row.texts);
    }
    const over: Record<string, unknown> = { ...this.options.variables };
    // Producers in run order: a later producer of the same name wins, as the plan decided.
    const deps = [...test.dependsOn].sort((a, b) => (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0));
    for (const id of deps) Object.assign(over, this.capturedValues.get(id) ?? {});
    return { values: Object.assign(vars, over), texts: Object.assign(texts, over) };
  }

  async runTest(test: PlannedTest): Promise<TestResult> {
    const file = this.plan.files.get(test.file);
    const unavailable = this.plan.unavailable.get(test.id);
    if (unavailable) {
      this.skip(test, unavailable);
      return this.results.get(test.id)!;
    }
    const startedAt = new Date().toISOString();
    const start = this.now();
    this.note(test.id);
    if (!this.attempting.has(test.id)) this.observer.testStart?.(test);
    const done = (failures: Failure[], extra: Partial<TestResult> = {}, redactor?: Redactor, transcript?: ExchangeTranscript): TestResult => {
      // Assigned, not spread: per test, in code that runs unoptimized for most of a run.
      const result: TestResult = Object.assign(
        {
          test,
          status: failures.length ? ('failed' as const) : ('passed' as const),
          failures: !failures.length ? NO_FAILURES : redactor ? redactor.deep(failures) : failures,
          startedAt,
          durationMs: this.now() - start,
          captured: NOTHING_CAPTURED,
        },
        extra,
      );
      // Kept by the store, the transcript is read back only when a report writes it: the result holds none.
      const store = this.options.transcriptStore;
      if (transcript && store) {
        const kept = store.keep(transcript);
        keepTranscriptOn(result, kept);
        if (kept.json) Object.defineProperty(result, 'transcriptJson', { value: kept.json });
      } else if (transcript) Object.defineProperty(result, 'transcript', { value: transcript, enumerable: true });
      // Not final yet: runWithRetries may run the test again before its result counts.
      return result;
    };
    if (!file?.request || file.problems.length)
      return done(file?.problems.length ? [...file.problems] : [{ kind: 'file', message: `cannot read ${test.file}` }]);
    const rowProblems = this.plan.rowProblems.get(test.id);
    if (rowProblems?.length) return done([...rowProblems]);

    const envName = environmentNameOf(test, file, this.options);
    const env = this.environment(envName);
    if (typeof env === 'string') return done([{ kind: 'environment', message: env, location: file.location }]);
    let redactor = this.redactors.get(env);
    // Derived spellings too: failures quote expectations after a pattern escaped or a report cut them (redact.ts).
    if (!redactor) this.redactors.set(env, (redactor = new Redactor(env.secretValues, { derived: true })));
    // Worked out when first asked for: a file without {{variables}} whose expectations name none never needs them.
    let variables: { values: Record<string, unknown>; texts: Record<string, unknown> } | undefined;
    const variablesNow = () => (variables ??= this.variablesFor(test, env));
    const lookup = (name: string) => {
      const { texts } = variablesNow();
      return Object.prototype.hasOwnProperty.call(texts, name) ? variableText(texts[name]) : undefined;
    };

    let request: RequestFile = file.request;
    if (file.uses.length) {
      try {
        request = { ...file.request, params: substituteVariables(file.request.params, variablesNow().values, ['params']) };
      } catch (e) {
        if (!(e instanceof UnknownVariableError)) throw e;
        const failures: Failure[] = e.unknown.map((u) => ({
          kind: 'variable',
          message: `{{${u.name}}} has no value: no earlier request captures it and no variable defines it`,
          location: file.locate(u.path),
        }));
        return done(failures, { environment: env.name }, redactor);
      }
    }

    // A copy of another file's text is judged with that file's compiled form; its failures name this file.
    const judged = file.compiledFrom ?? file;
    const strictContract = this.options.strictContract === true || test.collection.strictContract === true;
    const sendOnce = () =>
      this.options.backend.send({
        test,
        request,
        binding: test.binding ?? request.binding,
        environment: env,
        signal: this.abort.signal,
        ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
      });
    let exchange;
    // A file that waits (docs/request-files.md#retry): sent until `until` holds; expect and capture take the last reply.
    let untilAttempts: UntilAttempts | undefined;
    let waited: Failure | undefined;
    try {
      if (judged.retry) {
        const retry = judged.retry;
        const outcome = await retryUntil({
          retry,
          send: sendOnce,
          lookup,
          signal: this.abort.signal,
          strictContract,
          fileLocation: file.location,
          redact: (f) => redactor.deep(f),
          onWait: (next, waitMs) => this.observer.testWait?.(test, next - 1, retry.attempts, waitMs),
        });
        waited = retryFailure(outcome, retry);
        const last = outcome.attempts.length - 1;
        if (last < 0) return done([waited!], { environment: env.name }, redactor);
        exchange = outcome.attempts[last].exchange;
        const store = this.options.transcriptStore;
        const each = outcome.attempts.map((a, i): UntilAttempt => {
          const summary: UntilAttempt = { ...redactor.deep(attemptSummary(a)), ...(i < last && this.options.keepExchanges ? { exchange: a.exchange } : {}) };
          // The last attempt's transcript is the result's own; the earlier ones are kept as it is.
          if (i < last && this.options.transcripts) {
            const t = transcriptOf(a.exchange, redactor);
            Object.defineProperty(summary, 'transcript', store ? { get: store.keep(t), enumerable: true } : { value: t, enumerable: true });
          }
          return summary;
        });
        untilAttempts = {
          max: retry.attempts,
          ...(outcome.heldAt !== undefined ? { heldAt: outcome.heldAt } : {}),
          ...(outcome.cancelled ? { cancelled: true } : {}),
          each,
        };
      } else exchange = await sendOnce();
    } catch (e) {
      return done([{ kind: 'transport', message: `could not send: ${(e as Error).message}`, location: file.location }], { environment: env.name }, redactor);
    }
    const {
      exchange: judgedExchange,
      failures,
      warnings,
      snapshot,
    } = judgeExchange(exchange, {
      expect: judged.expect,
      lookup,
      fileLocation: file.location,
      file: file.file,
      strictContract,
      redact: (f) => redactor.deep(f),
      keepExchange: this.options.keepExchanges === true,
      ...this.snapshotFor(test, file, request.binding),
    });
    exchange = judgedExchange;
    const captures = judged.captures;
    const captured = !captures.length
      ? NO_CAPTURES
      : exchange.reply && !exchange.error
        ? takeCaptures(exchange, captures)
        : { values: {}, typed: {}, failures: [] };
    if (captures.length) this.capturedValues.set(test.id, captured.typed);
    let all = captured.failures.length ? [...failures, ...captured.failures] : failures;
    if (waited) all = [waited, ...all];
    if (file.compiledFrom && all.length) all = all.map((f) => withLocationFile(f, file.compiledFrom!.file, file.file));
    const extra: { -readonly [K in keyof TestResult]?: TestResult[K] } = {};
    if (warnings.length) extra.warnings = warnings;
    extra.environment = env.name;
    extra.captured = redactor.deep(captured.values);
    extra.reply = summarize(exchange);
    if (this.options.keepExchanges) extra.exchange = exchange;
    if (untilAttempts) extra.untilAttempts = untilAttempts;
    if (snapshot) extra.snapshot = snapshot;
    return done(all, extra, redactor, this.options.transcripts ? transcriptOf(exchange, redactor) : undefined);
  }

  /** The test's snapshot, when the run keeps snapshots and the test is held to one (snapshot.ts wantedSnapshotFile). */
  private snapshotFor(test: PlannedTest, file: LoadedFile, fileBinding: string): { snapshot?: SnapshotInput } {
    const options = this.options.snapshots;
    if (!options) return {};
    const binding = test.binding ?? fileBinding;
    const target = wantedSnapshotFile(options, file.snapshot, test, binding);
    if (!target) return {};
    const shape = file.shape ? `${file.shape.operation} ${file.shape.version}` : 'reply';
    const row = test.row ? `, ${rowLabel(test.row.index, test.row.name)}` : '';
    return {
      snapshot: {
        ...options,
        file: target,
        title: `${shape} over ${binding}, ${path.basename(test.file)}${row}`,
        ...(file.snapshot ? { compiled: file.snapshot } : {}),
        fileLocation: file.location,
        runValues: this.builtins,
      },
    };
  }

  /** Tests being run again: a later attempt is not a new start for the observers. */
  private readonly attempting = new Set<string>();

  /**
   * Runs a test, and again while it fails, up to its retries, before its result counts: the tests
   * that use its captures wait for that result, so they run once, on the values of the attempt
   * that passed. A test that uses captured values is not run again (docs/collections.md#retries-and-flaky-tests).
   */
  private async runWithRetries(test: PlannedTest): Promise<void> {
    let result = await this.runTest(test);
    // Skipped before it was sent (a binding its operation lacks): already counted.
    if (this.results.get(test.id) === result) return;
    const retries = this.options.retries ?? test.collection.retries ?? 0;
    const earlier: TestAttempt[] = [];
    let notRetried: string | undefined;
    while (result.status === 'failed' && earlier.length < retries && !this.stopReason) {
      // Nothing was sent, or nothing a second send changes: a file, environment or variable problem.
      if (result.failures.every((f) => f.kind === 'file' || f.kind === 'environment' || f.kind === 'variable')) break;
      if (test.dependsOn.length) {
        const producers = test.dependsOn.map((d) => this.results.get(d)?.test.name ?? d).join(', ');
        notRetried = `not retried: it uses captures of ${producers}, and a retry alone would send values its first attempt may have used up`;
        break;
      }
      earlier.push(attemptOf(result));
      this.attempting.add(test.id);
      try {
        result = await this.runTest(test);
      } finally {
        this.attempting.delete(test.id);
      }
    }
    const final = result as { -readonly [K in keyof TestResult]: TestResult[K] };
    // Set on the result itself: a spread would read its transcript back from the store.
    if (earlier.length) final.attempts = earlier;
    if (notRetried) final.notRetried = notRetried;
    this.finish(result);
  }

  /** One collection segment: up to `cap` tests at once, each after its producers. */
  runSegment(tests: readonly PlannedTest[], cap: number): Promise<void> {
    return new Promise((resolve, reject) => {
      // Tests not yet started, in plan order; a started or skipped one leaves a hole rather than
      // being spliced out (a splice moved every test behind it: quadratic in the run's size).
      // Holes behind `first` are passed over; the array is compacted when they are most of it.
      let pending: (PlannedTest | undefined)[] = [...tests];
      let first = 0;
      let left = pending.length;
      let running = 0;
      const take = (i: number): void => {
        pending[i] = undefined;
        left--;
        while (first < pending.length && pending[first] === undefined) first++;
      };
      const pump = (): void => {
        for (let i = first; i < pending.length; i++) {
          const test = pending[i];
          if (!test) continue;
          if (this.stopReason) {
            take(i);
            this.skip(test, this.stopReason);
            continue;
          }
          if (running >= cap) break;
          if (test.dependsOn.some((d) => this.order.has(d) && !this.results.has(d))) continue;
          take(i);
          const blocked = this.blockedBy(test);
          if (blocked) {
            this.skip(test, blocked);
            continue;
          }
          running++;
          this.runWithRetries(test).then(() => {
            running--;
            pump();
          }, reject);
        }
        if (pending.length - first - left > Math.max(64, left)) {
          pending = pending.slice(first).filter((t) => t !== undefined);
          first = 0;
        }
        if (!running && left) {
          // Every remaining test waits on one that is not going to run: cannot happen with
          // producers always earlier in the plan, but never hang if it does.
          for (let i = first; i < pending.length; i++) {
            const test = pending[i];
            if (!test) continue;
            take(i);
            this.skip(test, 'not run: waits for a test that did not run');
          }
        }
        if (!running && !left) resolve();
      };
      pump();
    });
  }

  async execute(): Promise<RunReport> {
    const startedAt = new Date().toISOString();
    const start = this.now();
    const selected = this.options.only ? withProducers(this.plan.tests, new Set(this.options.only)) : undefined;
    const tests = selected ? this.plan.tests.filter((t) => selected.has(t.id)) : [...this.plan.tests];
    this.observer.runStart?.(tests);
    const segments: PlannedTest[][] = [];
    let last: number | undefined;
    for (const t of tests) {
      const s = this.plan.segment.get(t.id) ?? 0;
      if (s !== last) {
        segments.push([]);
        last = s;
      }
      segments[segments.length - 1].push(t);
    }
    const limit = this.options.concurrency;
    for (const segment of segments) {
      const own = segment[0].collection.concurrency;
      const cap = Math.max(1, Math.min(own ?? limit ?? 1, limit ?? Infinity));
      await this.runSegment(segment, cap);
    }
    // In the order they ran; with a plan that finished, every test has a result.
    const results = [...this.ran, ...tests.map((t) => t.id).filter((id) => !this.isListed(id))]
      .map((id) => this.results.get(id))
      .filter((r): r is TestResult => r !== undefined);
    const count = (s: TestResult['status']) => results.filter((r) => r.status === s).length;
    const flaky = results.filter(isFlaky).length;
    const report: RunReport = {
      summary: {
        total: results.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        ...(flaky ? { flaky } : {}),
        durationMs: this.now() - start,
        startedAt,
      },
      results,
      problems: this.plan.problems,
    };
    this.observer.runEnd?.(report);
    return report;
  }
}

export function executePlan(plan: PlannedRun, options: ExecuteOptions, observer: RunObserver = {}): Promise<RunReport> {
  return new Run(plan, options, observer).execute();
}
