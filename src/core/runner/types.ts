/**
 * The runner's public shapes: what a run is made of (collections, tests), what it reports
 * (results, failures with locations) and the events a host (CLI, Test Explorer) listens to.
 */
import type { Binding } from '../catalog/types';
import type { AttemptSummary, Exchange } from '../exchange';

/** A place in a file, 1-based line and column, end exclusive. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export type FailureKind =
  | 'status'
  | 'fault'
  | 'success'
  | 'messages'
  | 'reply'
  | 'documents'
  | 'maxMs'
  | 'capture'
  | 'variable'
  | 'environment'
  | 'transport'
  | 'file'
  /** The reply against its contract: an error always, a warning under strictContract / conforms. */
  | 'contract'
  /** The reply body is not what the file expects (expect.body; unstated, the service's XML answer). */
  | 'body'
  /** A file that waits (`retry`): `until` never held in its attempts, or the wait was cancelled. */
  | 'retry'
  /** The reply against its kept snapshot (docs/collections.md#snapshots): a difference by path, or a snapshot missing in CI. */
  | 'snapshot';

/** One expectation that did not hold (or a problem that stopped the request). */
export interface Failure {
  readonly kind: FailureKind;
  /** One line: what was expected, what came, and the reply path when there is one. */
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  /**
   * The expected value alone, written as `actual` is (`"Memphis"` where `expected` is
   * `equals "Memphis"`), when the expectation names one: what a diff compares with `actual`.
   */
  readonly expectedValue?: string;
  /** Concrete reply path (`Result.Charges[2].Amount`). */
  readonly path?: string;
  /** Where the expectation (or capture, or variable) is written in the request file. */
  readonly location?: SourceLocation;
}

export type TestStatus = 'passed' | 'failed' | 'skipped';

export type SnapshotStatus = 'matched' | 'written' | 'updated' | 'differs' | 'missing';

/** What became of a test's snapshot. */
export interface SnapshotOutcome {
  /** The snapshot file, absolute. */
  readonly file: string;
  readonly status: SnapshotStatus;
  /**
   * `differs`: the reply's own snapshot text, which the editor offers to accept
   * (src/extension/testing/snapshotDiffs.ts). Never written to a report (reporters/json.ts).
   */
  readonly text?: string;
}

/** One test: a request file sent over one binding. */
export interface PlannedTest {
  /** Stable within a run: `<file>` or `<file>#<binding>` when a file runs over several bindings. */
  readonly id: string;
  /** The request file, absolute. */
  readonly file: string;
  /** Shown name: the file name, with the binding when it runs over several. */
  readonly name: string;
  readonly collection: PlannedCollection;
  readonly binding?: Binding;
  readonly operation?: string;
  readonly version?: string;
  /** Where the request starts in its file (the opening brace), for Test Explorer ranges. */
  readonly location: SourceLocation;
  /** Ids of the tests whose captures this one uses. */
  readonly dependsOn: readonly string[];
  /** Names this test captures. */
  readonly captures: readonly string[];
  /** Its place in the whole run's plan: the same on every shard, so merged reports keep run order. */
  readonly position?: number;
  /** The data row this test runs with, in a data-driven run (data.ts). */
  readonly row?: PlannedRow;
  /** Its request file's `tags` and its collections' (`carrier run --tag`, the Test Explorer's tags); absent when none. */
  readonly tags?: readonly string[];
}

/** One row of a data file (`collection.json` `"data"`, `--data`) as one test uses it. */
export interface PlannedRow {
  /** The data file, absolute. */
  readonly file: string;
  /** 1-based: the first row under the header is row 1. */
  readonly index: number;
  /** How many rows the data file has, for progress. */
  readonly count: number;
  /** The `name` column's value, when there is one and it is not empty. */
  readonly name?: string;
  /** Where the row starts in its data file. */
  readonly location: SourceLocation;
  /** The row's values as this test's request file uses them: a cell filling a whole field typed as that field. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The cells as written: expectations compare against these. */
  readonly texts: Readonly<Record<string, string>>;
}

