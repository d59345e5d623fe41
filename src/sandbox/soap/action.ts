/**
 * Which operation a SOAP request asks for: core recognition decides (action, body element,
 * namespace); the sandbox refuses, as the service does, whatever recognition finds wrong.
 */
import { selectSoapOperation, type Namespaces, type OperationDef, type XmlElement } from '../../core';
import { clientFault, type SoapVersion } from './fault';

export { soapActionHeader } from '../../core';

export function selectOperation(
  shapes: readonly OperationDef[],
  wrapper: XmlElement,
  action: string | undefined,
  version: SoapVersion,
  ns: Namespaces,
): OperationDef {
  const { op, problem } = selectSoapOperation(shapes, wrapper, action, version, ns);
  if (problem || !op) throw clientFault(problem?.message ?? 'Server did not recognize the request.');
  return op;
}
