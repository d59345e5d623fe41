/**
 * Refusals. A SandboxFault is what a real ASMX service answers with a SOAP fault (SOAP bindings)
 * or an HTTP 500 with a text reason (HTTP GET/POST bindings): the caller's mistake ('client') or
 * the service's own trouble ('server').
 */
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, xmlDocument } from '../../core';

export type FaultSide = 'client' | 'server';

/** SOAP-level codes other than the plain client/server split. */
export type FaultKind = 'VersionMismatch' | 'MustUnderstand';

export class SandboxFault extends Error {
  constructor(
    readonly side: FaultSide,
    message: string,
    readonly kind?: FaultKind,
  ) {
    super(message);
    this.name = 'SandboxFault';
  }
}

export const clientFault = (message: string): SandboxFault => new SandboxFault('client', message);

export type SoapVersion = '1.1' | '1.2';

export function envelopeNs(version: SoapVersion): string {
  return version === '1.1' ? SOAP11_ENVELOPE_NS : SOAP12_ENVELOPE_NS;
}

/** `soap:Client` / `soap:Sender` and the like, in the names of the fault's SOAP version. */
export function faultCode(version: SoapVersion, fault: SandboxFault): string {
  if (fault.kind) return `soap:${fault.kind}`;
  if (version === '1.1') return fault.side === 'client' ? 'soap:Client' : 'soap:Server';
  return fault.side === 'client' ? 'soap:Sender' : 'soap:Receiver';
}

/** The whole fault envelope, as an ASMX service writes it (soap: prefix, empty detail). */
export function faultEnvelope(version: SoapVersion, fault: SandboxFault): string {
  const ns = envelopeNs(version);
  const doc = xmlDocument();
  const body = doc.ele(ns, 'soap:Envelope').ele(ns, 'soap:Body');
  const f = body.ele(ns, 'soap:Fault');
  if (version === '1.1') {
    // SOAP 1.1 fault children are unqualified by the specification.
    f.ele('faultcode').txt(faultCode(version, fault));
    f.ele('faultstring').txt(fault.message);
    f.ele('detail');
  } else {
    f.ele(ns, 'soap:Code').ele(ns, 'soap:Value').txt(faultCode(version, fault));
    f.ele(ns, 'soap:Reason').ele(ns, 'soap:Text').att('http://www.w3.org/XML/1998/namespace', 'xml:lang', 'en').txt(fault.message);
    f.ele(ns, 'soap:Detail');
  }
  return doc.end();
}
