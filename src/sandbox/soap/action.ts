/**
 * Which operation a SOAP request asks for: core recognition decides (action, body element,
 * namespace); the sandbox refuses, as the service does, whatever recognition finds wrong.
 */
import type { Namespaces } from '../../core/catalog';
import type { OperationDef } from '../../core/catalog/types';
import { selectSoapOperation } from '../../core/recognize/soapOperation';
import type { XmlElement } from '../../core/xml/dom';
import { clientFault, type SoapVersion } from './fault';

export { soapActionHeader } from '../../core/recognize/soapOperation';

export function selectOperation(shapes: readonly OperationDef[], wrapper: XmlElement, action: string | undefined, version: SoapVersion, ns: Namespaces): OperationDef {
  const { op, problem } = selectSoapOperation(shapes, wrapper, action, version, ns);
  if (problem || !op) throw clientFault(problem?.message ?? 'Server did not recognize the request.');
  return op;
}
