/**
 * What `carrier contract` finds when it holds a live service's WSDL against the catalog. The JSON
 * report (`--json`, and the stored snapshot's `report`) is this shape, versioned by
 * CONTRACT_REPORT_VERSION: fields are only ever added within a version.
 */
import type { Binding, NamespaceRole } from '../catalog';

export const CONTRACT_REPORT_FORMAT = 'carrier-contract-report';
export const CONTRACT_REPORT_VERSION = 1;

/**
 * - `breaking`: what the catalog sends or expects is not what the live service takes or gives
 *   (an operation, binding or element missing, another type, another namespace, a value dropped
 *   from an enumeration, request elements in another order);
 * - `changed`: both still work together, but differently (minOccurs, maxOccurs, reply order, an
 *   enumeration dropped or added on a plain string);
 * - `added`: the live service offers more than the catalog knows.
 */
export type DifferenceSeverity = 'breaking' | 'changed' | 'added';

export type DifferenceKind =
  | 'namespace'
  | 'operation-missing'
  | 'binding-missing'
  | 'element-missing'
  | 'type'
  | 'enumeration-missing'
  | 'order'
  | 'min-occurs'
  | 'max-occurs'
  | 'element-added'
  | 'enumeration-added'
  | 'record-expanded'
  | 'binding-added'
  | 'operation-added';

/** An element the live contract declares where the catalog has none. */
export interface AddedElement {
  readonly name: string;
  /** Namespace URI of the element on the wire ('' when unqualified). */
  readonly ns: string;
  /** The namespace role that URI plays for this environment, when it is one of the three. */
  readonly role?: NamespaceRole;
  /** The type as written in the WSDL (`s:int`, `tns:Dimensions`). */
  readonly type: string;
  /** The built-in XML Schema type of a simple element (`int`, `string`, `dateTime`…); absent for a complex one. */
  readonly base?: string;
  readonly enumeration?: readonly string[];
  readonly minOccurs: number;
  /** `"unbounded"` or a number. */
  readonly maxOccurs: number | 'unbounded';
  /** 1-based place among the live record's elements. */
  readonly position: number;
  /** The live element it follows; null when it comes first. */
  readonly after: string | null;
  /** For a complex element: its child elements' names, in order. */
  readonly children?: readonly string[];
}

export interface ContractDifference {
  readonly severity: DifferenceSeverity;
  readonly kind: DifferenceKind;
  /** Service path (`/1.0.3/RateQuoteService.asmx`); absent for namespace differences, which are the environment's. */
  readonly servicePath?: string;
  /** Operations of the path the difference concerns. */
  readonly operations?: readonly string[];
  readonly version?: string;
  /** Whether the element is sent (request) or read (reply). */
  readonly direction?: 'request' | 'reply';
  /** The catalog record holding the element (the operation's name for its parameters). */
  readonly record?: string;
  /** Where, as a request file's params path (`request.Items.Item`) or a reply path (`Result.Origin`). */
  readonly at?: string;
  readonly element?: string;
  /** The catalog's side and the live side, in words (`int`, `minOccurs 0`, `http://…`). */
  readonly catalog?: string;
  readonly live?: string;
  readonly binding?: Binding;
  readonly added?: AddedElement;
  /** Enumeration values added or missing; element names of an expanded record or a reordered one (live order). */
  readonly values?: readonly string[];
  readonly role?: NamespaceRole;
  readonly message: string;
}

export interface NamespaceFinding {
  /** The environment's setting. */
  readonly environment: string;
  /** The URI the live contract uses for this role; absent when no element of the role was seen. */
  readonly live?: string;
  readonly differs: boolean;
  /** Catalog records whose elements showed the live URI (at most a few, for the report). */
  readonly records: readonly string[];
  /** Every URI seen for the role when the live service uses more than one. */
  readonly seen?: Readonly<Record<string, readonly string[]>>;
}

export interface ServiceReport {
  readonly path: string;
  readonly service: string;
  readonly version: string;
  /** The WSDL address (`…?WSDL`). */
  readonly url: string;
  /** `read`; `not-found` (HTTP 404: the path does not exist there); `error` (could not be read). */
  readonly status: 'read' | 'not-found' | 'error';
  readonly error?: string;
  /** The WSDL's target namespace and those of its schemas. */
  readonly targetNamespaces: readonly string[];
  /** Each role's URI as this service shows it. */
  readonly roles: Readonly<Partial<Record<NamespaceRole, string>>>;
  readonly operations: readonly string[];
  readonly differences: readonly ContractDifference[];
}

export interface ContractReport {
  readonly format: typeof CONTRACT_REPORT_FORMAT;
  readonly version: typeof CONTRACT_REPORT_VERSION;
  readonly environment: string;
  readonly baseUrl: string;
  readonly checkedAt: string;
  readonly namespaces: Readonly<Record<NamespaceRole, NamespaceFinding>>;
  /** What the environment's namespace settings should be (only the roles the live service showed). */
  readonly suggestedNamespaces: Readonly<Partial<Record<NamespaceRole, string>>>;
  readonly services: readonly ServiceReport[];
  /** Environment-wide differences (namespaces) first, then every service's, most serious first. */
  readonly differences: readonly ContractDifference[];
  readonly summary: {
    readonly differences: number;
    readonly breaking: number;
    readonly changed: number;
    readonly added: number;
    /** Service paths that could not be read (exit 2). */
    readonly unreadable: number;
  };
}

/** 0 nothing differs, 1 something differs, 2 the contract could not be read. */
export function contractExitCode(report: ContractReport): 0 | 1 | 2 {
  if (report.summary.unreadable > 0) return 2;
  return report.summary.differences > 0 ? 1 : 0;
}
