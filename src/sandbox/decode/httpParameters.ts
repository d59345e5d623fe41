/**
 * Parameters of the HTTP GET and POST bindings: every one travels as text (transport rule 7)
 * and names are case-sensitive (rule 9), so `apikey` is not `APIKey`: it is an unknown
 * parameter, and APIKey is then missing.
 */
import type { OperationDef } from '../../core/catalog/types';
import { parametersRecord } from '../../core/catalog';
import type { JsonObject } from '../../core/xml/read';
import { fromXsdText } from '../../core/xml/values';
import { clientFault } from '../soap/fault';
import { normaliseRequest } from './normalise';

/**
 * Leniency: a parameter the catalog marks optional (CustomerData) may be left out; every
 * required one must be present, even if empty.
 */
export function httpParameters(op: OperationDef, form: URLSearchParams): JsonObject {
  const names = op.parameters.map((p) => p.name);
  for (const key of new Set(form.keys())) {
    if (!names.includes(key)) {
      const twin = names.find((n) => n.toLowerCase() === key.toLowerCase());
      throw clientFault(`Unknown parameter: ${key}.${twin ? ` Parameter names are case-sensitive: did you mean ${twin}?` : ''} ${op.operation} takes ${names.join(', ')}.`);
    }
  }
  const raw: JsonObject = {};
  for (const field of op.parameters) {
    const text = form.get(field.name);
    if (text === null) {
      if (field.required) throw clientFault(`Missing parameter: ${field.name}.`);
      continue;
    }
    const r = fromXsdText(field.type === 'record' ? 'string' : field.type, text);
    if (r.problem) throw clientFault(`Cannot convert '${text}' to ${field.type} for parameter ${field.name}.`);
    raw[field.name] = r.value;
  }
  return normaliseRequest(parametersRecord(op), raw, []).value;
}
