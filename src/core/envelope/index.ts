export { buildHttpRequest, serviceUrl, CONTENT_TYPES, type EnvelopeInput } from './build';
export { EnvelopeError } from './errors';
export { formatHttpRequest, toCurl, shellQuote } from './format';
export { formEncode, httpParameters } from './form';
export { soapEnvelope } from './soap';
export { prepareRequest, previewRequest, RequestError, type PrepareInput, type PreparedRequest, type RequestErrorKind, type SendableRequest } from './prepare';
