/**
 * Runs a planned collection as load (docs/load.md): virtual users each send the plan's tests in
 * collection order — the plan `carrier run` makes (runner/load.ts, runner/plan.ts) — with
 * captures kept per user, so a user's chain is its own, and a data-driven collection's rows
 * dealt out across users. Each exchange is judged as `carrier run` judges it (runner/judge.ts)
 * and then forgotten: its latency goes into histograms (report.ts), a failure into its class.
 *
 * Closed model (`vus`): each user loops over the sequence until the run ends. Open model
 * (`ratePerSecond`): iterations arrive at that rate, each taken by a free user (at most `vus` at
 * once); an arrival that finds every user busy waits, and its first request's latency counts
 * from when it was meant to start, so a slow service is not hidden by sending less
 * (coordinated omission).
 */
import { setMaxListeners } from 'node:events';
import * as path from 'node:path';
import { substituteVariables, UnknownVariableError, type RequestFile } from '../requestFile';
import { runVariables } from '../requestFile/runVariables';
import type { RunEnvironment, RunnerBackend, SendCall } from '../runner/backend';
import { takeCaptures } from '../runner/captures';
import { environmentNameOf } from '../runner/engine';
import { judgeExchange } from '../runner/judge';
import type { LoadedFile } from '../runner/loadFile';
import { withProducers, type PlannedRun } from '../runner/plan';
import type { Failure, PlannedTest } from '../runner/types';
import { variableText, type Lookup } from '../runner/variables';
import type { Exchange } from '../exchange';
import { classifyExchange } from '../verdict';
import { LoadRecorder, LOAD_REPORT_FORMAT, LOAD_REPORT_VERSION, type ErrorClass, type LoadProgress, type LoadReport, type LoadShard } from './report';

export interface LoadRunOptions {
  readonly backend: RunnerBackend;
  /** Users: each loops the sequence (closed model), or at most this many iterations at once (open model). */
  readonly vus: number;
  /** How long requests are started for; the run then waits for those in flight (`graceMs`). */
  readonly durationMs?: number;
  /** Iterations in all, across users: the run ends when they are done (or at `durationMs`). */
  readonly iterations?: number;
  /** Users start (closed) or the rate grows (open) evenly over this long. */
  readonly rampMs?: number;
  /** Open model: iterations started per second. */
  readonly ratePerSecond?: number;
  readonly environment?: string;
  readonly variables?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly strictContract?: boolean;
  /** Stops starting requests; those in flight are waited for (`graceMs`) and the report made. */
  readonly signal?: AbortSignal;
  /** How long requests in flight are waited for once the run stops (default 10 s); then they are abandoned. */
  readonly graceMs?: number;
  /** Only these test ids (with the tests whose captures they use): `--tag`. */
  readonly only?: Iterable<string>;
  readonly intervalMs?: number;
  /** The run.* variables (runVariables.ts); made at the start when not given. */
  readonly runVariables?: Readonly<Record<string, string>>;
  /** Milliseconds, monotonic; performance.now() when not given. */
  readonly now?: () => number;
  /**
   * Segment `index` of `total` of the load (`--shard i/n`): `vus`, `ratePerSecond` and
   * `iterations` are then the whole load's, and this run takes its share of each (shareOf).
   */
  readonly shard?: LoadShard;
}

/**
 * What segment `index` of `total` takes of `count` things numbered from 0 (users, iterations):
 * those numbered index-1, index-1+total, index-1+2·total… — dealt round-robin, so every one is
 * in exactly one segment and the segments differ by one at most.
 */
export function shareOf(count: number, shard: LoadShard | undefined): number {
  if (!shard) return count;
  return Math.max(0, Math.ceil((count - (shard.index - 1)) / shard.total));
}

/** A send of a load run: which user sent it, for a backend that wants to know (tests do). */
export interface LoadSendCall extends SendCall {
  readonly user: number;
  /**
   * Always true: the exchange is judged and dropped, so a backend that can (runBackend.ts, with
   * send's `judgedOnly`) makes only what judging reads, and reads a reply it had before once.
   */
  readonly judgedOnly: true;
}

