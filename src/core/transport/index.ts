export { sendHttp, type HttpSendOptions } from './http';
export { TlsFileError } from './tlsFile';
export { classifyError } from './classify';
export type { HttpOutcome, Phase, TransportError, TransportErrorKind } from './types';
