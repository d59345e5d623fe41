/**
 * Which operation a SOAP request asks for. Clients send the SOAP 1.1 action quoted, unquoted or
 * not at all, and the SOAP 1.2 action as a Content-Type parameter or not at all (facts §2, §4).
 * A present action must name an operation of the path and agree with the body; a missing one
 * lets the body element decide.
 */
import { soapAction, type Namespaces } from '../../core/catalog';
import type { OperationDef } from '../../core/catalog/types';
import type { XmlElement } from '../../core/xml/dom';
import { clientFault, type SoapVersion } from './fault';

/** The SOAPAction header value without its quotes; undefined when absent or empty. */
export function soapActionHeader(header: string | string[] | undefined): string | undefined {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!raw) return undefined;
  const unquoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).trim() : raw;
  return unquoted || undefined;
}

function describe(el: XmlElement): string {
  return `<${el.local}> ${el.ns ? `in namespace ${el.ns}` : 'in no namespace'}`;
}

export function selectOperation(shapes: readonly OperationDef[], wrapper: XmlElement, action: string | undefined, version: SoapVersion, ns: Namespaces): OperationDef {
  const where = version === '1.1' ? 'HTTP Header SOAPAction' : 'the action parameter of the Content-Type header';
  if (action !== undefined) {
    const op = shapes.find((s) => soapAction(ns.service, s.operation) === action);
    if (!op) throw clientFault(`Server did not recognize the value of ${where}: ${action}.`);
    if (wrapper.local !== op.operation || wrapper.ns !== ns.service) {
      throw clientFault(`The action ${action} names ${op.operation}, but the SOAP Body holds ${describe(wrapper)}; expected <${op.operation}> in namespace ${ns.service}.`);
    }
    return op;
  }
  const op = shapes.find((s) => s.operation === wrapper.local);
  if (!op) {
    throw clientFault(`Server did not recognize the request element ${describe(wrapper)}. This service offers ${shapes.map((s) => s.operation).join(', ')}.`);
  }
  if (wrapper.ns !== ns.service) {
    throw clientFault(`The operation element ${describe(wrapper)} is not in the service namespace ${ns.service}, so the service does not recognize it.`);
  }
  return op;
}
