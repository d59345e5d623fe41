/**
 * Parameters of the HTTP GET and POST bindings: core recognition reads them (every one travels
 * as text, docs/wire.md#transport-rule-7); the sandbox refuses what an ASMX service refuses. Names are
 * case-sensitive (docs/wire.md#transport-rule-9), so `apikey` is not `APIKey`: it is an unknown parameter, and APIKey
 * is then missing.
 */
import { parametersRecord, readFormParameters, type JsonObject, type OperationDef } from '../../core';
import { clientFault } from '../soap/fault';
import { normaliseRequest } from './normalise';

/**
 * Leniency: a parameter the catalog marks optional (CustomerData) may be left out; every
 * required one must be present, even if empty.
 */
export function httpParameters(op: OperationDef, form: URLSearchParams): JsonObject {
  const names = op.parameters.map((p) => p.name);
  // The first unknown name is refused before core reads the form, which looks each unknown
  // name up in the whole form again: with none left, that read stays linear in the form.
  const known = new Set(names);
  for (const key of form.keys()) {
    if (known.has(key)) continue;
    const twin = names.find((n) => n.toLowerCase() === key.toLowerCase());
    throw clientFault(
      `Unknown parameter: ${key}.${twin ? ` Parameter names are case-sensitive: did you mean ${twin}?` : ''} ${op.operation} takes ${names.join(', ')}.`,
    );
  }
  const { params, issues } = readFormParameters(op, form);
  const raw: JsonObject = {};
  for (const field of op.parameters) {
    if (!(field.name in params)) {
      if (field.required) throw clientFault(`Missing parameter: ${field.name}.`);
      continue;
    }
    if (issues.some((i) => i.kind === 'type' && i.path === field.name)) {
      throw clientFault(`Cannot convert '${form.get(field.name)}' to ${field.type} for parameter ${field.name}.`);
    }
    raw[field.name] = params[field.name];
  }
  return normaliseRequest(parametersRecord(op), raw, []).value;
}
