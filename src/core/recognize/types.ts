/**
 * What a request turned out to be, read the way the service reads it: the shape (operation and
 * version, chosen by the path, the SOAP action and the body), the binding, and the parameters
 * read along the catalog. Anything that is not a call of the catalog is `unknown`, with a reason:
 * recognition never throws for what a client can send.
 */
import type { Binding, OperationDef } from '../catalog/types';
import type { JsonObject, ReadIssue } from '../xml/read';
import type { Literals } from './literals';

export type SoapVersion = '1.1' | '1.2';

/** Headers as node:http gives them (lower-case names) or as pairs in the order sent. */
export type HeaderInput = ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface RequestInput {
  readonly method: string;
  /** The request target as sent: path and query (`/1.0.2/TerminalInformationService.asmx/GetTerminalInformation?ZipCode=…`). An absolute URL is read for its path and query. */
  readonly url: string;
  readonly headers: HeaderInput;
  /** The body decoded as text; empty for GET. */
  readonly body: string;
  /** False when only the start of the body is at hand (a capped copy): its parameters are then not read. */
  readonly bodyComplete?: boolean;
}

export interface RecognizeOptions {
  /** The environment's namespaces: SOAP actions and element namespaces are judged against them. */
  readonly namespaces: import('../catalog').Namespaces;
  /** How an element outside its namespace is read: 'absent' (the default) as .NET binds it; 'keep' to lose nothing. */
  readonly outOfNamespace?: 'absent' | 'keep';
}

/**
 * Something about a recognised request that the service would refuse or that differs from the
 * contract, though the shape is clear. The sandbox turns each into its fault; the inspector
 * shows it.
 */
export type ProblemCode =
  | 'version-mismatch' // a SOAP 1.2 envelope announced as SOAP 1.1, or the other way round
  | 'action-unknown' // the SOAP action names no operation of the path
  | 'operation-unknown' // no action, and the body holds no operation of the path
  | 'action-mismatch' // the SOAP action names another operation than the body holds
  | 'wrapper-namespace' // the operation element is outside the service namespace
  | 'truncated'; // only the start of the body was at hand: parameters not read

export interface RecognitionProblem {
  readonly code: ProblemCode;
  readonly message: string;
}

/** Why a request is not a call of the catalog. */
export type UnknownCode =
  | 'url' // the request target cannot be read
  | 'path' // no service at this path
  | 'wsdl' // a WSDL request of a service path
  | 'page' // a service page
  | 'test-form' // the service page's own test form
  | 'method' // a method the path does not take
  | 'media-type' // a Content-Type no binding uses there
  | 'not-xml' // the SOAP body is not well-formed XML
  | 'not-envelope' // the XML is not a SOAP envelope (or has no Body, or an empty one)
  | 'operation' // no such operation at this path
  | 'binding' // the operation does not offer this binding
  | 'truncated'; // the body was cut before the operation element

export interface RecognizedRequest {
  readonly kind: 'operation';
  readonly op: OperationDef;
  readonly operation: string;
  readonly version: string;
  readonly binding: Binding;
  /** The catalog's spelling of the service path. */
  readonly servicePath: string;
  /** The SOAP action the request named (SOAPAction header or the SOAP 1.2 action parameter), unquoted. */
  readonly action?: string;
  /** The parameters read along the catalog; absent when the body was not at hand whole. */
  readonly params?: JsonObject;
  /** What the reader noticed in the parameters: unknown elements, wrong namespaces, unreadable values. */
  readonly issues: readonly ReadIssue[];
  /** The client's spelling of numbers whose plain form differs (`48.00`), for a request file that sends the same bytes. */
  readonly literals?: Literals;
  readonly problems: readonly RecognitionProblem[];
  /** The namespace of the SOAP operation element when it is not the service namespace (a .NET client's http://tempuri.org/, say); its parameters are then read by `outOfNamespace`. */
  readonly wrapperNamespace?: string;
}

export interface UnknownRequest {
  readonly kind: 'unknown';
  readonly code: UnknownCode;
  readonly reason: string;
  /** The service path, when the request reached one. */
  readonly servicePath?: string;
  /** The binding the request looked like, when that much was clear. */
  readonly binding?: Binding;
  /** The operation it named, when it named one the path does not offer (over this binding). */
  readonly operation?: string;
}

export type Recognition = RecognizedRequest | UnknownRequest;
