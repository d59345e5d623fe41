/** Request recognition: which operation, version and binding a request is, and its parameters. */
export * from './types';
export { recognizeRequest, soapRequest, splitTarget } from './recognize';
export { readSoapParameters, readFormParameters, type ReadParameters } from './parameters';
export { parseMediaType, soapVersionOf, FORM_MEDIA_TYPE, type MediaType } from './mediaType';
export {
  serviceTable,
  defaultServiceTable,
  findService,
  findOperationUrl,
  wantsWsdl,
  type ServiceRoute,
  type ServiceTable,
  type OperationUrl,
} from './servicePaths';
export { soapParts, envelopeNs, type SoapParts, type EnvelopeProblemCode } from './soapEnvelope';
export { selectSoapOperation, soapActionHeader, soapActionOf, type SoapOperation } from './soapOperation';
export { headerValue } from './headers';
export { apiKeysIn, headerSecrets, SECRET_HEADER } from './secrets';
export { recognizeEnvelopeText, parseHttpMessage, type HttpMessage } from './envelopeText';
export { requestFileFromRecognized, expectFromExchange, type RecognizedShape, type RequestFileOptions } from './toRequestFile';
