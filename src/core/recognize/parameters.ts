/**
 * The parameters of a recognised request, read along the catalog: the children of the SOAP
 * operation wrapper, or the query string / form fields of the HTTP bindings (every one text,
 * docs/wire.md#transport-rule-7; names case-sensitive, docs/wire.md#transport-rule-9). Nothing is refused here: unknown names,
 * repeats and unreadable values are issues, and the value is kept as received.
 */
import { parametersRecord, type Namespaces } from '../catalog';
import type { OperationDef } from '../catalog/types';
import type { XmlElement } from '../xml/dom';
import { readRecord, type JsonObject, type ReadIssue } from '../xml/read';
import { fromXsdText } from '../xml/values';
import { formLiterals, soapLiterals, type Literals } from './literals';

export interface ReadParameters {
  readonly params: JsonObject;
  readonly issues: ReadIssue[];
  /** How the client spelled the numbers it sent, where that is not their plain form. */
  readonly literals?: Literals;
}

export function readSoapParameters(
  op: OperationDef,
  wrapper: XmlElement,
  namespaces: Namespaces,
  outOfNamespace: 'absent' | 'keep' = 'absent',
): ReadParameters {
  const issues: ReadIssue[] = [];
  const params = readRecord(wrapper, parametersRecord(op), '', { namespaces, outOfNamespace, issues });
  const literals = soapLiterals(op, wrapper, namespaces, outOfNamespace);
  return { params, issues, ...(literals ? { literals } : {}) };
}

/** Query string or form fields: the first of a repeated name counts, as ASP.NET reads it. */
export function readFormParameters(op: OperationDef, form: URLSearchParams): ReadParameters {
  const issues: ReadIssue[] = [];
  const params: JsonObject = {};
  const names = new Set(op.parameters.map((p) => p.name));
  const unknown: string[] = [];
  for (const key of new Set(form.keys())) {
    if (names.has(key)) continue;
    unknown.push(key);
    issues.push({ kind: 'unknown', path: key, message: `${key} is not a parameter of ${op.operation}; kept as received` });
  }
  for (const field of op.parameters) {
    const all = form.getAll(field.name);
    if (!all.length) continue;
    if (all.length > 1) issues.push({ kind: 'repeated', path: field.name, message: `${field.name} appears ${all.length} times; the first counts` });
    const r = fromXsdText(field.type === 'record' ? 'string' : field.type, all[0]);
    if (r.problem) issues.push({ kind: 'type', path: field.name, message: `${field.name}: ${r.problem}; kept as text` });
    params[field.name] = r.value;
  }
  for (const key of unknown) params[key] = form.get(key);
  const literals = formLiterals(op, form);
  return { params, issues, ...(literals ? { literals } : {}) };
}
