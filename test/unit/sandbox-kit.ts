/**
 * Test kit for the sandbox: a running sandbox per test group, plain HTTP helpers, and request
 * envelopes written by hand in the styles real clients send (docs/carrier-facts.md#envelope-styles),
 * independent of the workbench's own envelope builder and of the core XML writer.
 */
import { PDFDocument } from 'pdf-lib';
import { DEFAULT_NAMESPACES, type Namespaces } from '../../src/core/catalog';
import { parseXml, type XmlElement } from '../../src/core/xml/dom';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/server';

export const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
export const KEY = 'Tk3vQ9zLm2Rx8WbY4Hs7Jd1Fp6Gc0Na5Ue2Ko9Vi3Xt8Ml4Qb'; // 50 mixed-case letters and digits, like real keys

export const NS_DISTINCT: Namespaces = DEFAULT_NAMESPACES;
/** The reference carrier's arrangement for most services: every role in one URI ending in '/' (docs/carrier-facts.md#namespaces). */
export const NS_SAME: Namespaces = { service: 'http://ltl.carrier.test/', data: 'http://ltl.carrier.test/', pickup: 'http://ltl.carrier.test/' };

/** A fixed, adjustable clock: Wednesday 18 November 2026, 15:00 UTC (Thanksgiving is 26 November). */
export class Clock {
  current = new Date(Date.UTC(2026, 10, 18, 15, 0, 0));
  readonly now = (): Date => new Date(this.current.getTime());
  advanceHours(h: number): void {
    this.current = new Date(this.current.getTime() + h * 3_600_000);
  }
}

export async function withSandbox<T>(options: SandboxOptions, fn: (sb: SandboxHandle) => Promise<T>): Promise<T> {
  const sb = await startSandbox(options);
  try {
    return await fn(sb);
  } finally {
    await sb.close();
  }
}

export interface HttpResult {
  readonly status: number;
  readonly contentType: string;
  readonly headers: Headers;
  readonly text: string;
}

export async function http(url: string, init: RequestInit = {}): Promise<HttpResult> {
  const r = await fetch(url, init);
  return { status: r.status, contentType: r.headers.get('content-type') ?? '', headers: r.headers, text: await r.text() };
}

// ---------------------------------------------------------------------------------------------
// Requests as small trees. `d:` before a name marks an element in {data_namespace}, `p:` one in
// {pickup_namespace}; everything else is in {service_namespace}. Attributes go in `attrs`.

