/**
 * The parts of a SOAP request envelope: its Header and the operation wrapper (the first element
 * inside Body). Never throws: what is wrong is a problem with the message a .NET service gives,
 * and where the envelope is of the other SOAP version than announced, its parts are still found
 * (so a lenient reader can go on; a strict one refuses on the problem).
 */
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS } from '../catalog';
import type { XmlElement } from '../xml/dom';
import type { SoapVersion } from './types';

export function envelopeNs(version: SoapVersion): string {
  return version === '1.1' ? SOAP11_ENVELOPE_NS : SOAP12_ENVELOPE_NS;
}

export type EnvelopeProblemCode = 'version-mismatch' | 'not-envelope' | 'no-body' | 'empty-body';

export interface SoapParts {
  /** The version of the envelope itself, when it is one. */
  readonly envelopeVersion?: SoapVersion;
  readonly header?: XmlElement;
  readonly body?: XmlElement;
  readonly wrapper?: XmlElement;
  /** The first thing wrong, in the order a service checks. */
  readonly problem?: { readonly code: EnvelopeProblemCode; readonly message: string };
}

export function soapParts(root: XmlElement, version: SoapVersion): SoapParts {
  const announced = envelopeNs(version);
  const isEnvelope = root.local === 'Envelope' && (root.ns === SOAP11_ENVELOPE_NS || root.ns === SOAP12_ENVELOPE_NS);
  if (!isEnvelope) {
    const name = `${root.prefix ? `${root.prefix}:` : ''}${root.local}`;
    return {
      problem: {
        code: 'not-envelope',
        message: `The request is not a SOAP ${version} envelope: its root element is <${name}>${root.ns ? ` in namespace ${root.ns}` : ' in no namespace'}; expected Envelope in ${announced}.`,
      },
    };
  }
  const envelopeVersion: SoapVersion = root.ns === SOAP11_ENVELOPE_NS ? '1.1' : '1.2';
  const ns = root.ns;
  const header = root.children.find((c) => c.ns === ns && c.local === 'Header');
  const body = root.children.find((c) => c.ns === ns && c.local === 'Body');
  const wrapper = body?.children[0];
  const found = { envelopeVersion, ...(header ? { header } : {}), ...(body ? { body } : {}), ...(wrapper ? { wrapper } : {}) };
  if (envelopeVersion !== version) {
    const other = envelopeVersion;
    return {
      ...found,
      problem: {
        code: 'version-mismatch',
        message: `The envelope is SOAP ${other} but the Content-Type announces SOAP ${version}; send ${other === '1.1' ? 'text/xml' : 'application/soap+xml'} for a SOAP ${other} envelope.`,
      },
    };
  }
  if (!body) return { ...found, problem: { code: 'no-body', message: 'The SOAP envelope has no Body element.' } };
  if (!wrapper) return { ...found, problem: { code: 'empty-body', message: 'The SOAP Body is empty: it must hold the operation element.' } };
  return found;
}
