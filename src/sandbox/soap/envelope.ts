/**
 * The SOAP envelope around operation wrappers: finding the wrapper in a request, and writing
 * reply envelopes the way the reference carrier does (soap: prefix on Envelope and Body, the
 * `<Operation>Response` wrapper with a default xmlns).
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, XSI_NS } from '../../core/catalog';
import { attr, type XmlElement } from '../../core/xml/dom';
import { envelopeNs, SandboxFault, type SoapVersion } from './fault';

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

function mustUnderstand(el: XmlElement, version: SoapVersion): boolean {
  const v = attr(el, envelopeNs(version), 'mustUnderstand');
  return v === '1' || v === 'true';
}

/** The operation wrapper: the first element inside Body. Faults for anything that is not an envelope of `version`. */
export function bodyWrapper(root: XmlElement, version: SoapVersion): XmlElement {
  const ns = envelopeNs(version);
  if (root.local === 'Envelope' && root.ns !== ns && (root.ns === SOAP11_ENVELOPE_NS || root.ns === SOAP12_ENVELOPE_NS)) {
    const other = root.ns === SOAP11_ENVELOPE_NS ? '1.1' : '1.2';
    throw new SandboxFault('client', `The envelope is SOAP ${other} but the Content-Type announces SOAP ${version}; send ${other === '1.1' ? 'text/xml' : 'application/soap+xml'} for a SOAP ${other} envelope.`, 'VersionMismatch');
  }
  if (root.local !== 'Envelope' || root.ns !== ns) {
    throw new SandboxFault('client', `The request is not a SOAP ${version} envelope: its root element is <${root.prefix ? `${root.prefix}:` : ''}${root.local}>${root.ns ? ` in namespace ${root.ns}` : ' in no namespace'}; expected Envelope in ${ns}.`);
  }
  const header = root.children.find((c) => c.ns === ns && c.local === 'Header');
  // No header block is understood here, so one that must be understood cannot be processed.
  const blocking = header?.children.find((c) => mustUnderstand(c, version));
  if (blocking) throw new SandboxFault('client', `SOAP header ${blocking.local} was not understood.`, 'MustUnderstand');
  const body = root.children.find((c) => c.ns === ns && c.local === 'Body');
  if (!body) throw new SandboxFault('client', 'The SOAP envelope has no Body element.');
  const wrapper = body.children[0];
  if (!wrapper) throw new SandboxFault('client', 'The SOAP Body is empty: it must hold the operation element.');
  return wrapper;
}

/** A reply envelope; `fill` writes the Body's content. */
export function replyEnvelope(version: SoapVersion, fill: (body: XMLBuilder) => void): string {
  const ns = envelopeNs(version);
  const doc = create({ version: '1.0', encoding: 'utf-8' });
  const env = doc.ele(ns, 'soap:Envelope')
    .att(XMLNS_NS, 'xmlns:xsi', XSI_NS)
    .att(XMLNS_NS, 'xmlns:xsd', XSD_NS);
  fill(env.ele(ns, 'soap:Body'));
  return doc.end({ headless: false });
}

/** A bare reply root (HTTP GET/POST bindings), in the service namespace. */
export function bareReply(serviceNs: string, rootName: string, fill: (root: XMLBuilder) => void): string {
  const doc = create({ version: '1.0', encoding: 'utf-8' });
  const root = doc.ele(serviceNs, rootName)
    .att(XMLNS_NS, 'xmlns:xsi', XSI_NS)
    .att(XMLNS_NS, 'xmlns:xsd', XSD_NS);
  fill(root);
  return doc.end({ headless: false });
}
