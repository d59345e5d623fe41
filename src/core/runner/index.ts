/**
 * The test runner: request files with `expect` and `capture`, run alone or as collections.
 *
 *   const plan = loadRun(['examples/collections'], { baseDir })      // list tests, no sending
 *   const report = await executePlan(plan, { backend, concurrency }, observer)
 *
 * `observer` gets runStart / testStart / testEnd / runEnd, with file locations on every
 * failure; the CLI's reporters (reporters/) and the Test Explorer are observers.
 */
export * from './types';
export type { RunEnvironment, RunnerBackend, SendCall } from './backend';
export { loadRun, type LoadOptions } from './load';
export { isNeverRunFolder, REQUEST_FILE_SUFFIX } from './discover';
export { planRun, withProducers, relativeName, type PlannedRun, type BindingChoice, type PlanData } from './plan';
export { selectByName, selectFailed, selectWhere, tagFilter, type TestFilter, type TestSelection } from './select';
export { linearPattern, type Matcher } from './pattern';
export { executePlan, environmentProblems, environmentNameOf, variableProblems, type ExecuteOptions } from './engine';
export {
  readDataFile,
  parseCsvData,
  parseJsonData,
  rowLabel,
  MAX_DATA_ROWS,
  NAME_COLUMN,
  type DataTable,
  type DataRow,
  type DataCell,
  type DataRead,
} from './data';
export { MAX_TRANSCRIPT_BODY, transcriptOf } from './transcript';
export { compileExpectations, compileRequestFile, loadRequestFile, type LoadedFile, type FileValidator, type FileReader, type LoadContext } from './loadFile';
export { runVariables } from '../requestFile/runVariables';
export { evaluateExchange, type JudgeOptions } from './evaluate';
export { emptyVariableProblems } from './emptyVariables';
export { judgeExchange, judgeSentFile, judgedExpectations, withVerdict, type Judged, type JudgeInput, type SentFile } from './judge';
export { parseReplyPath, checkPath, valueAt, type ReplyPath } from './replyPath';
export { parseDecimal, compareDecimals } from './decimal';
export { naturalCompare, naturalSort } from './naturalSort';
export { expectSchema, captureSchema, collectionSchema, replyPaths, COLLECTION_FILE } from '../requestFile/expectSchema';
export { parseShard, shardPlan, shardUnits, dealUnits, type ShardSpec, type ShardOptions, type ShardedRun } from './shard';
export { parseRunReport, mergeReports, JSON_REPORT_FORMAT, type MergeInput, type MergeResult } from './merge';
export { htmlReport, type HtmlReportOptions } from './reporters/html';
export { jsonReportParts, jsonReportHead, jsonTestPart, JSON_TEST_SEPARATOR, JSON_REPORT_END, relativeId } from './reporters/json';
export { HeldTranscripts } from './heldTranscripts';
export {
  retryUntil,
  sendFileUntil,
  retryFailure,
  attemptSummary,
  type RetryInput,
  type RetryOutcome,
  type RetryAttempt,
  type SendUntilInput,
  type Sleep,
} from './retryUntil';
export { compileRetry, type CompiledRetry } from './compileExpect';
export {
  snapshotText,
  snapshotLines,
  readSnapshotLines,
  snapshotDifferences,
  snapshotFileOf,
  VOLATILE_FIELDS,
  type CompiledSnapshot,
  type SnapshotOptions,
} from './snapshot';
