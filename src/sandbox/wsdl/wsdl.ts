/**
 * WSDL 1.1 of one service path, generated from the catalog for exactly the operations at that
 * path: SOAP 1.1 and SOAP 1.2 bindings for all of them, HTTP GET and POST bindings for those that
 * offer them, addresses pointing at the host the client used.
 */
import { create } from 'xmlbuilder2';
import { soapAction, type Namespaces, type OperationDef } from '../../core';
import { escapeAttr, schemasFor } from './xsd';

const NS = {
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
  soap: 'http://schemas.xmlsoap.org/wsdl/soap/',
  soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
  http: 'http://schemas.xmlsoap.org/wsdl/http/',
  mime: 'http://schemas.xmlsoap.org/wsdl/mime/',
  s: 'http://www.w3.org/2001/XMLSchema',
};

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

type Flavour = 'Soap' | 'Soap12' | 'HttpGet' | 'HttpPost';

function messages(ops: readonly OperationDef[]): string {
  return ops
    .map((op) => {
      const out = [
        `<wsdl:message name="${op.operation}SoapIn"><wsdl:part name="parameters" element="tns:${op.operation}" /></wsdl:message>`,
        `<wsdl:message name="${op.operation}SoapOut"><wsdl:part name="parameters" element="tns:${op.operation}Response" /></wsdl:message>`,
      ];
      for (const [binding, flavour] of [
        ['get', 'HttpGet'],
        ['post', 'HttpPost'],
      ] as const) {
        if (!op.bindings.includes(binding)) continue;
        // Every HTTP parameter travels as text (docs/wire.md#transport-rule-7).
        const parts = op.parameters.map((p) => `<wsdl:part name="${p.name}" type="s:string" />`).join('');
        out.push(`<wsdl:message name="${op.operation}${flavour}In">${parts}</wsdl:message>`);
        out.push(`<wsdl:message name="${op.operation}${flavour}Out"><wsdl:part name="Body" element="tns:${op.httpReplyRoot}" /></wsdl:message>`);
      }
      return out.join('');
    })
    .join('');
}

function portType(service: string, flavour: Flavour, ops: readonly OperationDef[]): string {
  const messageFlavour = flavour === 'Soap12' ? 'Soap' : flavour;
  const operations = ops
    .map(
      (op) =>
        `<wsdl:operation name="${op.operation}"><wsdl:documentation>${escapeText(op.description)}</wsdl:documentation><wsdl:input message="tns:${op.operation}${messageFlavour}In" /><wsdl:output message="tns:${op.operation}${messageFlavour}Out" /></wsdl:operation>`,
    )
    .join('');
  return `<wsdl:portType name="${service}${flavour === 'Soap12' ? 'Soap' : flavour}">${operations}</wsdl:portType>`;
}

function binding(service: string, flavour: Flavour, ops: readonly OperationDef[], ns: Namespaces): string {
  const type = `tns:${service}${flavour === 'Soap12' ? 'Soap' : flavour}`;
  if (flavour === 'Soap' || flavour === 'Soap12') {
    const p = flavour === 'Soap' ? 'soap' : 'soap12';
    const operations = ops
      .map(
        (op) =>
          `<wsdl:operation name="${op.operation}"><${p}:operation soapAction="${escapeAttr(soapAction(ns.service, op.operation))}" style="document" /><wsdl:input><${p}:body use="literal" /></wsdl:input><wsdl:output><${p}:body use="literal" /></wsdl:output></wsdl:operation>`,
      )
      .join('');
    return `<wsdl:binding name="${service}${flavour}" type="${type}"><${p}:binding transport="http://schemas.xmlsoap.org/soap/http" />${operations}</wsdl:binding>`;
  }
  const verb = flavour === 'HttpGet' ? 'GET' : 'POST';
  const input = flavour === 'HttpGet' ? '<http:urlEncoded />' : '<mime:content type="application/x-www-form-urlencoded" />';
  const operations = ops
    .map(
      (op) =>
        `<wsdl:operation name="${op.operation}"><http:operation location="/${op.operation}" /><wsdl:input>${input}</wsdl:input><wsdl:output><mime:mimeXml part="Body" /></wsdl:output></wsdl:operation>`,
    )
    .join('');
  return `<wsdl:binding name="${service}${flavour}" type="${type}"><http:binding verb="${verb}" />${operations}</wsdl:binding>`;
}

function port(service: string, flavour: Flavour, location: string): string {
  const address = flavour === 'Soap' ? 'soap:address' : flavour === 'Soap12' ? 'soap12:address' : 'http:address';
  return `<wsdl:port name="${service}${flavour}" binding="tns:${service}${flavour}"><${address} location="${escapeAttr(location)}" /></wsdl:port>`;
}

export function buildWsdl(path: string, shapes: readonly OperationDef[], namespaces: Namespaces, baseUrl: string): string {
  const service = shapes[0].service;
  const { prefixes, schemas } = schemasFor(shapes, namespaces);
  const httpFlavours: Flavour[] = [];
  if (shapes.some((s) => s.bindings.includes('get'))) httpFlavours.push('HttpGet');
  if (shapes.some((s) => s.bindings.includes('post'))) httpFlavours.push('HttpPost');
  const opsFor = (f: Flavour) =>
    f === 'HttpGet' ? shapes.filter((s) => s.bindings.includes('get')) : f === 'HttpPost' ? shapes.filter((s) => s.bindings.includes('post')) : shapes;
  const location = `${baseUrl}${path}`;
  const decls =
    Object.entries(NS)
      .map(([p, uri]) => ` xmlns:${p}="${uri}"`)
      .join('') + [...prefixes].map(([uri, p]) => ` xmlns:${p}="${escapeAttr(uri)}"`).join('');
  const flavours: Flavour[] = ['Soap', 'Soap12', ...httpFlavours];
  const xml =
    `<?xml version="1.0" encoding="utf-8"?><wsdl:definitions${decls} targetNamespace="${escapeAttr(namespaces.service)}">` +
    `<wsdl:types>${schemas.join('')}</wsdl:types>` +
    messages(shapes) +
    (['Soap', ...httpFlavours] as Flavour[]).map((f) => portType(service, f, opsFor(f))).join('') +
    flavours.map((f) => binding(service, f, opsFor(f), namespaces)).join('') +
    `<wsdl:service name="${service}">${flavours.map((f) => port(service, f, location)).join('')}</wsdl:service>` +
    '</wsdl:definitions>';
  // Pretty-printed: people open the WSDL in the editor.
  return create(xml).end({ prettyPrint: true, headless: false });
}

const cache = new Map<string, string>();

/** The WSDL for a path, cached per namespaces and address (it never changes while the sandbox runs). */
export function wsdlFor(path: string, shapes: readonly OperationDef[], namespaces: Namespaces, baseUrl: string): string {
  const key = JSON.stringify([path, namespaces, baseUrl]);
  let wsdl = cache.get(key);
  if (!wsdl) {
    if (cache.size > 200) cache.clear();
    cache.set(key, (wsdl = buildWsdl(path, shapes, namespaces, baseUrl)));
  }
  return wsdl;
}
