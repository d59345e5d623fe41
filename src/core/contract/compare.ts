/**
 * One service path's WSDL held against the catalog's shapes at that path: operations and
 * bindings, then every record the catalog knows, element by element, on the request side (the
 * operation's wrapper) and the reply side (`<Operation>Result`, the HTTP reply root). Records
 * are compared once per live type, so a record used in many places is reported once. Which URI
 * each namespace role has on the wire is gathered as evidence, for the environment-wide verdict.
 */
import {
  BINDING_LABELS,
  catalogMinOccurs,
  elementNs,
  getEnumeration,
  getRecord,
  listItemNs,
  parametersRecord,
  type FieldDef,
  type NamespaceRole,
  type OperationDef,
  type RecordDef,
} from '../catalog';
import type { AddedElement, ContractDifference, DifferenceKind, DifferenceSeverity } from './types';
import type { QName } from './qnames';
import { describeType, XSD_NS, type ComplexType, type LiveElement, type LiveType, type SimpleType } from './xsd';
import type { WsdlDocument } from './wsdl';

/** role → URI → the records whose elements showed it. */
export type NamespaceEvidence = Map<NamespaceRole, Map<string, Set<string>>>;

export interface ServiceComparison {
  readonly differences: ContractDifference[];
  readonly evidence: NamespaceEvidence;
  readonly operations: string[];
}

/** The catalog's scalar types and the XML Schema built-ins that carry them unchanged. */
const SAME_TYPE: Record<string, readonly string[]> = {
  string: ['string', 'normalizedString', 'token', 'anySimpleType'],
  int: ['int'],
  float: ['float'],
  decimal: ['decimal'],
  boolean: ['boolean'],
  dateTime: ['dateTime'],
  base64Binary: ['base64Binary'],
};

const KIND_RANK: Record<DifferenceKind, number> = {
  namespace: 0,
  'operation-missing': 1,
  'binding-missing': 2,
  'element-missing': 3,
  type: 4,
  'enumeration-missing': 5,
  order: 6,
  'min-occurs': 7,
  'max-occurs': 8,
  'element-added': 9,
  'enumeration-added': 10,
  'record-expanded': 11,
  'binding-added': 12,
  'operation-added': 13,
};
const SEVERITY_RANK: Record<DifferenceSeverity, number> = { breaking: 0, changed: 1, added: 2 };

/** Most serious first; then requests before replies, then by where. */
export function byGravity(a: ContractDifference, b: ContractDifference): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    KIND_RANK[a.kind] - KIND_RANK[b.kind] ||
    (a.servicePath ?? '').localeCompare(b.servicePath ?? '') ||
    (a.direction === b.direction ? 0 : a.direction === 'request' ? -1 : 1) ||
    (a.at ?? '').localeCompare(b.at ?? '') ||
    (a.element ?? '').localeCompare(b.element ?? '')
  );
}

const occursText = (n: number) => (n === Infinity ? 'unbounded' : String(n));
const join = (at: string, name: string) => (at ? `${at}.${name}` : name);

export function compareService(servicePath: string, shapes: readonly OperationDef[], doc: WsdlDocument, serviceNamespace: string): ServiceComparison {
  const cmp = new Comparer(servicePath, doc, serviceNamespace);
  for (const op of shapes) cmp.shape(op);
  const known = new Set(shapes.map((s) => s.operation));
  for (const name of doc.operations.keys()) {
    if (known.has(name)) continue;
    cmp.add({
      severity: 'added',
      kind: 'operation-added',
      operations: [name],
      message: `the live service offers ${name}, which the catalog does not have at ${servicePath}`,
    });
  }
  return { differences: cmp.result(), evidence: cmp.evidence, operations: [...doc.operations.keys()] };
}

interface Ctx {
  readonly op: OperationDef;
  readonly direction: 'request' | 'reply';
}

class Comparer {
  readonly evidence: NamespaceEvidence = new Map();
  private readonly differences = new Map<string, ContractDifference & { operations: string[] }>();
  /** record name + direction → the live types already compared with it. */
  private readonly compared = new Map<string, Set<LiveType>>();

