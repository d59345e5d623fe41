/**
 * A request as the service would read it → its shape, binding and parameters, or `unknown` with
 * a reason. Shared by the sandbox (which refuses on the problems, with its own faults), the
 * traffic inspector (which shows them) and Import SOAP Envelope.
 */
import { BINDING_LABELS, offers, shapeLabel, type Binding } from '../catalog';
import type { OperationDef } from '../catalog/types';
import { parseXml, XmlError } from '../xml/dom';
import { headerValue } from './headers';
import { FORM_MEDIA_TYPE, parseMediaType, soapVersionOf } from './mediaType';
import { readFormParameters, readSoapParameters } from './parameters';
import { defaultServiceTable, findOperationUrl, findService, wantsWsdl, type ServiceRoute, type ServiceTable } from './servicePaths';
import { soapParts } from './soapEnvelope';
import { selectSoapOperation, soapActionOf } from './soapOperation';
import type { Recognition, RecognitionProblem, RecognizeOptions, RecognizedRequest, RequestInput, SoapVersion, UnknownCode, UnknownRequest } from './types';

const unknown = (code: UnknownCode, reason: string, extra: Partial<Omit<UnknownRequest, 'kind' | 'code' | 'reason'>> = {}): UnknownRequest => ({
  kind: 'unknown',
  code,
  reason,
  ...extra,
});

/** Path and query of a request target; undefined when it cannot be read. */
export function splitTarget(url: string): { pathname: string; query: URLSearchParams } | undefined {
  try {
    const u = new URL(url, 'http://request.invalid');
    return { pathname: u.pathname, query: u.searchParams };
  } catch {
    return undefined;
  }
}

export function recognizeRequest(input: RequestInput, options: RecognizeOptions, table: ServiceTable = defaultServiceTable()): Recognition {
  const target = splitTarget(input.url);
  if (!target) return unknown('url', `The request target ${input.url} is not a URL path`);
  const method = input.method.toUpperCase();
  const service = findService(table, target.pathname);
  if (service) return serviceRequest(input, method, target.query, service, options);
  const opUrl = findOperationUrl(table, target.pathname);
  if (!opUrl) return unknown('path', `${target.pathname} is not a service path of the catalog`);
  if ('badEncoding' in opUrl) return unknown('url', `The URL ${target.pathname} is not correctly percent-encoded`, { servicePath: opUrl.route.path });
  return httpBindingRequest(input, method, target.query, opUrl.route, opUrl.operation);
}

function serviceRequest(input: RequestInput, method: string, query: URLSearchParams, service: ServiceRoute, options: RecognizeOptions): Recognition {
  const at = { servicePath: service.path };
  if (method === 'GET' || method === 'HEAD') {
    return wantsWsdl(query) ? unknown('wsdl', `The WSDL of ${service.path}`, at) : unknown('page', `The service page of ${service.path}`, at);
  }
  if (method !== 'POST') return unknown('method', `${method} on a service path: SOAP requests are POSTed`, at);
  const media = parseMediaType(headerValue(input.headers, 'content-type'));
  if (media.type === FORM_MEDIA_TYPE && query.has('op')) return unknown('test-form', `The test form of ${service.path}`, at);
  const version = soapVersionOf(media);
  if (!version) {
    return unknown(
      'media-type',
      `${media.type ? `Content-Type ${media.type}` : 'No Content-Type'} on a SOAP endpoint: SOAP 1.1 is text/xml, SOAP 1.2 application/soap+xml`,
      at,
    );
  }
  const action = soapActionOf(version, headerValue(input.headers, 'soapaction'), media.params.get('action'));
  return soapRequest(input.body, input.bodyComplete !== false, version, action, service, options);
}

const bindingOf = (version: SoapVersion): Binding => (version === '1.1' ? 'soap11' : 'soap12');