export interface PlannedCollection {
  /** The folder, absolute. */
  readonly folder: string;
  /** Folder path relative to the run's base directory, `/`-separated (JUnit classname). */
  readonly name: string;
  /** The collection.json, when the folder has one. */
  readonly configFile?: string;
  /** The folder's collection.json `name`, when it gives one. */
  readonly title?: string;
  /** Every collection.json whose settings apply, outermost first (discover.ts). */
  readonly configFiles: readonly string[];
  readonly environment?: string;
  readonly concurrency?: number;
  readonly variables: Readonly<Record<string, string>>;
  /** The data file whose rows its files run over (collection.json `"data"` or `--data`), absolute. */
  readonly data?: string;
  /** The folder whose collection.json says its order matters (collectionConfig.ts `together`): one shard holds all of it. */
  readonly together?: string;
  /** Contract warnings fail its tests (collection.json `"strictContract"`, inherited). */
  readonly strictContract?: boolean;
  /** Tags every test of it carries (collection.json `"tags"`, with those of the folders above). */
  readonly tags?: readonly string[];
  /** How often a failed test of it is run again (collection.json `"retries"`, inherited; `--retries` wins). */
  readonly retries?: number;
}

export interface TestResult {
  readonly test: PlannedTest;
  readonly status: TestStatus;
  readonly failures: readonly Failure[];
  /**
   * Contract warnings of its reply that did not fail it (docs/collections.md#contract-findings):
   * an element the contract does not know, order. Shown beside the result; absent when none.
   */
  readonly warnings?: readonly Failure[];
  /** Why a skipped test did not run. */
  readonly skipReason?: string;
  readonly startedAt?: string;
  readonly durationMs: number;
  /** Values captured from the reply (already scrubbed of secrets). */
  readonly captured: Readonly<Record<string, string>>;
  readonly environment?: string;
  /** What came back, in brief (always there when a reply arrived). */
  readonly reply?: ReplySummary;
  /** The whole exchange, when the run was asked to keep them (`keepExchanges`). */
  readonly exchange?: Exchange;
  /** The exchange as text (request and reply, bodies cut at a limit), when the run keeps transcripts for reports. */
  readonly transcript?: ExchangeTranscript;
  /** The transcript as compact JSON, when its store keeps that (KeptTranscript.json); never enumerable. */
  readonly transcriptJson?: () => string;
  /**
   * The attempts before this one, each of which failed, when the test was run again (`retries`):
   * a passed test with any is flaky (isFlaky). Absent when it ran once.
   */
  readonly attempts?: readonly TestAttempt[];
  /** Why a failed test was not run again although the run retries (a test that uses captured values: engine.ts). */
  readonly notRetried?: string;
  /**
   * A file that waits (`retry.until`, docs/request-files.md#retry): every send of this run of it,
   * the last being the one `exchange`, `transcript`, `reply` and `captured` are of. Absent for a
   * file that does not wait. (Not `attempts`: those are whole re-runs of a failed test.)
   */
  readonly untilAttempts?: UntilAttempts;
  /** What became of its snapshot (docs/collections.md#snapshots): matched, written, updated, differs, missing; absent when it has none. */
  readonly snapshot?: SnapshotOutcome;
}

/** The sends of a test that waits: how many there could be, which one held, each in brief. */
export interface UntilAttempts {
  /** `retry.attempts`. */
  readonly max: number;
  /** The attempt at which `retry.until` held; absent when it never did. */
  readonly heldAt?: number;
  /** The run was cancelled while the test waited. */
  readonly cancelled?: boolean;
  /** In order; the last is the test's own exchange. */
  readonly each: readonly UntilAttempt[];
}

/** One send of a test that waits: status, verdict, time, whether `until` held, and (all but the last, whose are the result's) its transcript and exchange when the run keeps them. */
export interface UntilAttempt extends AttemptSummary {
  readonly transcript?: ExchangeTranscript;
  readonly exchange?: Exchange;
}

/** One failed attempt of a test that was run again: what the reports show of it. */
export interface TestAttempt {
  readonly failures: readonly Failure[];
  readonly startedAt?: string;
  readonly durationMs: number;
  readonly reply?: ReplySummary;
  readonly transcript?: ExchangeTranscript;
}

/** Passed after failing: run again (`retries`) and passed on a later attempt. */
export function isFlaky(r: Pick<TestResult, 'status' | 'attempts'>): boolean {
  return r.status === 'passed' && (r.attempts?.length ?? 0) > 0;
}

/**
 * Where a run keeps the transcripts its reports will show. Without one they stay in memory with
 * their results; a run of thousands of tests hands one that keeps them outside the heap (the CLI:
 * src/host/transcriptSpill.ts) and reads each back when a report writes it.
 */
export interface TranscriptStore {
  /** Keeps a transcript; the function returned reads it back (as often as asked). */
  keep(transcript: ExchangeTranscript): KeptTranscript;
}

