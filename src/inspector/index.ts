/** The traffic inspector: a recording forward proxy in front of the service (or the sandbox). */
export { startInspector, isLoopback, InspectorHostError, DEFAULT_MAX_BODY_BYTES, DEFAULT_KEEP_BYTES, DEFAULT_CAPTURE_BYTES, DEFAULT_TIMEOUTS } from './server';
export { keptBodyOf, openBody, type KeptBody, type OpenedBody } from './bodies';
export { ExchangeStore, exchangeWeight } from './store';
export { TargetError, tlsOptionsOf } from './target';
export { RECORDING_FORMAT, EXCHANGE_SUFFIX, recordedRequestFile, type RecordingDocument } from './recordings';
export type { InspectorHandle, InspectorOptions, RecordedExchange, RecognitionSummary, RecordEnvironment, RecordingFiles } from './types';