/** Captures of a test that captures nothing: that it passed in this pass is what counts. */
const NOTHING: Readonly<Record<string, unknown>> = Object.freeze({});

/** A user's own chain: what its tests captured, and which failed in the current pass. */
class UserState {
  readonly captured = new Map<string, Readonly<Record<string, unknown>>>();
  readonly failed = new Set<string>();
}

/** One step of a user's sequence: a test, or a data-driven collection's tests of one row, dealt out in turn. */
type Step = { readonly kind: 'test'; readonly test: PlannedTest } | { readonly kind: 'rows'; readonly rows: PlannedTest[][]; next: number };

/** What a test needs each time it is sent, worked out once. */
interface Ready {
  readonly test: PlannedTest;
  readonly file: LoadedFile;
  /** Whose compiled expect and captures judge it: a copy of another file's text shares that file's (loadFile.ts). */
  readonly judged: Pick<LoadedFile, 'expect' | 'captures'>;
  readonly name: string;
  readonly environment: RunEnvironment;
  /** Variables below the captures: the run's, the collection's, the environment's, the row's, --var. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly texts: Readonly<Record<string, unknown>>;
  /** `texts` looked up, as judging asks: made once for a test that captures nothing from others. */
  readonly lookup: Lookup;
  readonly strictContract: boolean;
}

/** A variable's text for judging, from `texts`. */
function lookupIn(texts: Readonly<Record<string, unknown>>): Lookup {
  return (name) => (Object.prototype.hasOwnProperty.call(texts, name) ? variableText(texts[name]) : undefined);
}

/** The name a test's figures go under: its operation, or its file's name when it has none. */
export function loadNameOf(test: PlannedTest): string {
  return test.operation ?? path.basename(test.file);
}

/** The kinds of failure that mean the reply was not the kind the file expects. */
const VERDICT_FAILURES: ReadonlySet<Failure['kind']> = new Set(['status', 'fault', 'success', 'transport', 'body', 'contract']);

/**
 * The class of a judged exchange that did not pass: its verdict when the file did not accept
 * that (a fault where none was expected), else what failed.
 */
export function errorClassOf(exchange: Exchange, failures: readonly Failure[], captureFailed: boolean): ErrorClass | undefined {
  if (!failures.length) return captureFailed ? 'capture-failed' : undefined;
  if (failures.some((f) => VERDICT_FAILURES.has(f.kind))) {
    const kind = classifyExchange(exchange).kind;
    if (kind !== 'success') return kind;
    return failures.some((f) => f.kind === 'contract') ? 'contract-error' : 'expect-failed';
  }
  return 'expect-failed';
}

/** The time of the k-th arrival (from 0) at `perMs` per millisecond, the rate growing evenly over `rampMs`. */
export function arrivalAt(k: number, perMs: number, rampMs: number): number {
  const inRamp = (perMs * rampMs) / 2;
  if (rampMs > 0 && k < inRamp) return Math.sqrt((2 * k * rampMs) / perMs);
  return rampMs + (k - inRamp) / perMs;
}

export interface LoadRun {
  /** The figures so far, for the progress line. */
  progress(): LoadProgress;
  /** The report, once the run has stopped and its requests in flight are answered or abandoned. */
  readonly done: Promise<LoadReport>;
}

export function startLoad(plan: PlannedRun, options: LoadRunOptions): LoadRun {
  return new Load(plan, options).start();
}

class Load {
  private readonly now: () => number;
  private readonly recorder: LoadRecorder;
  private readonly steps: Step[] = [];
  private readonly ready = new Map<string, Ready>();
  private readonly environments = new Set<string>();
  private readonly skippedTests: PlannedTest[] = [];
  private started = 0;
  private stopping = false;
  private cancelled = false;
  private inFlight = 0;
  private abandoned = 0;
  private iterations = 0;
  /** The run's start (now()'s time): intervals count from it. */
  private origin = 0;
  /** Aborted when the run gives up on requests still in flight. */
  private readonly sends = new AbortController();
  private readonly idle: Array<() => void> = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private stopped!: () => void;
  private readonly whenStopped = new Promise<void>((resolve) => (this.stopped = resolve));
  /** This segment's first user, arrival and row, numbered in the whole load (0 unsharded). */
  private readonly offset: number;
  /** How far apart this segment's users, arrivals and rows are in the whole load (1 unsharded). */
  private readonly stride: number;
  /** The whole load's iterations this segment takes. */
  private readonly iterationLimit: number | undefined;

