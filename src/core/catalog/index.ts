/**
 * The operation catalog: the single source of truth for paths, versions, bindings, parameter
 * order, records, types, enumerations and namespaces. Adding an operation or a version is a new
 * entry in services/ — nothing else in the tree names elements.
 */
import { enumerations as enumerationList } from './enumerations';
import { sharedRecords } from './shared';
import * as billOfLading from './services/billOfLading';
import * as documents from './services/documents';
import * as pickup from './services/pickup';
import * as rateQuote from './services/rateQuote';
import * as terminal from './services/terminal';
import * as tracing from './services/tracing';
import * as transit from './services/transit';
import type { Binding, EnumerationDef, FieldDef, NamespaceRole, OperationDef, RecordDef } from './types';

export * from './types';
export { FREIGHT_CLASSES, COUNTRY_CODES } from './enumerations';

const services = [terminal, documents, billOfLading, rateQuote, pickup, tracing, transit];

export const operations: readonly OperationDef[] = services.flatMap((s) => s.operations);
const recordMap = new Map<string, RecordDef>();
for (const r of [...sharedRecords, ...services.flatMap((s) => s.records)]) {
  if (recordMap.has(r.name)) throw new Error(`catalog: record ${r.name} is defined twice`);
  recordMap.set(r.name, r);
}
const enumerationMap = new Map<string, EnumerationDef>(enumerationList.map((e) => [e.name, e]));

export const catalog = {
  operations,
  records: recordMap as ReadonlyMap<string, RecordDef>,
  enumerations: enumerationMap as ReadonlyMap<string, EnumerationDef>,
};

/** Neutral namespace defaults that belong to no real carrier; every environment may set its own. */
export const DEFAULT_NAMESPACES: Readonly<Record<NamespaceRole, string>> = {
  service: 'http://schemas.carrier-workbench.example/ltl/',
  data: 'http://schemas.carrier-workbench.example/ltl/data',
  pickup: 'http://schemas.carrier-workbench.example/ltl/pickup',
};

export type Namespaces = Readonly<Record<NamespaceRole, string>>;

export const SOAP11_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENVELOPE_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

export function operationNames(): string[] {
  return [...new Set(operations.map((o) => o.operation))];
}

export function shapesOf(operation: string): OperationDef[] {
  return operations.filter((o) => o.operation === operation);
}

/** The shape a request names; the version may be left out only where the operation has one. */
export function findShape(operation: string, version?: string): OperationDef | undefined {
  const shapes = shapesOf(operation);
  if (version === undefined) return shapes.length === 1 ? shapes[0] : undefined;
  return shapes.find((s) => s.version === version);
}

export function shapeLabel(op: Pick<OperationDef, 'operation' | 'version'>): string {
  return `${op.operation} ${op.version}`;
}

/** `/<version>/<ServiceName>.asmx` (docs/wire.md#transport-rule-1). */
export function servicePath(op: Pick<OperationDef, 'version' | 'service'>): string {
  return `/${op.version}/${op.service}.asmx`;
}

/** Every service path, with the shapes it serves (one WSDL each). */
export function servicePaths(): Map<string, OperationDef[]> {
  const byPath = new Map<string, OperationDef[]>();
  for (const op of operations) {
    const p = servicePath(op);
    byPath.set(p, [...(byPath.get(p) ?? []), op]);
  }
  return byPath;
}

export function shapesAtPath(path: string): OperationDef[] {
  return operations.filter((o) => servicePath(o) === path);
}

/**
 * `{service_namespace}/<Operation>` (docs/wire.md#transport-rule-2). A configured namespace that
 * already ends in `/` (as the reference carrier's does, docs/carrier-facts.md#endpoints-and-transport)
 * is joined without doubling the slash.
 */
export function soapAction(serviceNamespace: string, operation: string): string {
  return serviceNamespace.endsWith('/') ? `${serviceNamespace}${operation}` : `${serviceNamespace}/${operation}`;
}

export function offers(op: OperationDef, binding: Binding): boolean {
  return op.bindings.includes(binding);
}

export function getRecord(name: string): RecordDef {
  const r = recordMap.get(name);
  if (!r) throw new Error(`catalog: no record named ${name}`);
  return r;
}

export function getEnumeration(name: string): EnumerationDef {
  const e = enumerationMap.get(name);
  if (!e) throw new Error(`catalog: no enumeration named ${name}`);
  return e;
}

/** The namespace role of a field's element inside a record whose content is in `parentNs`. */
export function elementNs(field: FieldDef, parentNs: NamespaceRole): NamespaceRole {
  return field.ns ?? parentNs;
}

/** The namespace role of a list's item elements. */
export function listItemNs(field: FieldDef, parentNs: NamespaceRole): NamespaceRole {
  return field.itemNs ?? elementNs(field, parentNs);
}

/**
 * A field's minOccurs in the contract the catalog states: 1 only for a required value type, the
 * kind .NET cannot leave null (the sandbox's WSDL writes it so, src/sandbox/wsdl/xsd.ts; the
 * contract check and the reply's contract findings read it the same way).
 */
export function catalogMinOccurs(field: FieldDef): 0 | 1 {
  const valueType = !field.list && !field.record && (field.enumeration !== undefined || VALUE_TYPES.has(field.type));
  return valueType && field.required ? 1 : 0;
}

const VALUE_TYPES: ReadonlySet<string> = new Set(['int', 'float', 'decimal', 'boolean', 'dateTime']);

/** The record a field holds (for a record field or a list of records). */
export function fieldRecord(field: FieldDef): RecordDef | undefined {
  return field.record ? getRecord(field.record) : undefined;
}

/**
 * The parameters record of each shape, made once: readers, writers and checks keep what they
 * work out about a record by its identity (the one-pass reader's plan, reply/commonReply.ts;
 * reply/walk.ts), so a new object per call would have them work it out for every request read.
 */
const parameterRecords = new WeakMap<OperationDef, RecordDef>();

/** The fields of the operation wrapper, as a record in the service namespace. */
export function parametersRecord(op: OperationDef): RecordDef {
  let record = parameterRecords.get(op);
  if (!record) parameterRecords.set(op, (record = { name: op.operation, ns: 'service', fields: op.parameters }));
  return record;
}

/** Finds references to records or enumerations that do not exist; empty when the catalog is whole. */
export function catalogProblems(): string[] {
  const problems: string[] = [];
  const checkFields = (owner: string, fields: readonly FieldDef[]) => {
    const seen = new Set<string>();
    for (const f of fields) {
      if (seen.has(f.name)) problems.push(`${owner}: field ${f.name} appears twice`);
      seen.add(f.name);
      if (f.type === 'record' && (!f.record || !recordMap.has(f.record))) problems.push(`${owner}.${f.name}: unknown record ${f.record}`);
      if (f.enumeration && !enumerationMap.has(f.enumeration)) problems.push(`${owner}.${f.name}: unknown enumeration ${f.enumeration}`);
    }
  };
  for (const r of recordMap.values()) checkFields(r.name, r.fields);
  for (const op of operations) {
    checkFields(shapeLabel(op), op.parameters);
    if (!recordMap.has(op.result)) problems.push(`${shapeLabel(op)}: unknown result record ${op.result}`);
    const http = op.bindings.some((b) => b === 'get' || b === 'post');
    if (http && !op.httpReplyRoot) problems.push(`${shapeLabel(op)}: HTTP bindings without an HTTP reply root`);
    if (http && op.parameters.some((p) => p.type === 'record' || p.list)) problems.push(`${shapeLabel(op)}: HTTP bindings carry only simple parameters`);
  }
  return problems;
}
