/**
 * SOAP faults → SoapFault. SOAP 1.1 fault children (faultcode, faultstring, faultactor, detail)
 * are unqualified by the spec, but some servers qualify them; both are read. SOAP 1.2 faults are
 * Code/Value with nested Subcode/Value, Reason/Text (one per language), Node, Role and Detail.
 */
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS } from '../catalog';
import type { SoapFault } from '../exchange';
import type { XmlElement } from '../xml/dom';
import { readGeneric } from '../xml/read';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

function child(el: XmlElement | undefined, local: string, ns?: string): XmlElement | undefined {
  return el?.children.find((c) => c.local === local && (ns === undefined || c.ns === ns));
}

function textOf(el: XmlElement | undefined): string | undefined {
  return el === undefined ? undefined : el.text.trim();
}

/** Detail content, kept whole: an object of its children, or its text. */
function detailOf(el: XmlElement | undefined): unknown {
  if (!el) return undefined;
  if (!el.children.length && !el.text.trim()) return undefined;
  return readGeneric(el);
}

export function isFault(el: XmlElement): boolean {
  return el.local === 'Fault' && (el.ns === SOAP11_ENVELOPE_NS || el.ns === SOAP12_ENVELOPE_NS);
}

export function decodeFault(fault: XmlElement): SoapFault {
  if (fault.ns === SOAP12_ENVELOPE_NS) return decode12(fault);
  return {
    soapVersion: '1.1',
    code: textOf(child(fault, 'faultcode')) ?? '',
    subcodes: [],
    reason: textOf(child(fault, 'faultstring')) ?? '',
    actor: textOf(child(fault, 'faultactor')) || undefined,
    detail: detailOf(child(fault, 'detail')),
  };
}

function decode12(fault: XmlElement): SoapFault {
  const ns = SOAP12_ENVELOPE_NS;
  const code = child(fault, 'Code', ns);
  const subcodes: string[] = [];
  for (let sub = child(code, 'Subcode', ns); sub; sub = child(sub, 'Subcode', ns)) {
    const v = textOf(child(sub, 'Value', ns));
    if (v) subcodes.push(v);
  }
  const texts = child(fault, 'Reason', ns)?.children.filter((c) => c.local === 'Text' && c.ns === ns) ?? [];
  // Prefer English when the server gives the reason in several languages.
  const english = texts.find((t) => /^en\b/i.test(t.attrs.find((a) => a.ns === XML_NS && a.local === 'lang')?.value ?? ''));
  return {
    soapVersion: '1.2',
    code: textOf(child(code, 'Value', ns)) ?? '',
    subcodes,
    reason: textOf(english ?? texts[0]) ?? '',
    actor: textOf(child(fault, 'Node', ns)) || undefined,
    role: textOf(child(fault, 'Role', ns)) || undefined,
    detail: detailOf(child(fault, 'Detail', ns)),
  };
}

/** `soap:Client: Server was unable to read request.` — with 1.2 subcodes after the code. */
export function describeFault(f: SoapFault): string {
  const code = [f.code, ...f.subcodes].filter(Boolean).join(' / ') || '(no code)';
  return `SOAP ${f.soapVersion} fault ${code}: ${f.reason || '(no reason given)'}`;
}