  constructor(
    private readonly servicePath: string,
    private readonly doc: WsdlDocument,
    private readonly serviceNamespace: string,
  ) {}

  add(d: Omit<ContractDifference, 'servicePath'>): void {
    const key = [d.kind, d.direction, d.record, d.at, d.element, d.binding, d.catalog, d.live, (d.values ?? []).join(',')].join('\u0000');
    const had = this.differences.get(key);
    if (had) {
      for (const o of d.operations ?? []) if (!had.operations.includes(o)) had.operations.push(o);
      return;
    }
    this.differences.set(key, { ...d, servicePath: this.servicePath, operations: [...(d.operations ?? [])] });
  }

  result(): ContractDifference[] {
    return [...this.differences.values()].sort(byGravity);
  }

  private see(role: NamespaceRole, uri: string, record: string): void {
    let uris = this.evidence.get(role);
    if (!uris) this.evidence.set(role, (uris = new Map()));
    let records = uris.get(uri);
    if (!records) uris.set(uri, (records = new Set()));
    records.add(record);
  }

  /** A global element by name in whichever namespace declares one: a service in other namespaces is still read. */
  private globalElement(preferred: QName | undefined, local: string): LiveElement | undefined {
    const candidates: QName[] = [...(preferred ? [preferred] : []), { ns: this.doc.targetNamespace, local }, { ns: this.serviceNamespace, local }];
    for (const ns of this.doc.schemas.targetNamespaces) candidates.push({ ns, local });
    for (const q of candidates) {
      const el = this.doc.schemas.element(q);
      if (el) return el;
    }
    return undefined;
  }

  shape(op: OperationDef): void {
    const live = this.doc.operations.get(op.operation);
    const operations = [op.operation];
    if (!live) {
      this.add({
        severity: 'breaking',
        kind: 'operation-missing',
        operations,
        version: op.version,
        message: `${op.operation} is not in the live WSDL at ${this.servicePath}`,
      });
      return;
    }
    for (const b of op.bindings) {
      if (!live.bindings.has(b))
        this.add({
          severity: 'breaking',
          kind: 'binding-missing',
          operations,
          version: op.version,
          binding: b,
          message: `${op.operation} has no ${BINDING_LABELS[b]} binding in the live WSDL (the catalog offers it)`,
        });
    }
    for (const b of live.bindings) {
      if (!op.bindings.includes(b))
        this.add({
          severity: 'added',
          kind: 'binding-added',
          operations,
          version: op.version,
          binding: b,
          message: `the live WSDL offers ${op.operation} over ${BINDING_LABELS[b]}, which the catalog does not`,
        });
    }

    const wrapper = this.globalElement(live.soapInput, op.operation);
    if (wrapper) {
      this.see('service', wrapper.ns, op.operation);
      this.record(parametersRecord(op), wrapper.type(), '', { op, direction: 'request' });
    } else if (live.bindings.has('soap11') || live.bindings.has('soap12')) {
      this.add({
        severity: 'breaking',
        kind: 'operation-missing',
        operations,
        version: op.version,
        direction: 'request',
        element: op.operation,
        message: `the live schemas declare no ${op.operation} request element`,
      });
    }

    const result = getRecord(op.result);
    const response = this.globalElement(live.soapOutput, `${op.operation}Response`);
    const resultType = response?.type();
    const resultElement = resultType?.kind === 'complex' ? resultType.elements.find((e) => e.name === `${op.operation}Result`) : undefined;
    if (resultElement) {
      this.see('service', resultElement.ns, `${op.operation}Result`);
      this.record(result, resultElement.type(), '', { op, direction: 'reply' });
    } else if (live.bindings.has('soap11') || live.bindings.has('soap12')) {
      this.add({
        severity: 'breaking',
        kind: 'element-missing',
        operations,
        version: op.version,
        direction: 'reply',
        element: `${op.operation}Result`,
        message: `the live schemas declare no ${op.operation}Response/${op.operation}Result`,
      });
    }
    if (op.httpReplyRoot && (live.bindings.has('get') || live.bindings.has('post'))) {
      const root = this.globalElement(live.httpOutput, op.httpReplyRoot);
      if (root) {
        this.see('service', root.ns, op.httpReplyRoot);
        this.record(result, root.type(), '', { op, direction: 'reply' });
      } else {
        this.add({
          severity: 'breaking',
          kind: 'element-missing',
          operations,
          version: op.version,
          direction: 'reply',
          element: op.httpReplyRoot,
          message: `the live schemas declare no ${op.httpReplyRoot}, the HTTP bindings' reply root`,
        });
      }
    }
  }

