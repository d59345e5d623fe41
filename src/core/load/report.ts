/**
 * What a load run keeps and what load-report.json holds (docs/load.md#the-json-report): per
 * operation and for the whole run, counts, errors by class and the latency histogram, encoded;
 * and the run's timeline, one encoded histogram per interval. Nothing per exchange: the recorder
 * adds each latency to histograms and forgets it, so a run of any length keeps the same few
 * objects, and the encoded histograms add up exactly when reports are merged (merge.ts).
 */
import { decodeHistogram, encodeHistogram, newHistogram, recordMs, summarize, type Histogram, type LatencySummary } from './histogram';

export const LOAD_REPORT_FORMAT = 'carrier-load-report';
export const LOAD_REPORT_VERSION = 1;

/** The whole run's row of a report and of thresholds (`*:p99<1s`). */
export const ALL_OPERATIONS = '*';

/**
 * Why an exchange did not pass, as its judgement says: the verdict's kind (transport-error,
 * fault, in-body-error, contract-error, http-error, unreadable…) when the file did not accept
 * it, `expect-failed` when the reply was the kind the file expects but an expectation did not
 * hold, `capture-failed` when only a capture found nothing.
 */
export type ErrorClass = string;

/** One operation's figures (or the whole run's, under `*`). */
export interface OperationLoad {
  readonly name: string;
  /** Exchanges measured: each answered, failed or timed out request. */
  readonly count: number;
  /** Of them, those that did not pass, by class. */
  readonly errors: number;
  readonly errorClasses: Readonly<Record<ErrorClass, number>>;
  /** Requests not sent: a producer's capture failed earlier in the user's chain, or a value was missing. */
  readonly skipped: number;
  /** Measured per second of the run. */
  readonly ratePerSecond: number;
  readonly latency: LatencySummary;
  /** HdrHistogram's compressed base64 encoding of the latencies, in microseconds. */
  readonly histogram: string;
}

/** One interval of the run: what completed in it. */
export interface LoadInterval {
  /** From the run's start, the interval's start. */
  readonly atMs: number;
  readonly count: number;
  readonly errors: number;
  readonly histogram: string;
}

export interface LoadReport {
  readonly format: typeof LOAD_REPORT_FORMAT;
  readonly version: typeof LOAD_REPORT_VERSION;
  readonly startedAt: string;
  readonly durationMs: number;
  /** `closed`: each user loops its sequence (`--vus`); `open`: iterations arrive at `--rate`. */
  readonly model: 'closed' | 'open';
  readonly vus: number;
  readonly ratePerSecond?: number;
  readonly rampMs: number;
  /** Iterations (passes of a user over the sequence) started. */
  readonly iterations: number;
  readonly environments: readonly string[];
  /** Stopped by Ctrl+C or a signal before its time: what it measured until then. */
  readonly cancelled?: boolean;
  /** In-flight requests still unanswered when the run stopped waiting for them: not measured. */
  readonly abandoned?: number;
  readonly intervalMs: number;
  readonly overall: OperationLoad;
  /** By name. */
  readonly operations: readonly OperationLoad[];
  readonly timeline: readonly LoadInterval[];
  /** Reports this one was merged from (merge.ts), when it was. */
  readonly mergedFrom?: number;
  readonly thresholds?: readonly ThresholdOutcome[];
  /** `--shard i/n`: this report holds segment `index` of `total` of the load (run.ts shareOf). */
  readonly shard?: LoadShard;
  /** What the whole load was, as every shard records it alike: `carrier report` tells shards of different loads apart by it. */
  readonly run?: LoadRunFingerprint;
  /** A merged report: the shards it holds (its own, and those of merged reports it was made from). */
  readonly shards?: readonly LoadShard[];
  /** A merge that is not one whole load: a shard missing or twice, or of another load (merge.ts). */
  readonly incomplete?: true;
  readonly incompleteReasons?: readonly LoadIncompleteReason[];
}

export interface LoadShard {
  /** From 1. */
  readonly index: number;
  readonly total: number;
}

/**
 * The whole load a shard is part of: the same on every shard of one `carrier load --shard`, so
 * any difference means another load. Made by the CLI (src/cli/loadFingerprint.ts).
 */
export interface LoadRunFingerprint {
  /** The commit of the repository the files live in, when known. */
  readonly commit?: string;
  /** The operation catalog's hash (src/cli/runFingerprint.ts catalogFingerprint). */
  readonly catalog?: string;
  /** The plan's request and data files, relative to where the load ran, in plan order. */
  readonly files?: readonly string[];
  /** 16 hex digits of a SHA-256 over those files' names and contents. */
  readonly filesHash?: string;
  /** The whole load's options: users, rate, duration, thresholds and what changes what is sent or judged. */
  readonly options?: Readonly<Record<string, unknown>>;
}

export type LoadIncompleteKind = 'missing-shard' | 'duplicate-shard' | 'split-differs' | 'run-differs' | 'not-a-shard';

export interface LoadIncompleteReason {
  readonly kind: LoadIncompleteKind;
  readonly message: string;
  readonly shard?: number;
  readonly total?: number;
  /** The report, as `carrier report` was given it. */
  readonly file?: string;
}

