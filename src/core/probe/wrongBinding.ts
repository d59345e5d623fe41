/**
 * A request over a binding its operation does not offer (the `wrong-binding` mutation): built with
 * the envelope builders as if the shape offered it, since prepareRequest and buildHttpRequest
 * rightly refuse it. What the service should do with it is refuse it (docs/wire.md#bindings).
 */
import type { Binding, OperationDef } from '../catalog';
import { buildHttpRequest } from '../envelope/build';
import { EnvelopeError } from '../envelope/errors';
import type { PreparedRequest } from '../envelope/prepare';
import type { Namespaces } from '../catalog';
import { Redactor } from '../redact';

export function wrongBindingRequest(
  op: OperationDef,
  binding: Binding,
  params: Readonly<Record<string, unknown>>,
  namespaces: Namespaces,
  baseUrl: string,
  apiKey: string,
): PreparedRequest {
  const widened: OperationDef = { ...op, bindings: [...op.bindings, binding] };
  const input = { op: widened, binding, baseUrl, namespaces, params, apiKey, asWritten: true };
  let spec;
  try {
    spec = buildHttpRequest(input);
  } catch (err) {
    if (!(err instanceof EnvelopeError)) throw err;
    // Records and lists do not go over HTTP GET or POST: the simple parameters alone.
    const simple = Object.fromEntries(Object.entries(params).filter(([k]) => op.parameters.some((f) => f.name === k && f.type !== 'record' && !f.list)));
    spec = buildHttpRequest({ ...input, params: simple });
  }
  const redactor = new Redactor([apiKey]);
  return { op: widened, binding, spec, display: redactor.request(spec), redactor };
}