  private diff(ctx: Ctx, d: Omit<ContractDifference, 'servicePath' | 'operations' | 'version' | 'direction'>): void {
    this.add({ ...d, operations: [ctx.op.operation], version: ctx.op.version, direction: ctx.direction });
  }

  /** A catalog record against the live type of an element holding it. */
  private record(record: RecordDef, live: LiveType, at: string, ctx: Ctx): void {
    if (live.kind === 'simple') return; // reported by the field that holds it
    const key = `${ctx.direction}|${record.name}`;
    let seen = this.compared.get(key);
    if (!seen) this.compared.set(key, (seen = new Set()));
    if (seen.has(live)) return;
    seen.add(live);

    if (record.open) {
      for (const el of live.elements) this.see(record.ns, el.ns, record.name);
      if (live.elements.length) {
        const names = live.elements.map((e) => e.name);
        this.diff(ctx, {
          severity: 'added',
          kind: 'record-expanded',
          record: record.name,
          at,
          values: names,
          message: `${record.name}${at ? ` (${at})` : ''}: the catalog leaves it open; the live contract expands it: ${live.elements.map((e) => `${e.name} (${e.typeName})`).join(', ')}`,
        });
      }
      return;
    }

    const byName = new Map<string, LiveElement>();
    for (const el of live.elements) if (!byName.has(el.name)) byName.set(el.name, el);
    const catalogNames = new Set(record.fields.map((f) => f.name));
    for (const field of record.fields) {
      const el = byName.get(field.name);
      if (!el) {
        this.diff(ctx, {
          severity: 'breaking',
          kind: 'element-missing',
          record: record.name,
          at,
          element: field.name,
          catalog: this.catalogType(field),
          message: `${join(at, field.name)}: the live contract has no ${field.name} in ${record.name}${ctx.direction === 'request' ? ' (the service will not read it)' : ' (replies will not carry it)'}`,
        });
        continue;
      }
      this.field(record, field, el, join(at, field.name), ctx);
    }

    let lastLive: string | null = null;
    // An added element in its siblings' namespace takes their role, so it follows the environment's setting.
    const siblingsNs = live.elements.find((e) => catalogNames.has(e.name))?.ns;
    live.elements.forEach((el, i) => {
      if (!catalogNames.has(el.name)) {
        const added = this.added(el, i + 1, lastLive, siblingsNs === undefined || siblingsNs === el.ns ? record.ns : undefined);
        this.see(record.ns, el.ns, record.name);
        this.diff(ctx, {
          severity: 'added',
          kind: 'element-added',
          record: record.name,
          at,
          element: el.name,
          live: `${el.typeName}, minOccurs ${el.minOccurs}, maxOccurs ${occursText(el.maxOccurs)}`,
          added,
          message: `${join(at, el.name)}: the live contract adds ${el.name} (${el.typeName}, minOccurs ${el.minOccurs}, maxOccurs ${occursText(el.maxOccurs)}) to ${record.name} at position ${i + 1}, ${lastLive ? `after ${lastLive}` : 'first'}`,
        });
      }
      lastLive = el.name;
    });

