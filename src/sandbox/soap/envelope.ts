/**
 * The SOAP envelope around operation wrappers: finding the wrapper in a request, and writing
 * reply envelopes the way the reference carrier does (soap: prefix on Envelope and Body, the
 * `<Operation>Response` wrapper with a default xmlns).
 */
import { attr, soapParts, xmlDocument, XMLNS_NS, XSI_NS, type XmlElement, type XmlNode } from '../../core';
import { envelopeNs, SandboxFault, type SoapVersion } from './fault';

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

function mustUnderstand(el: XmlElement, version: SoapVersion): boolean {
  const v = attr(el, envelopeNs(version), 'mustUnderstand');
  return v === '1' || v === 'true';
}

/** The operation wrapper: the first element inside Body. Faults for anything that is not an envelope of `version`. */
export function bodyWrapper(root: XmlElement, version: SoapVersion): XmlElement {
  const parts = soapParts(root, version);
  if (parts.problem?.code === 'version-mismatch') throw new SandboxFault('client', parts.problem.message, 'VersionMismatch');
  if (parts.problem?.code === 'not-envelope') throw new SandboxFault('client', parts.problem.message);
  // No header block is understood here, so one that must be understood cannot be processed.
  const blocking = parts.header?.children.find((c) => mustUnderstand(c, version));
  if (blocking) throw new SandboxFault('client', `SOAP header ${blocking.local} was not understood.`, 'MustUnderstand');
  if (parts.problem || !parts.wrapper)
    throw new SandboxFault('client', parts.problem?.message ?? 'The SOAP Body is empty: it must hold the operation element.');
  return parts.wrapper;
}

/** A reply envelope; `fill` writes the Body's content. */
export function replyEnvelope(version: SoapVersion, fill: (body: XmlNode) => void): string {
  const ns = envelopeNs(version);
  const doc = xmlDocument();
  const env = doc.ele(ns, 'soap:Envelope').att(XMLNS_NS, 'xmlns:xsi', XSI_NS).att(XMLNS_NS, 'xmlns:xsd', XSD_NS);
  fill(env.ele(ns, 'soap:Body'));
  return doc.end();
}

/** A bare reply root (HTTP GET/POST bindings), in the service namespace. */
export function bareReply(serviceNs: string, rootName: string, fill: (root: XmlNode) => void): string {
  const doc = xmlDocument();
  const root = doc.ele(serviceNs, rootName).att(XMLNS_NS, 'xmlns:xsi', XSI_NS).att(XMLNS_NS, 'xmlns:xsd', XSD_NS);
  fill(root);
  return doc.end();
}