export interface Node {
  readonly name: string;
  readonly children?: readonly Node[];
  readonly text?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

export const el = (name: string, content?: string | readonly Node[], attrs?: Record<string, string>): Node =>
  typeof content === 'string' || content === undefined
    ? { name, text: content ?? '', ...(attrs ? { attrs } : {}) }
    : { name, children: content, ...(attrs ? { attrs } : {}) };

/** The ways real clients put namespaces on a request (docs/carrier-facts.md#envelope-styles). */
export type Style =
  | 'default-xmlns' // xmlns on the wrapper, children unprefixed, data-ns subtrees with their own xmlns
  | 'prefix-every' // carrier-initials prefix declared on the envelope, on every element
  | 'tns' // the generic tns: prefix on every element
  | 'unused-prefix' // envelope declares a prefix it never uses; wrapper has a default xmlns
  | 'per-leaf-xmlns' // every data-ns leaf declares its own default xmlns (the transit client)
  | 'empty-header'; // default xmlns plus an empty soapenv:Header

export const STYLES: readonly Style[] = ['default-xmlns', 'prefix-every', 'tns', 'unused-prefix', 'per-leaf-xmlns', 'empty-header'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function role(name: string): ['service' | 'data' | 'pickup', string] {
  if (name.startsWith('d:')) return ['data', name.slice(2)];
  if (name.startsWith('p:')) return ['pickup', name.slice(2)];
  return ['service', name];
}

function render(node: Node, ns: Namespaces, style: Style, inherited: string, prefixes: Record<string, string> | undefined): string {
  const [r, local] = role(node.name);
  const uri = ns[r];
  let tag = local;
  let decl = '';
  if (prefixes) {
    tag = `${prefixes[r]}:${local}`;
  } else if (uri !== inherited) {
    decl = ` xmlns="${uri}"`;
  } else if (style === 'per-leaf-xmlns' && r === 'data' && !node.children) {
    decl = ` xmlns='${uri}'`;
  }
  const attrs = Object.entries(node.attrs ?? {})
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('');
  const inner = node.children ? node.children.map((c) => render(c, ns, style, prefixes ? inherited : uri, prefixes)).join('') : esc(node.text ?? '');
  return inner === '' && !node.children ? `<${tag}${decl}${attrs}/>` : `<${tag}${decl}${attrs}>${inner}</${tag}>`;
}

/** A complete SOAP envelope around `wrapper`, in one of the real-world styles. */
export function envelope(version: '1.1' | '1.2', wrapper: Node, ns: Namespaces, style: Style): string {
  const envNs = version === '1.1' ? SOAP11 : SOAP12;
  const env = style === 'empty-header' ? 'soapenv' : 'soap';
  const xsi = ` xmlns:xsi="${XSI}"`;
  if (style === 'prefix-every' || style === 'tns') {
    const p = style === 'tns' ? { service: 'tns', data: 'tnsd', pickup: 'tnsp' } : { service: 'ccl', data: 'ccld', pickup: 'cclp' };
    const decls = [...new Set((['service', 'data', 'pickup'] as const).map((r) => ` xmlns:${p[r]}="${ns[r]}"`))].join('');
    return `<?xml version="1.0" encoding="utf-8"?><${env}:Envelope xmlns:${env}="${envNs}"${xsi}${decls}><${env}:Body>${render(wrapper, ns, style, '', p)}</${env}:Body></${env}:Envelope>`;
  }
  const unused = style === 'unused-prefix' ? ` xmlns:ccl="${ns.service}"` : '';
  const header = style === 'empty-header' ? `<${env}:Header/>` : '';
  return `<?xml version="1.0" encoding="utf-8"?>\n<${env}:Envelope xmlns:${env}="${envNs}"${xsi}${unused}>${header}<${env}:Body>${render(wrapper, ns, style, '', undefined)}</${env}:Body></${env}:Envelope>`;
}

export type ActionStyle = 'quoted' | 'unquoted' | 'missing';

export function soapHeaders(version: '1.1' | '1.2', action: string, actionStyle: ActionStyle, contentType?: string): Record<string, string> {
  if (version === '1.1') {
    const h: Record<string, string> = { 'Content-Type': contentType ?? 'text/xml; charset=utf-8' };
    if (actionStyle === 'quoted') h.SOAPAction = `"${action}"`;
    if (actionStyle === 'unquoted') h.SOAPAction = action;
    return h;
  }
  const base = contentType ?? 'application/soap+xml; charset=utf-8';
  // A real SOAP 1.2 client quotes the action parameter with single quotes (docs/carrier-facts.md#endpoints-and-transport).
  return { 'Content-Type': actionStyle === 'missing' ? base : `${base}; action=${actionStyle === 'quoted' ? `'${action}'` : action}` };
}

export function actionOf(ns: Namespaces, operation: string): string {
  return ns.service.endsWith('/') ? `${ns.service}${operation}` : `${ns.service}/${operation}`;
}

// ---------------------------------------------------------------------------------------------
// Reading replies by local names (namespaces checked where a test cares).

export function xml(text: string): XmlElement {
  return parseXml(text);
}

export function child(el: XmlElement | undefined, local: string): XmlElement | undefined {
  return el?.children.find((c) => c.local === local);
}

export function children(el: XmlElement | undefined, local: string): XmlElement[] {
  return el?.children.filter((c) => c.local === local) ?? [];
}

/** Follows a path of local names from `el`; undefined when a step is missing. */
export function at(el: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
  let cur = el;
  for (const p of path) cur = child(cur, p);
  return cur;
}

/** Text at a path, '' when missing. */
export function textAt(el: XmlElement | undefined, ...path: string[]): string {
  return at(el, ...path)?.text ?? '';
}

/** The `<Operation>Result` element of a SOAP reply (checks envelope, Body and Response). */
export function soapResult(text: string, operation: string, version: '1.1' | '1.2' = '1.1'): XmlElement {
  const root = xml(text);
  const envNs = version === '1.1' ? SOAP11 : SOAP12;
  if (root.local !== 'Envelope' || root.ns !== envNs || root.prefix !== 'soap')
    throw new Error(`not a soap:Envelope of SOAP ${version}: ${text.slice(0, 200)}`);
  const body = child(root, 'Body');
  const response = child(body, `${operation}Response`);
  const result = child(response, `${operation}Result`);
  if (!result) throw new Error(`no ${operation}Response/${operation}Result in ${text.slice(0, 400)}`);
  return result;
}

export interface Fault {
  readonly code: string;
  readonly reason: string;
}

export function soapFault(text: string, version: '1.1' | '1.2' = '1.1'): Fault {
  const root = xml(text);
  const fault = at(root, 'Body', 'Fault');
  if (!fault) throw new Error(`no Fault in ${text.slice(0, 300)}`);
  return version === '1.1'
    ? { code: textAt(fault, 'faultcode'), reason: textAt(fault, 'faultstring') }
    : { code: textAt(fault, 'Code', 'Value'), reason: textAt(fault, 'Reason', 'Text') };
}

/** A PDF in base64 is real when it starts with %PDF- and pdf-lib can load it. */
export async function pdfPages(b64: string): Promise<number> {
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error(`not a PDF: starts with ${JSON.stringify(bytes.subarray(0, 8).toString('latin1'))}`);
  const doc = await PDFDocument.load(bytes);
  return doc.getPageCount();
}

/** The title a PDF carries (the sandbox's PDFs name their bill of lading or PRO there). */
export async function pdfTitle(b64: string): Promise<string> {
  return (await PDFDocument.load(Buffer.from(b64, 'base64'))).getTitle() ?? '';
}

/** MM/DD/YYYY of a UTC day. */
export function usDate(d: Date): string {
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

/** One SOAP call in the plainest style (SOAP 1.1, default xmlns, quoted SOAPAction); returns `<Operation>Result`. */
export async function call(base: string, path: string, wrapper: Node, ns: Namespaces = NS_DISTINCT, version: '1.1' | '1.2' = '1.1'): Promise<XmlElement> {
  const r = await http(base + path, {
    method: 'POST',
    body: envelope(version, wrapper, ns, 'default-xmlns'),
    headers: soapHeaders(version, actionOf(ns, wrapper.name), 'quoted'),
  });
  if (r.status !== 200) throw new Error(`${wrapper.name}: HTTP ${r.status}: ${r.text.slice(0, 500)}`);
  return soapResult(r.text, wrapper.name, version);
}

/** The fault of a SOAP call that must fail. */
export async function callFault(base: string, path: string, wrapper: Node, ns: Namespaces = NS_DISTINCT): Promise<Fault> {
  const r = await http(base + path, {
    method: 'POST',
    body: envelope('1.1', wrapper, ns, 'default-xmlns'),
    headers: soapHeaders('1.1', actionOf(ns, wrapper.name), 'quoted'),
  });
  if (r.status !== 500) throw new Error(`${wrapper.name}: expected a fault, got HTTP ${r.status}: ${r.text.slice(0, 300)}`);
  return soapFault(r.text);
}

/** Messages/string of a BaseReply. */
export const messagesOf = (result: XmlElement): string[] => children(child(result, 'Messages'), 'string').map((s) => s.text);

/** Replaces (or removes, with undefined) the child named `name` of a request node. */
export function withChild(node: Node, name: string, replacement: Node | undefined): Node {
  const kids = node.children ?? [];
  const has = kids.some((c) => c.name === name);
  const next = has ? kids.flatMap((c) => (c.name === name ? (replacement ? [replacement] : []) : [c])) : replacement ? [...kids, replacement] : kids;
  return { ...node, children: next };
}
