/**
 * The shape of the operation catalog: the service's contract as typed data (docs/wire.md).
 * Everything that speaks the wire (envelopes, reply parsing, the sandbox, WSDL, schemas,
 * snippets, editor features) reads these definitions; nothing else knows element names.
 */

/** XML Schema simple types as the contract names them (docs/wire.md#values-on-the-wire). */
export type XsdType = 'string' | 'int' | 'float' | 'decimal' | 'boolean' | 'dateTime' | 'base64Binary';

/**
 * The three namespace roles of the contract (docs/wire.md#namespaces). Their URIs are set per
 * environment; two roles may resolve to the same URI.
 */
export type NamespaceRole = 'service' | 'data' | 'pickup';

export type Binding = 'soap11' | 'soap12' | 'get' | 'post';
export const ALL_BINDINGS: readonly Binding[] = ['soap11', 'soap12', 'get', 'post'];
export const BINDING_LABELS: Record<Binding, string> = {
  soap11: 'SOAP 1.1',
  soap12: 'SOAP 1.2',
  get: 'HTTP GET',
  post: 'HTTP POST',
};

/**
 * Where a definition comes from: the contract itself, the reference carrier's facts
 * (docs/carrier-facts.md) where the contract leaves it open, or a decision of this project.
 */
export type Source = 'interface' | 'facts' | 'project';

/** Known string formats the service expects in plain string fields (docs/carrier-facts.md#formats). */
export type StringFormat = 'MM/DD/YYYY' | 'hh:mm AM/PM';

/**
 * One element of a record, in document order.
 *
 * - simple leaf:          `type` set, no `record`, no `list`
 * - nested record:        `record` set
 * - repeating container:  `list` names the repeating item element; items are `record`s or
 *                         simple values of `type` (e.g. `Accessorials > RQAccessorial`,
 *                         `TraceNumbers > string`)
 */
export interface FieldDef {
  readonly name: string;
  /** `record` when the element (or each list item) holds a record. */
  readonly type: XsdType | 'record';
  readonly record?: string;
  readonly list?: string;
  /** Enumeration name (for a simple leaf, or for the items of a simple list). */
  readonly enumeration?: string;
  /** Namespace of this element when it differs from the namespace of its parent record's content. */
  readonly ns?: NamespaceRole;
  /** Namespace of the list's item elements when it differs from the container's own namespace. */
  readonly itemNs?: NamespaceRole;
  /** Required by the service (minOccurs 1 or a business rule); a missing one is a warning in files. */
  readonly required?: boolean;
  readonly format?: StringFormat;
  /** Values offered in completion but not enforced (e.g. freight classes, label styles). */
  readonly suggestions?: readonly string[];
  /** Carries a base64 document (PDF) that replies decode. */
  readonly document?: boolean;
  /** Never shown, logged or stored: replaced by •••• in every copy. */
  readonly secret?: boolean;
  readonly doc?: string;
  readonly source?: Source;
}

/** A record: the children of one element, in order. */
export interface RecordDef {
  readonly name: string;
  /** Namespace role of this record's child elements. */
  readonly ns: NamespaceRole;
  readonly fields: readonly FieldDef[];
  /**
   * Inner fields neither the contract nor the carrier's facts give (docs/carrier-facts.md#gaps): whatever
   * arrives is kept (parser) and accepted (sandbox, request files).
   */
  readonly open?: boolean;
  readonly doc?: string;
  readonly source?: Source;
}

export interface EnumerationDef {
  readonly name: string;
  readonly values: readonly string[];
  readonly doc?: string;
  readonly source?: Source;
}

/** One operation shape: an operation at one version (path). */
export interface OperationDef {
  readonly operation: string;
  readonly version: string;
  readonly service: string;
  readonly bindings: readonly Binding[];
  readonly description: string;
  /** Parameters in order: the children of the `<Operation>` wrapper, in the service namespace. */
  readonly parameters: readonly FieldDef[];
  /** Record held by `<Operation>Result` in SOAP replies and by the HTTP reply root. */
  readonly result: string;
  /** Root element of HTTP GET/POST replies (only for operations with HTTP bindings). */
  readonly httpReplyRoot?: string;
}

/** The `<Operation>` identity of a shape, as request files name it. */
export interface ShapeKey {
  readonly operation: string;
  readonly version: string;
}
