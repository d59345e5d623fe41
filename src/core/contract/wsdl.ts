/**
 * A WSDL 1.1 document read into what the comparison needs: its schemas (inline, plus whatever
 * `import`/`include` with a `schemaLocation` and `wsdl:import` bring in, fetched through the
 * caller's loader), and per operation the bindings that offer it and the elements its messages
 * carry. Reading never throws on content: a document that is not a WSDL is a ContractReadError
 * naming the URL and what came instead.
 */
import type { Binding } from '../catalog';
import { parseXml, XmlError, type XmlElement } from '../xml/dom';
import { NamespaceScopes, type QName } from './qnames';
import { SchemaSet, XSD_NS } from './xsd';

export const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const WSDL_SOAP11 = 'http://schemas.xmlsoap.org/wsdl/soap/';
const WSDL_SOAP12 = 'http://schemas.xmlsoap.org/wsdl/soap12/';
const WSDL_HTTP = 'http://schemas.xmlsoap.org/wsdl/http/';
const WSDL2_NS = 'http://www.w3.org/ns/wsdl';

/** Documents a WSDL may pull in through imports; more is a loop or a hostile contract. */
export const MAX_IMPORTED_DOCUMENTS = 32;

export class ContractReadError extends Error {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
    this.name = 'ContractReadError';
  }
}

export interface WsdlOperation {
  readonly name: string;
  readonly bindings: ReadonlySet<Binding>;
  /** The SOAP request wrapper (`tns:GetRateQuote`), from the SOAP port type's input message. */
  readonly soapInput?: QName;
  readonly soapOutput?: QName;
  /** The HTTP binding's bare reply root (`tns:TerminalInformationReply`). */
  readonly httpOutput?: QName;
}

export interface WsdlDocument {
  readonly url: string;
  readonly targetNamespace: string;
  readonly schemas: SchemaSet;
  readonly operations: ReadonlyMap<string, WsdlOperation>;
  /** Every document read, the WSDL first: url → text (for `--out`). */
  readonly documents: ReadonlyMap<string, string>;
}

/** Fetches an imported document's text; throws ContractReadError when it cannot. */
export type DocumentLoader = (url: string) => Promise<string>;

const attr = (el: XmlElement, name: string) => el.attrs.find((a) => a.local === name && a.ns === '')?.value;
const wsdlChildren = (el: XmlElement, local: string) => el.children.filter((c) => c.ns === WSDL_NS && c.local === local);

/** Parses XML text, turning every failure into a readable error that names the URL. */
export function parseContractXml(text: string, url: string): { root: XmlElement; scopes: NamespaceScopes } {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (/^<!doctype\s+html|^<html[\s>]/i.test(start))
    throw new ContractReadError(url, `${url} answered with an HTML page, not a WSDL (a login page, an error page or the wrong address?)`);
  if (!start.startsWith('<'))
    throw new ContractReadError(url, `${url} answered with text that is not XML: "${start.slice(0, 60).replace(/\s+/g, ' ')}${start.length > 60 ? '…' : ''}"`);
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (err) {
    if (err instanceof XmlError) throw new ContractReadError(url, `${url} is not well-formed XML: ${err.message}`);
    throw err;
  }
  if (root.local.toLowerCase() === 'html') throw new ContractReadError(url, `${url} answered with an HTML page, not a WSDL`);
  return { root, scopes: new NamespaceScopes(text, root) };
}

export async function readWsdl(text: string, url: string, load: DocumentLoader): Promise<WsdlDocument> {
  const { root, scopes } = parseContractXml(text, url);
  if (root.ns === WSDL2_NS) throw new ContractReadError(url, `${url} is a WSDL 2.0 description; the service publishes WSDL 1.1 (wsdl:definitions)`);
  if (root.ns !== WSDL_NS || root.local !== 'definitions') {
    throw new ContractReadError(
      url,
      `${url} is XML but not a WSDL: its root element is <${root.prefix ? `${root.prefix}:` : ''}${root.local}>${root.ns ? ` in ${root.ns}` : ''}, not wsdl:definitions`,
    );
  }
  const schemas = new SchemaSet();
  const documents = new Map<string, string>([[url, text]]);
  const reader = new Reader(schemas, documents, load);
  await reader.definitions(root, scopes, url);
  return { url, targetNamespace: attr(root, 'targetNamespace') ?? '', schemas, operations: reader.operations(), documents };
}

interface Message {
  readonly element?: QName;
}

class Reader {
  private readonly messages = new Map<string, Message>();
  private readonly portTypes = new Map<string, Map<string, { input?: string; output?: string }>>();
  private readonly bindings: Array<{ kind?: Binding; type?: string; operations: string[] }> = [];

  constructor(
    private readonly schemas: SchemaSet,
    private readonly documents: Map<string, string>,
    private readonly load: DocumentLoader,
  ) {}

