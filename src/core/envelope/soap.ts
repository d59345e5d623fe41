/**
 * SOAP 1.1 / 1.2 envelopes (docs/wire.md#transport-rule-2, docs/wire.md#transport-rule-3): the
 * Body holds `<Operation>` in {service_namespace} with the parameters as children in catalog order.
 * Written with the codec along the catalog, so envelope, sandbox and reply reader agree on every
 * element.
 */
import { parametersRecord, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, XSI_NS, type Namespaces, type OperationDef } from '../catalog';
import { xmlDocument } from '../xml/builder';
import { XMLNS_NS } from '../xml/node';
import { writeRecord, type ScalarOptions } from '../xml/write';
import type { ShapeOverlay } from '../contract/overlay';
import { ContractWriter } from './contractWrite';

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

export function soapEnvelope(
  version: '1.1' | '1.2',
  op: OperationDef,
  params: Record<string, unknown>,
  namespaces: Namespaces,
  scalars: ScalarOptions = {},
  /** The environment's live contract: its additions are written where its schema puts them. */
  overlay?: ShapeOverlay,
): string {
  // The prefixes .NET's own help pages use, so captured traffic looks familiar.
  const [uri, prefix] = version === '1.1' ? [SOAP11_ENVELOPE_NS, 'soap'] : [SOAP12_ENVELOPE_NS, 'soap12'];
  const doc = xmlDocument();
  const envelope = doc.ele(uri, `${prefix}:Envelope`).att(XMLNS_NS, 'xmlns:xsi', XSI_NS).att(XMLNS_NS, 'xmlns:xsd', XSD_NS);
  const wrapper = envelope.ele(uri, `${prefix}:Body`).ele(namespaces.service, op.operation);
  if (overlay) new ContractWriter(overlay, { namespaces, ...scalars }).record(wrapper, parametersRecord(op), params, []);
  else writeRecord(wrapper, parametersRecord(op), params, [], { namespaces, ...scalars });
  return doc.end({ prettyPrint: true, indent: '  ', newline: '\n' }) + '\n';
}
