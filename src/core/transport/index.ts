export { sendHttp, type HttpSendOptions } from './http';
export { dispatcherFor, closeTransport, TlsFileError, type TransportSettings } from './agents';
export { classifyError } from './classify';
export type { HttpOutcome, Phase, TransportError, TransportErrorKind } from './types';