  async definitions(root: XmlElement, scopes: NamespaceScopes, url: string): Promise<void> {
    const tns = attr(root, 'targetNamespace') ?? '';
    const key = (name: string) => `{${tns}}${name}`;
    for (const imp of wsdlChildren(root, 'import')) {
      const location = attr(imp, 'location');
      if (location) {
        const doc = await this.fetch(location, url);
        if (doc) {
          const parsed = parseContractXml(doc.text, doc.url);
          if (parsed.root.ns === WSDL_NS && parsed.root.local === 'definitions') await this.definitions(parsed.root, parsed.scopes, doc.url);
          else if (parsed.root.ns === XSD_NS && parsed.root.local === 'schema') await this.schema(parsed.root, parsed.scopes, doc.url);
        }
      }
    }
    for (const types of wsdlChildren(root, 'types')) {
      for (const schema of types.children.filter((c) => c.ns === XSD_NS && c.local === 'schema')) await this.schema(schema, scopes, url);
    }
    for (const message of wsdlChildren(root, 'message')) {
      const part = wsdlChildren(message, 'part')[0];
      const element = part && attr(part, 'element');
      this.messages.set(key(attr(message, 'name') ?? ''), element !== undefined ? { element: scopes.resolve(part!, element) } : {});
    }
    for (const portType of wsdlChildren(root, 'portType')) {
      const ops = new Map<string, { input?: string; output?: string }>();
      for (const op of wsdlChildren(portType, 'operation')) {
        const input = wsdlChildren(op, 'input')[0];
        const output = wsdlChildren(op, 'output')[0];
        const q = (el: XmlElement | undefined) => {
          const m = el && attr(el, 'message');
          const r = m !== undefined ? scopes.resolve(el!, m) : undefined;
          return r && `{${r.ns}}${r.local}`;
        };
        ops.set(attr(op, 'name') ?? '', { input: q(input), output: q(output) });
      }
      this.portTypes.set(key(attr(portType, 'name') ?? ''), ops);
    }
    for (const binding of wsdlChildren(root, 'binding')) {
      const typeAttr = attr(binding, 'type');
      const type = typeAttr !== undefined ? scopes.resolve(binding, typeAttr) : undefined;
      let kind: Binding | undefined;
      for (const c of binding.children) {
        if (c.local !== 'binding') continue;
        if (c.ns === WSDL_SOAP11) kind = 'soap11';
        else if (c.ns === WSDL_SOAP12) kind = 'soap12';
        else if (c.ns === WSDL_HTTP)
          kind = (attr(c, 'verb') ?? '').toUpperCase() === 'GET' ? 'get' : (attr(c, 'verb') ?? '').toUpperCase() === 'POST' ? 'post' : undefined;
      }
      this.bindings.push({ kind, type: type && `{${type.ns}}${type.local}`, operations: wsdlChildren(binding, 'operation').map((o) => attr(o, 'name') ?? '') });
    }
  }

  private async schema(schema: XmlElement, scopes: NamespaceScopes, url: string, inheritedTarget?: string): Promise<void> {
    this.schemas.add(schema, scopes, inheritedTarget);
    const target = schema.attrs.find((a) => a.local === 'targetNamespace' && a.ns === '')?.value ?? inheritedTarget;
    for (const c of schema.children) {
      if (c.ns !== XSD_NS || (c.local !== 'import' && c.local !== 'include' && c.local !== 'redefine')) continue;
      const location = attr(c, 'schemaLocation');
      // An import without a location names a schema of the same WSDL (ASMX writes them so).
      if (!location) continue;
      const doc = await this.fetch(location, url);
      if (!doc) continue;
      const parsed = parseContractXml(doc.text, doc.url);
      if (parsed.root.ns !== XSD_NS || parsed.root.local !== 'schema')
        throw new ContractReadError(doc.url, `${doc.url}, imported by ${url}, is not an XML Schema`);
      await this.schema(parsed.root, parsed.scopes, doc.url, c.local === 'import' ? undefined : target);
    }
  }

  private async fetch(location: string, base: string): Promise<{ url: string; text: string } | undefined> {
    let url: string;
    try {
      url = new URL(location, base).toString();
    } catch {
      throw new ContractReadError(base, `${base} imports "${location}", which is not a URL`);
    }
    if (this.documents.has(url)) return undefined;
    if (this.documents.size >= MAX_IMPORTED_DOCUMENTS)
      throw new ContractReadError(base, `${base} imports more than ${MAX_IMPORTED_DOCUMENTS} documents; reading stopped`);
    this.documents.set(url, '');
    const text = await this.load(url);
    this.documents.set(url, text);
    return { url, text };
  }

  operations(): Map<string, WsdlOperation> {
    const out = new Map<string, { name: string; bindings: Set<Binding>; soapInput?: QName; soapOutput?: QName; httpOutput?: QName }>();
    const entry = (name: string) => {
      let e = out.get(name);
      if (!e) out.set(name, (e = { name, bindings: new Set() }));
      return e;
    };
    const element = (messageKey: string | undefined) => (messageKey ? this.messages.get(messageKey)?.element : undefined);
    for (const b of this.bindings) {
      const portType = b.type ? this.portTypes.get(b.type) : undefined;
      for (const name of b.operations) {
        const e = entry(name);
        if (b.kind) e.bindings.add(b.kind);
        const op = portType?.get(name);
        if (!op) continue;
        if (b.kind === 'soap11' || b.kind === 'soap12') {
          e.soapInput ??= element(op.input);
          e.soapOutput ??= element(op.output);
        } else if (b.kind === 'get' || b.kind === 'post') {
          e.httpOutput ??= element(op.output);
        }
      }
    }
    // An operation in a port type that no binding offers is still declared (with no binding).
    for (const ops of this.portTypes.values()) for (const name of ops.keys()) entry(name);
    return out;
  }
}
