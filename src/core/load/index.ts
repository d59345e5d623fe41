/**
 * `carrier load` in core (docs/load.md): virtual users over the plan `carrier run` makes, each
 * exchange judged as a run judges it and counted into HDR histograms; thresholds; the JSON and
 * HTML reports; merging reports exactly.
 */
export { startLoad, loadNameOf, errorClassOf, arrivalAt, shareOf, type LoadRun, type LoadRunOptions, type LoadSendCall } from './run';
export {
  LoadRecorder,
  operationLoad,
  histogramOf,
  ALL_OPERATIONS,
  LOAD_REPORT_FORMAT,
  LOAD_REPORT_VERSION,
  type ErrorClass,
  type LoadInterval,
  type LoadProgress,
  type LoadReport,
  type OperationLoad,
  type ThresholdOutcome,
  type LoadShard,
  type LoadRunFingerprint,
  type LoadIncompleteKind,
  type LoadIncompleteReason,
} from './report';
export { mergeLoadReports, mergeLoadShards, loadIncompleteReasons, recordedThresholds, parseLoadReport, type LoadMergeInput } from './merge';
export { parseThreshold, judgeThresholds, type Threshold, type ThresholdMetric, type Comparison } from './thresholds';
export { newHistogram, recordMs, encodeHistogram, decodeHistogram, summarize, percentileMs, type Histogram, type LatencySummary } from './histogram';
export { loadHtmlReport, type LoadHtmlOptions } from './html';
export { loadTable, progressLine, thresholdLines } from './text';