/** A threshold as judged against a report (thresholds.ts). */
export interface ThresholdOutcome {
  readonly threshold: string;
  readonly held: boolean;
  /** What was measured, as said: `912.4 ms`, `2.1%`, `84.2/s`. */
  readonly measured: string;
}

interface Tally {
  readonly histogram: Histogram;
  count: number;
  errors: number;
  skipped: number;
  readonly classes: Map<ErrorClass, number>;
}

const tally = (): Tally => ({ histogram: newHistogram(), count: 0, errors: 0, skipped: 0, classes: new Map() });

/** What the progress line shows, made on demand. */
export interface LoadProgress {
  readonly elapsedMs: number;
  readonly count: number;
  readonly errors: number;
  /** Requests per second over the last whole interval (the whole run before one has passed). */
  readonly ratePerSecond: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly errorClasses: Readonly<Record<ErrorClass, number>>;
  readonly inFlight: number;
}

/**
 * Adds each exchange to the histograms of its operation, of the run, and of the interval it
 * ended in; an interval is encoded when the next one begins, so only the current one is a live
 * histogram.
 */
export class LoadRecorder {
  private readonly all = tally();
  private readonly byName = new Map<string, Tally>();
  private readonly intervals: LoadInterval[] = [];
  private current: { index: number; histogram: Histogram; count: number; errors: number } | undefined;
  private lastRate: number | undefined;

  constructor(readonly intervalMs: number) {}

  private of(name: string): Tally {
    let t = this.byName.get(name);
    if (!t) this.byName.set(name, (t = tally()));
    return t;
  }

  /** An exchange of `name` ended `atMs` after the start, `latencyMs` after it was meant to start. */
  record(name: string, latencyMs: number, atMs: number, errorClass: ErrorClass | undefined): void {
    this.advance(atMs);
    const cur = this.current!;
    recordMs(cur.histogram, latencyMs);
    cur.count++;
    for (const t of [this.all, this.of(name)]) {
      recordMs(t.histogram, latencyMs);
      t.count++;
      if (errorClass !== undefined) {
        t.errors++;
        t.classes.set(errorClass, (t.classes.get(errorClass) ?? 0) + 1);
      }
    }
    if (errorClass !== undefined) cur.errors++;
  }

  skip(name: string): void {
    this.all.skipped++;
    this.of(name).skipped++;
  }

  /** Closes the intervals that ended before `atMs`. */
  advance(atMs: number): void {
    const index = Math.max(0, Math.floor(atMs / this.intervalMs));
    if (this.current && this.current.index === index) return;
    if (this.current && index > this.current.index) {
      this.close();
    }
    if (!this.current) this.current = { index, histogram: newHistogram(), count: 0, errors: 0 };
  }

  private close(): void {
    const cur = this.current;
    if (!cur) return;
    if (cur.count) {
      this.intervals.push({ atMs: cur.index * this.intervalMs, count: cur.count, errors: cur.errors, histogram: encodeHistogram(cur.histogram) });
      this.lastRate = (cur.count * 1000) / this.intervalMs;
    }
    this.current = undefined;
  }

  progress(elapsedMs: number, inFlight: number): LoadProgress {
    this.advance(elapsedMs);
    const h = this.all.histogram;
    const s = h.totalCount ? summarize(h) : undefined;
    return {
      elapsedMs,
      count: this.all.count,
      errors: this.all.errors,
      ratePerSecond: this.lastRate ?? (elapsedMs > 0 ? (this.all.count * 1000) / elapsedMs : 0),
      p50Ms: s?.p50Ms ?? 0,
      p95Ms: s?.p95Ms ?? 0,
      p99Ms: s?.p99Ms ?? 0,
      errorClasses: Object.fromEntries(this.all.classes),
      inFlight,
    };
  }

  /** The figures as a report's; the run's settings are the caller's. */
  finish(durationMs: number): Pick<LoadReport, 'overall' | 'operations' | 'timeline' | 'intervalMs'> {
    this.close();
    const seconds = durationMs / 1000;
    const row = (name: string, t: Tally): OperationLoad =>
      operationLoad(name, t.histogram, t.count, t.errors, Object.fromEntries(t.classes), t.skipped, seconds);
    return {
      intervalMs: this.intervalMs,
      overall: row(ALL_OPERATIONS, this.all),
      operations: [...this.byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, t]) => row(name, t)),
      timeline: [...this.intervals],
    };
  }
}

/** An operation's row from its histogram and counts: how a run and a merge both make one. */
export function operationLoad(
  name: string,
  histogram: Histogram,
  count: number,
  errors: number,
  errorClasses: Record<ErrorClass, number>,
  skipped: number,
  seconds: number,
): OperationLoad {
  const sorted = Object.fromEntries(Object.entries(errorClasses).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    name,
    count,
    errors,
    errorClasses: sorted,
    skipped,
    ratePerSecond: seconds > 0 ? Math.round((count / seconds) * 100) / 100 : 0,
    latency: summarize(histogram),
    histogram: encodeHistogram(histogram),
  };
}

/** An operation's histogram back from its report. */
export function histogramOf(row: Pick<OperationLoad, 'histogram'> | Pick<LoadInterval, 'histogram'>): Histogram {
  return decodeHistogram(row.histogram);
}