    const liveOrder = live.elements.map((e) => e.name).filter((n, i, all) => catalogNames.has(n) && all.indexOf(n) === i);
    const catalogOrder = record.fields.map((f) => f.name).filter((n) => byName.has(n));
    if (liveOrder.join('\u0000') !== catalogOrder.join('\u0000')) {
      this.diff(ctx, {
        // A .NET service binds request elements in schema order only: one out of place is not read.
        severity: ctx.direction === 'request' ? 'breaking' : 'changed',
        kind: 'order',
        record: record.name,
        at,
        values: liveOrder,
        catalog: catalogOrder.join(', '),
        live: liveOrder.join(', '),
        message: `${record.name}${at ? ` (${at})` : ''}: the live contract orders the elements ${liveOrder.join(', ')}; the catalog ${catalogOrder.join(', ')}`,
      });
    }
  }

  private added(el: LiveElement, position: number, after: string | null, role: NamespaceRole | undefined): AddedElement {
    const type = el.type();
    return {
      name: el.name,
      ns: el.ns,
      ...(role && el.ns !== '' ? { role } : {}),
      type: el.typeName,
      ...(type.kind === 'simple'
        ? { base: type.base, ...(type.enumeration ? { enumeration: type.enumeration } : {}) }
        : { children: type.elements.map((c) => c.name) }),
      minOccurs: el.minOccurs,
      maxOccurs: el.maxOccurs === Infinity ? 'unbounded' : el.maxOccurs,
      position,
      after,
    };
  }

  private catalogType(field: FieldDef): string {
    if (field.list) return `list of ${field.list} (${field.record ?? field.enumeration ?? field.type})`;
    if (field.record) return field.record;
    return field.enumeration ? `${field.enumeration} (enumeration)` : field.type;
  }

  private field(owner: RecordDef, field: FieldDef, el: LiveElement, at: string, ctx: Ctx): void {
    const role = elementNs(field, owner.ns);
    this.see(role, el.ns, owner.name);
    const base = { record: owner.name, at, element: field.name };

    const expectedMin = catalogMinOccurs(field);
    if (el.minOccurs >= 1 !== expectedMin >= 1) {
      this.diff(ctx, {
        ...base,
        severity: 'changed',
        kind: 'min-occurs',
        catalog: `minOccurs ${expectedMin}`,
        live: `minOccurs ${el.minOccurs}`,
        message:
          el.minOccurs >= 1
            ? `${at}: the live contract requires ${field.name} (minOccurs ${el.minOccurs}); the catalog has it optional`
            : `${at}: the live contract makes ${field.name} optional (minOccurs 0); the catalog requires it`,
      });
    }
    if (el.maxOccurs > 1) {
      this.diff(ctx, {
        ...base,
        severity: 'changed',
        kind: 'max-occurs',
        catalog: field.list ? `one ${field.name} holding repeating ${field.list}` : 'maxOccurs 1',
        live: `maxOccurs ${occursText(el.maxOccurs)}`,
        message: field.list
          ? `${at}: the live contract repeats ${field.name} itself (maxOccurs ${occursText(el.maxOccurs)}) where the catalog has one ${field.name} holding repeating ${field.list} elements`
          : `${at}: the live contract lets ${field.name} repeat (maxOccurs ${occursText(el.maxOccurs)}); the catalog has one`,
      });
    }

    const type = el.type();
    if (field.list) {
      if (type.kind !== 'complex') return this.typeDiff(ctx, base, field, el, type);
      const item = type.elements.find((e) => e.name === field.list);
      if (!item) {
        const others = type.elements.map((e) => e.name);
        this.diff(ctx, {
          ...base,
          severity: 'breaking',
          kind: 'type',
          catalog: `repeating ${field.list}`,
          live: others.length ? `${el.typeName} holding ${others.join(', ')}` : el.typeName,
          message: `${at}: the live contract's ${field.name} (${el.typeName}) holds ${others.length ? others.join(', ') : 'no elements'}, not repeating ${field.list} elements`,
        });
        return;
      }
      this.see(listItemNs(field, owner.ns), item.ns, owner.name);
      if (item.maxOccurs <= 1) {
        this.diff(ctx, {
          ...base,
          element: `${field.name}.${field.list}`,
          severity: 'changed',
          kind: 'max-occurs',
          catalog: 'maxOccurs unbounded',
          live: `maxOccurs ${occursText(item.maxOccurs)}`,
          message: `${at}.${field.list}: the live contract allows one ${field.list}; the catalog a list`,
        });
      }
      const itemType = item.type();
      if (field.record) {
        if (itemType.kind !== 'complex') return this.typeDiff(ctx, { ...base, element: `${field.name}.${field.list}` }, field, item, itemType);
        // Items spelled as request files and reply paths spell them, `[*]`, not by their element name.
        return this.record(getRecord(field.record), itemType, `${at}[*]`, ctx);
      }
      return this.simple(ctx, { ...base, element: `${field.name}.${field.list}` }, field, item, itemType);
    }
    if (field.record) {
      if (type.kind !== 'complex' || type.simpleContent) return this.typeDiff(ctx, base, field, el, type);
      return this.record(getRecord(field.record), type, at, ctx);
    }
    this.simple(ctx, base, field, el, type);
  }