  constructor(
    private readonly plan: PlannedRun,
    private readonly options: LoadRunOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.offset = options.shard ? options.shard.index - 1 : 0;
    this.stride = options.shard?.total ?? 1;
    this.iterationLimit = options.iterations === undefined ? undefined : shareOf(options.iterations, options.shard);
    const durationMs = options.durationMs;
    // At most about 600 intervals: a long run's timeline stays small.
    this.recorder = new LoadRecorder(options.intervalMs ?? Math.max(1000, durationMs ? Math.ceil(durationMs / 600 / 1000) * 1000 : 1000));
    setMaxListeners(0, this.sends.signal);
    this.prepare();
  }

  /** The sequence and each test's fixed parts, once. */
  private prepare(): void {
    const { plan, options } = this;
    const chosen = options.only ? withProducers(plan.tests, new Set(options.only)) : undefined;
    const builtins = options.runVariables ?? runVariables();
    let rows: { key: string; step: Extract<Step, { kind: 'rows' }>; byIndex: Map<number, PlannedTest[]> } | undefined;
    for (const test of plan.tests) {
      if (chosen && !chosen.has(test.id)) continue;
      const file = plan.files.get(test.file);
      if (!file?.request || file.problems.length || plan.unavailable.has(test.id) || plan.rowProblems.has(test.id)) {
        this.skippedTests.push(test);
        continue;
      }
      const env = options.backend.environment(environmentNameOf(test, file, options));
      // The CLI refuses such a run before it starts (environmentProblems); here it is left out.
      if (typeof env === 'string') {
        this.skippedTests.push(test);
        continue;
      }
      this.environments.add(env.name);
      const values: Record<string, unknown> = { ...builtins, ...test.collection.variables, ...env.variables };
      const texts: Record<string, unknown> = { ...values };
      if (test.row) {
        Object.assign(values, test.row.values);
        Object.assign(texts, test.row.texts);
      }
      Object.assign(values, options.variables);
      Object.assign(texts, options.variables);
      this.ready.set(test.id, {
        test,
        file,
        judged: file.compiledFrom ?? file,
        name: loadNameOf(test),
        environment: env,
        values,
        texts,
        lookup: lookupIn(texts),
        strictContract: options.strictContract === true || test.collection.strictContract === true,
      });
      if (!test.row) {
        rows = undefined;
        this.steps.push({ kind: 'test', test });
        continue;
      }
      const key = `${plan.segment.get(test.id) ?? 0}\0${test.row.file}`;
      if (!rows || rows.key !== key) {
        // A shard takes every total-th row from its own: its rows and the other shards' interleave to the whole deal.
        rows = { key, step: { kind: 'rows', rows: [], next: this.offset }, byIndex: new Map() };
        this.steps.push(rows.step);
      }
      let row = rows.byIndex.get(test.row.index);
      if (!row) {
        rows.byIndex.set(test.row.index, (row = []));
        rows.step.rows.push(row);
      }
      row.push(test);
    }
  }

