/**
 * The exact HTTP request for an operation, a binding and an environment: method, URL, headers
 * and body as they go on the wire. This copy holds the API key; show people only the copy
 * `Redactor.request` makes of it.
 */
import { offers, servicePath, soapAction, BINDING_LABELS, shapeLabel, type Binding, type Namespaces, type OperationDef } from '../catalog';
import type { HttpRequestSpec } from '../exchange';
import { ValueError } from '../xml/values';
import type { PathSegment, ScalarOptions } from '../xml/write';
import { EnvelopeError } from './errors';
import { formEncode, httpParameters } from './form';
import { soapEnvelope } from './soap';
import type { ShapeOverlay } from '../contract/overlay';

export interface EnvelopeInput {
  readonly op: OperationDef;
  readonly binding: Binding;
  /** http(s)://host[:port][/prefix], without a trailing slash. */
  readonly baseUrl: string;
  readonly namespaces: Namespaces;
  /** The wrapper's children, variables already substituted. An APIKey here is replaced by `apiKey`. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly apiKey: string;
  /** Source text of JSON number literals, by path under params (`['request', 'Items', 0, 'Width']`). */
  readonly rawNumber?: (path: readonly PathSegment[]) => string | undefined;
  /** Scalars of the wrong type go out as written ("Send anyway") instead of being refused. */
  readonly asWritten?: boolean;
  /** The environment's stored live contract for this shape: its additions go where its schema puts them. */
  readonly overlay?: ShapeOverlay;
}

export const CONTENT_TYPES = {
  soap11: 'text/xml; charset=utf-8',
  soap12: 'application/soap+xml; charset=utf-8',
  post: 'application/x-www-form-urlencoded',
} as const;

/** `{base_url}/<version>/<Service>.asmx` (docs/wire.md#transport-rule-1). */
export function serviceUrl(baseUrl: string, op: OperationDef): string {
  return `${baseUrl.replace(/\/+$/, '')}${servicePath(op)}`;
}

export function buildHttpRequest(input: EnvelopeInput): HttpRequestSpec {
  const { op, binding, namespaces } = input;
  if (!offers(op, binding)) {
    throw new EnvelopeError(`${shapeLabel(op)} does not offer ${BINDING_LABELS[binding]}; it offers ${op.bindings.map((b) => BINDING_LABELS[b]).join(', ')}`);
  }
  // The key is always the environment's, as the first parameter (docs/wire.md#authentication-rule-1).
  const params: Record<string, unknown> = { APIKey: input.apiKey };
  for (const [k, v] of Object.entries(input.params)) if (k !== 'APIKey') params[k] = v;
  const url = serviceUrl(input.baseUrl, op);
  const scalars: ScalarOptions = { rawNumber: input.rawNumber, asWritten: input.asWritten };
  try {
    switch (binding) {
      case 'soap11':
        return {
          method: 'POST',
          url,
          headers: [
            ['Content-Type', CONTENT_TYPES.soap11],
            ['SOAPAction', `"${soapAction(namespaces.service, op.operation)}"`],
          ],
          body: soapEnvelope('1.1', op, params, namespaces, scalars, input.overlay),
        };
      case 'soap12':
        return {
          method: 'POST',
          url,
          headers: [['Content-Type', CONTENT_TYPES.soap12]],
          body: soapEnvelope('1.2', op, params, namespaces, scalars, input.overlay),
        };
      case 'get': {
        const query = formEncode(httpParameters(op, params, scalars));
        return { method: 'GET', url: `${url}/${op.operation}${query ? `?${query}` : ''}`, headers: [], body: '' };
      }
      case 'post':
        return {
          method: 'POST',
          url: `${url}/${op.operation}`,
          headers: [['Content-Type', CONTENT_TYPES.post]],
          body: formEncode(httpParameters(op, params, scalars)),
        };
    }
  } catch (err) {
    if (err instanceof ValueError) throw new EnvelopeError(err.message, err.path);
    throw err;
  }
}