  private typeDiff(ctx: Ctx, base: { record: string; at: string; element: string }, field: FieldDef, el: LiveElement, type: LiveType): void {
    this.diff(ctx, {
      ...base,
      severity: 'breaking',
      kind: 'type',
      catalog: this.catalogType(field),
      live: `${el.typeName} (${describeType(type)})`,
      message: `${base.at}: the live contract types ${field.name} as ${describeType(type)}; the catalog has ${this.catalogType(field)}`,
    });
  }

  private simple(ctx: Ctx, base: { record: string; at: string; element: string }, field: FieldDef, el: LiveElement, type: LiveType): void {
    const simple: SimpleType | undefined = type.kind === 'simple' ? type : (type as ComplexType).simpleContent;
    if (!simple) return this.typeDiff(ctx, base, field, el, type);
    if (simple.base === 'unknown') return; // an undeclared type: the read reported it
    if (!(SAME_TYPE[field.type] ?? [field.type]).includes(simple.base)) {
      return this.diff(ctx, {
        ...base,
        severity: 'breaking',
        kind: 'type',
        catalog: field.type,
        live: simple.base,
        message: `${base.at}: the live contract types ${base.element} as ${simple.base}${simple.name && simple.name.ns !== XSD_NS ? ` (${simple.name.local})` : ''}; the catalog has ${field.type}`,
      });
    }
    const catalogValues = field.enumeration ? getEnumeration(field.enumeration).values : undefined;
    const liveValues = simple.enumeration;
    if (catalogValues && !liveValues) {
      this.diff(ctx, {
        ...base,
        severity: 'changed',
        kind: 'type',
        catalog: `${field.enumeration} (enumeration)`,
        live: `${simple.base} without values`,
        message: `${base.at}: the live contract takes any ${simple.base} in ${base.element}; the catalog only the ${field.enumeration} values`,
      });
    } else if (!catalogValues && liveValues) {
      this.diff(ctx, {
        ...base,
        severity: 'changed',
        kind: 'type',
        catalog: field.type,
        live: `enumeration: ${liveValues.join(', ')}`,
        values: liveValues,
        message: `${base.at}: the live contract restricts ${base.element} to ${liveValues.join(', ')}; the catalog takes any ${field.type}`,
      });
    } else if (catalogValues && liveValues) {
      const missing = catalogValues.filter((v) => !liveValues.includes(v));
      const extra = liveValues.filter((v) => !catalogValues.includes(v));
      const name = simple.name && simple.name.ns !== XSD_NS ? simple.name.local : field.enumeration!;
      if (missing.length) {
        this.diff(ctx, {
          ...base,
          severity: 'breaking',
          kind: 'enumeration-missing',
          values: missing,
          catalog: field.enumeration,
          message: `${base.at}: the live ${name} lacks ${missing.join(', ')} (values of the catalog's ${field.enumeration})`,
        });
      }
      if (extra.length) {
        this.diff(ctx, {
          ...base,
          severity: 'added',
          kind: 'enumeration-added',
          values: extra,
          catalog: field.enumeration,
          message: `${base.at}: the live ${name} adds ${extra.join(', ')} (not values of the catalog's ${field.enumeration})`,
        });
      }
    }
  }
}