  start(): LoadRun {
    const startedAt = new Date().toISOString();
    const start = this.now();
    this.origin = start;
    const { options } = this;
    const stop = (cancelled: boolean) => {
      if (this.stopping) return;
      this.stopping = true;
      this.cancelled = cancelled;
      for (const t of this.timers) clearTimeout(t);
      this.timers.clear();
      this.stopped();
    };
    if (options.signal?.aborted) stop(true);
    options.signal?.addEventListener('abort', () => stop(true), { once: true });
    if (options.durationMs !== undefined) this.later(options.durationMs, () => stop(false));
    const wholeUsers = Math.max(1, options.vus);
    // This segment's users; the CLI refuses a split with more shards than users.
    const users = options.shard ? shareOf(wholeUsers, options.shard) : wholeUsers;
    const work =
      this.steps.length && users > 0
        ? options.ratePerSecond
          ? this.open(start, users, options.ratePerSecond)
          : this.closed(start, wholeUsers, users)
        : Promise.resolve();
    // The rate this segment sends at: its share of the arrivals, every total-th one.
    const ownRate = options.ratePerSecond && options.shard ? options.ratePerSecond / options.shard.total : options.ratePerSecond;
    const done = (async (): Promise<LoadReport> => {
      // Ends by itself (iterations done) or is stopped: then those in flight get `graceMs`.
      await Promise.race([work, this.whenStopped]);
      stop(this.stopping ? this.cancelled : false);
      const grace = options.graceMs ?? 10_000;
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const gaveUp = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, grace)));
      await Promise.race([work, gaveUp]);
      clearTimeout(graceTimer);
      if (this.inFlight) {
        this.abandoned = this.inFlight;
        this.sends.abort();
        await work;
      }
      for (const t of this.skippedTests) this.recorder.skip(loadNameOf(t));
      const durationMs = this.now() - start;
      const figures = this.recorder.finish(durationMs);
      return {
        format: LOAD_REPORT_FORMAT,
        version: LOAD_REPORT_VERSION,
        startedAt,
        durationMs: Math.round(durationMs),
        model: options.ratePerSecond ? 'open' : 'closed',
        vus: users,
        ...(ownRate ? { ratePerSecond: ownRate } : {}),
        ...(options.shard ? { shard: { index: options.shard.index, total: options.shard.total } } : {}),
        rampMs: options.rampMs ?? 0,
        iterations: this.iterations,
        environments: [...this.environments].sort(),
        ...(this.cancelled ? { cancelled: true } : {}),
        ...(this.abandoned ? { abandoned: this.abandoned } : {}),
        ...figures,
      };
    })();
    return { progress: () => this.recorder.progress(this.now() - start, this.inFlight), done };
  }

  private later(ms: number, fn: () => void): ReturnType<typeof setTimeout> {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  /** Resolves after `ms`, or at once when the run stops. */
  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopping) return Promise.resolve();
    return Promise.race([new Promise<void>((resolve) => this.later(ms, resolve)), this.whenStopped]);
  }

  /** Takes an iteration if the run has one left. */
  private takeIteration(): boolean {
    if (this.stopping) return false;
    const max = this.iterationLimit;
    if (max !== undefined && this.started >= max) return false;
    this.started++;
    return true;
  }

  /** `whole` users in the whole load, `users` of them this segment's: each starts when the whole load's ramp starts it. */
  private async closed(start: number, whole: number, users: number): Promise<void> {
    const ramp = this.options.rampMs ?? 0;
    const user = async (u: number): Promise<void> => {
      await this.sleep(start + (ramp * u) / whole - this.now());
      const state = new UserState();
      while (this.takeIteration()) await this.iteration(u, state, undefined);
    };
    await Promise.all(Array.from({ length: users }, (_, j) => user(this.offset + j * this.stride)));
  }

  private open(start: number, users: number, ratePerSecond: number): Promise<void> {
    const perMs = ratePerSecond / 1000;
    const ramp = this.options.rampMs ?? 0;
    const free: Array<{ u: number; state: UserState }> = Array.from({ length: users }, (_, j) => ({
      u: this.offset + j * this.stride,
      state: new UserState(),
    }));
    // The whole load's arrival numbers this segment takes: offset, offset+stride…, each at its time in the whole schedule.
    let local = 0;
    const arrival = (j: number) => arrivalAt(this.offset + j * this.stride, perMs, ramp);
    let running = 0;
    let wake: ReturnType<typeof setTimeout> | undefined;
    return new Promise<void>((resolve) => {
      const pump = (): void => {
        const elapsed = this.now() - start;
        // Every arrival now due is started as soon as a user is free, in order, each from its own time.
        while (free.length && arrival(local) <= elapsed && this.takeIteration()) {
          const intended = start + arrival(local++);
          const user = free.pop()!;
          running++;
          void this.iteration(user.u, user.state, intended).then(() => {
            running--;
            free.push(user);
            pump();
          });
        }
        const more = !this.stopping && (this.iterationLimit === undefined || this.started < this.iterationLimit);
        if (!more) {
          if (!running) resolve();
          return;
        }
        // A user is free: wake at the next arrival (one wake-up at a time); none is: the next to finish calls pump.
        if (free.length) {
          if (wake) {
            clearTimeout(wake);
            this.timers.delete(wake);
          }
          wake = this.later(Math.max(0, start + arrival(local) - this.now()), pump);
        }
      };
      void this.whenStopped.then(pump);
      pump();
    });
  }

  /** One pass of a user over the sequence; `intended`: when its first request was meant to start (open model). */
  private async iteration(u: number, state: UserState, intended: number | undefined): Promise<void> {
    this.iterations++;
    state.failed.clear();
    let first = intended;
    for (const step of this.steps) {
      let tests: PlannedTest[];
      if (step.kind === 'test') tests = [step.test];
      else {
        tests = step.rows[step.next % step.rows.length];
        step.next += this.stride;
      }
      for (const test of tests) {
        if (this.stopping) return;
        const ready = this.ready.get(test.id)!;
        if (test.dependsOn.some((d) => state.failed.has(d) || (this.ready.has(d) && !state.captured.has(d)))) {
          // Its producer failed in this pass: sending it would send a hole or another pass's value.
          state.failed.add(test.id);
          this.recorder.skip(ready.name);
          continue;
        }
        await this.send(u, state, ready, first);
        first = undefined;
      }
    }
  }

  private async send(u: number, state: UserState, ready: Ready, intended: number | undefined): Promise<void> {
    const { test, file, judged } = ready;
    let values = ready.values;
    let lookup = ready.lookup;
    if (test.dependsOn.length) {
      const own: Record<string, unknown> = {};
      for (const d of test.dependsOn) Object.assign(own, state.captured.get(d));
      values = { ...values, ...own };
      lookup = lookupIn({ ...ready.texts, ...own });
    }
    let request: RequestFile = file.request!;
    if (file.uses.length) {
      try {
        request = { ...request, params: substituteVariables(request.params, values, ['params']) };
      } catch (e) {
        if (!(e instanceof UnknownVariableError)) throw e;
        state.failed.add(test.id);
        this.recorder.skip(ready.name);
        return;
      }
    }
    const call: LoadSendCall = {
      test,
      request,
      binding: test.binding ?? request.binding,
      environment: ready.environment,
      signal: this.sends.signal,
      ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
      user: u,
      judgedOnly: true,
    };
    const begun = this.now();
    this.inFlight++;
    let exchange: Exchange | undefined;
    try {
      exchange = await this.options.backend.send(call);
    } catch {
      exchange = undefined;
    } finally {
      this.inFlight--;
    }
    const ended = this.now();
    if (exchange?.error?.kind === 'cancelled' && this.sends.signal.aborted) {
      state.failed.add(test.id);
      return;
    }
    const latency = ended - (intended ?? begun);
    const atMs = ended - this.origin;
    if (!exchange) {
      state.failed.add(test.id);
      this.recorder.record(ready.name, latency, atMs, 'transport-error');
      return;
    }
    const { failures } = judgeExchange(exchange, {
      expect: judged.expect,
      lookup,
      fileLocation: file.location,
      file: file.file,
      strictContract: ready.strictContract,
      keepExchange: false,
    });
    const captured = exchange.reply && !exchange.error && judged.captures.length ? takeCaptures(exchange, judged.captures) : undefined;
    const captureFailed = (captured?.failures.length ?? 0) > 0;
    const errorClass = errorClassOf(exchange, failures, captureFailed);
    if (errorClass !== undefined) {
      state.failed.add(test.id);
      state.captured.delete(test.id);
    } else if (judged.captures.length) state.captured.set(test.id, captured!.typed);
    else state.captured.set(test.id, NOTHING);
    this.recorder.record(ready.name, latency, atMs, errorClass);
  }
}
