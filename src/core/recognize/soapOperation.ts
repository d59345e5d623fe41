/**
 * Which operation a SOAP request asks for. Clients send the SOAP 1.1 action quoted, unquoted or
 * not at all, and the SOAP 1.2 action as a Content-Type parameter or not at all
 * (docs/carrier-facts.md#envelope-styles).
 * A present action must name an operation of the path and agree with the body; a missing one
 * lets the body element decide. Where the request is wrong but its operation is still plain
 * (the body names it), that operation is given along with the problem.
 */
import { soapAction, type Namespaces } from '../catalog';
import type { OperationDef } from '../catalog/types';
import type { XmlElement } from '../xml/dom';
import type { RecognitionProblem, SoapVersion } from './types';

/** The SOAPAction header value without its quotes; undefined when absent or empty. */
export function soapActionHeader(header: string | readonly string[] | undefined): string | undefined {
  const raw = (typeof header === 'string' ? header : header?.[0])?.trim();
  if (!raw) return undefined;
  const unquoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).trim() : raw;
  return unquoted || undefined;
}

/** The action of a SOAP request: the SOAPAction header in 1.1, the Content-Type's action parameter in 1.2. */
export function soapActionOf(
  version: SoapVersion,
  soapActionHeaderValue: string | readonly string[] | undefined,
  contentTypeAction: string | undefined,
): string | undefined {
  return version === '1.1' ? soapActionHeader(soapActionHeaderValue) : contentTypeAction?.trim() || undefined;
}

function describe(el: XmlElement): string {
  return `<${el.local}> ${el.ns ? `in namespace ${el.ns}` : 'in no namespace'}`;
}

export interface SoapOperation {
  /** The operation the request asks for, when it is plain; present with some problems too. */
  readonly op?: OperationDef;
  /** What a strict service refuses. */
  readonly problem?: RecognitionProblem;
}

export function selectSoapOperation(
  shapes: readonly OperationDef[],
  wrapper: XmlElement,
  action: string | undefined,
  version: SoapVersion,
  ns: Namespaces,
): SoapOperation {
  const where = version === '1.1' ? 'HTTP Header SOAPAction' : 'the action parameter of the Content-Type header';
  const byBody = shapes.find((s) => s.operation === wrapper.local);
  if (action !== undefined) {
    const op = shapes.find((s) => soapAction(ns.service, s.operation) === action);
    if (!op) {
      // An action in another namespace spelling still names its operation by its last segment.
      const named = byBody ?? shapes.find((s) => action.endsWith(`/${s.operation}`) || action === s.operation);
      return { ...(named ? { op: named } : {}), problem: { code: 'action-unknown', message: `Server did not recognize the value of ${where}: ${action}.` } };
    }
    if (wrapper.local !== op.operation || wrapper.ns !== ns.service) {
      return {
        op: byBody ?? op,
        problem: {
          code: 'action-mismatch',
          message: `The action ${action} names ${op.operation}, but the SOAP Body holds ${describe(wrapper)}; expected <${op.operation}> in namespace ${ns.service}.`,
        },
      };
    }
    return { op };
  }
  if (!byBody) {
    return {
      problem: {
        code: 'operation-unknown',
        message: `Server did not recognize the request element ${describe(wrapper)}. This service offers ${shapes.map((s) => s.operation).join(', ')}.`,
      },
    };
  }
  if (wrapper.ns !== ns.service) {
    return {
      op: byBody,
      problem: {
        code: 'wrapper-namespace',
        message: `The operation element ${describe(wrapper)} is not in the service namespace ${ns.service}, so the service does not recognize it.`,
      },
    };
  }
  return { op: byBody };
}
