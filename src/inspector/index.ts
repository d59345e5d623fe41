/** The traffic inspector: a recording forward proxy in front of the service (or the sandbox). */
export { startInspector, isLoopback, InspectorHostError, DEFAULT_MAX_BODY_BYTES } from './server';
export { TargetError, tlsOptionsOf } from './target';
export { RECORDING_FORMAT, EXCHANGE_SUFFIX, recordedRequestFile, type RecordingDocument } from './recordings';
export type { InspectorHandle, InspectorOptions, RecordedExchange, RecognitionSummary, RecordingFiles } from './types';