/** The SOAP body of a request at a service path, over the version its Content-Type announces. */
export function soapRequest(
  body: string,
  complete: boolean,
  version: SoapVersion,
  action: string | undefined,
  service: ServiceRoute,
  options: RecognizeOptions,
): Recognition {
  const binding = bindingOf(version);
  const at = { servicePath: service.path, binding };
  if (!complete) return truncatedSoap(body, version, action, service);
  let root;
  try {
    root = parseXml(body);
  } catch (e) {
    if (!(e instanceof XmlError)) throw e;
    return unknown('not-xml', `The SOAP request cannot be read: ${e.message}`, at);
  }
  const parts = soapParts(root, version);
  if (!parts.wrapper) return unknown('not-envelope', parts.problem?.message ?? 'The SOAP request has no operation element', at);
  const problems: RecognitionProblem[] = [];
  if (parts.problem) problems.push({ code: 'version-mismatch', message: parts.problem.message });
  const selected = selectSoapOperation(service.shapes, parts.wrapper, action, version, options.namespaces);
  if (selected.problem) problems.push(selected.problem);
  if (!selected.op) return unknown('operation', selected.problem?.message ?? `No operation of ${service.path} is named`, at);
  const { params, issues, literals } = readSoapParameters(selected.op, parts.wrapper, options.namespaces, options.outOfNamespace ?? 'absent');
  const foreign = parts.wrapper.ns !== options.namespaces.service ? { wrapperNamespace: parts.wrapper.ns } : {};
  return recognized(selected.op, binding, service, {
    ...(action !== undefined ? { action } : {}),
    params,
    issues,
    ...(literals ? { literals } : {}),
    problems,
    ...foreign,
  });
}

/** A capped body: the action, or else the first element inside Body, still names the operation. */
function truncatedSoap(body: string, version: SoapVersion, action: string | undefined, service: ServiceRoute): Recognition {
  const binding = bindingOf(version);
  const fromAction = action === undefined ? undefined : service.shapes.find((s) => action.endsWith(`/${s.operation}`) || action === s.operation);
  const local = /<(?:[\w.-]+:)?Body\b[^>]*>\s*<(?:[\w.-]+:)?([\w.-]+)/.exec(body)?.[1];
  const op = fromAction ?? service.shapes.find((s) => s.operation === local);
  const problem: RecognitionProblem = { code: 'truncated', message: 'Only the start of the request body was kept, so its parameters were not read' };
  if (!op) return unknown('truncated', problem.message, { servicePath: service.path, binding });
  return recognized(op, binding, service, { ...(action !== undefined ? { action } : {}), issues: [], problems: [problem] });
}

function httpBindingRequest(input: RequestInput, method: string, query: URLSearchParams, service: ServiceRoute, operation: string): Recognition {
  const binding: Binding | undefined = method === 'GET' || method === 'HEAD' ? 'get' : method === 'POST' ? 'post' : undefined;
  const at = { servicePath: service.path, operation };
  if (!binding) return unknown('method', `${method} ${service.path}/${operation}: the HTTP bindings take GET and POST`, at);
  const op = service.shapes.find((s) => s.operation === operation);
  if (!op)
    return unknown('operation', `${service.path} has no operation ${operation}; it offers ${service.shapes.map((s) => s.operation).join(', ')}`, {
      ...at,
      binding,
    });
  if (!offers(op, binding) || !op.httpReplyRoot) {
    return unknown(
      'binding',
      `${shapeLabel(op)} does not offer ${BINDING_LABELS[binding]}; it offers ${op.bindings.map((b) => BINDING_LABELS[b]).join(', ')}`,
      { ...at, binding },
    );
  }
  if (binding === 'get') return recognized(op, binding, service, { ...readFormParameters(op, query), problems: [] });
  const media = parseMediaType(headerValue(input.headers, 'content-type'));
  if (media.type !== FORM_MEDIA_TYPE) {
    return unknown('media-type', `${media.type ? `Content-Type ${media.type}` : 'No Content-Type'}: HTTP POST takes ${FORM_MEDIA_TYPE} form fields`, {
      ...at,
      binding,
    });
  }
  if (input.bodyComplete === false) {
    return recognized(op, binding, service, {
      issues: [],
      problems: [{ code: 'truncated', message: 'Only the start of the request body was kept, so its parameters were not read' }],
    });
  }
  return recognized(op, binding, service, { ...readFormParameters(op, new URLSearchParams(input.body)), problems: [] });
}

function recognized(
  op: OperationDef,
  binding: Binding,
  service: ServiceRoute,
  rest: Pick<RecognizedRequest, 'issues' | 'problems'> & Partial<Pick<RecognizedRequest, 'action' | 'params' | 'literals' | 'wrapperNamespace'>>,
): RecognizedRequest {
  return { kind: 'operation', op, operation: op.operation, version: op.version, binding, servicePath: service.path, ...rest };
}