/** A kept transcript: read back as an object, or, when the store keeps its JSON, as that text. */
export interface KeptTranscript {
  (): ExchangeTranscript;
  /**
   * The transcript as compact JSON, exactly JSON.stringify's: the JSON report writes it as it is,
   * rather than parsing it back only to print it again (reporters/json.ts).
   */
  readonly json?: () => string;
}

/** What a report shows of an exchange: redacted, bodies cut at MAX_TRANSCRIPT_BODY (transcript.ts). */
export interface ExchangeTranscript {
  readonly request: TranscriptMessage & { readonly method: string; readonly url: string };
  readonly reply?: TranscriptMessage & { readonly status: number; readonly statusText: string };
  /** Why there is no reply, or why it could not be read. */
  readonly error?: string;
}

export interface TranscriptMessage {
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
  /** Characters of the body left out after the cut. */
  readonly bodyCut?: number;
}

export interface ReplySummary {
  readonly endpoint?: string;
  readonly status?: number;
  readonly totalMs?: number;
  readonly fault?: string;
}

export interface RunSummary {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Of `passed`, the tests that failed first and passed when run again (isFlaky); absent when none. */
  readonly flaky?: number;
  readonly durationMs: number;
  readonly startedAt: string;
}

export interface RunReport {
  readonly summary: RunSummary;
  readonly results: readonly TestResult[];
  /** Problems found while loading (unreadable files, bad collection.json): the CLI exits 2. */
  readonly problems: readonly Failure[];
  /** The part of a sharded run this report holds (shard.ts). */
  readonly shard?: ShardInfo;
  /** The reports a merged report was made from (merge.ts). */
  readonly mergedFrom?: readonly MergedSource[];
  /** What was run, so that `carrier report` can tell shards of different runs apart (merge.ts). */
  readonly run?: RunFingerprint;
  /** Why a merged report does not stand for one whole run (merge.ts); report.json says `"incomplete": true` with them. */
  readonly incompleteReasons?: readonly IncompleteReason[];
}

/**
 * What a run ran, recorded in its report.json: reports that disagree on any part were not one
 * run, and their merge says so. A part a report lacks (written before it was recorded, no commit
 * found) is unknown, never a difference.
 */
export interface RunFingerprint {
  /** The git commit of the repository the tests live in (or the CI's), when one was found. */
  readonly commit?: string;
  /** A short hash of the operation catalog replies were judged by. */
  readonly catalog?: string;
  readonly options?: RunOptionsFingerprint;
}

/** The options of `carrier run` that change what is run or judged; variables by name only, their values may be secret. */
export interface RunOptionsFingerprint {
  /** --env */
  readonly environment?: string;
  /** --binding */
  readonly binding?: string;
  /** --data, relative to where the run started. */
  readonly data?: string;
  /** The names of --var, sorted. */
  readonly variables?: readonly string[];
  /** --strict-contract */
  readonly strictContract?: boolean;
  /** n of --shard i/n; 1 unsharded. */
  readonly shards?: number;
}

export type IncompleteKind = 'missing-shard' | 'tests-missing' | 'split-differs' | 'commit-differs' | 'catalog-differs' | 'options-differs';

export interface IncompleteReason {
  readonly kind: IncompleteKind;
  /** One line: what is missing or differs, and where. */
  readonly message: string;
  /** The shard missing, or the shard whose run differs, of `total`. */
  readonly shard?: number;
  readonly total?: number;
  /** The report whose run differs, as `carrier report` was given it. */
  readonly file?: string;
  /** How many tests are missing, when the reports say how many the whole run had. */
  readonly tests?: number;
  /** For options-differs: the options that differ (RunOptionsFingerprint's names). */
  readonly options?: readonly string[];
}

/** `--shard index/total`: this run is part `index` of `total`; the whole run has `tests` tests. */
export interface ShardInfo {
  readonly index: number;
  readonly total: number;
  readonly tests: number;
}

export interface MergedSource {
  /** The report file, as given (relative to where `carrier report` ran). */
  readonly file: string;
  readonly shard?: ShardInfo;
  readonly tests: number;
}

/**
 * Callbacks a host listens to. All optional; they are called synchronously in this order:
 * runStart, then per test testStart → testEnd (skipped tests get only testEnd), then runEnd.
 */
export interface RunObserver {
  runStart?(tests: readonly PlannedTest[]): void;
  testStart?(test: PlannedTest): void;
  testEnd?(result: TestResult): void;
  /** A test that waits (`retry`) sent attempt `attempt` of `of` and waits `waitMs` before the next: hosts show it is waiting, not stuck. */
  testWait?(test: PlannedTest, attempt: number, of: number, waitMs: number): void;
  runEnd?(report: RunReport): void;
}
