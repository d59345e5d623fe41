/**
 * The sample requests and replies of an operation page, as ASMX help pages show them: the HTTP
 * message with its headers, and the XML with a placeholder where each value goes (`string`,
 * `int`, `boolean`, `A or B` for enumerations, `xml` for records the document does not expand).
 * Element names, order and namespaces come from the catalog, exactly as the codec writes them.
 */
import {
  elementNs,
  getEnumeration,
  getRecord,
  listItemNs,
  parametersRecord,
  SOAP11_ENVELOPE_NS,
  SOAP12_ENVELOPE_NS,
  soapAction,
  XSI_NS,
  type Binding,
  type FieldDef,
  type NamespaceRole,
  type Namespaces,
  type OperationDef,
  type RecordDef,
} from '../../core';
import { esc } from './html';
import { httpOperationHref } from './links';

/** A run of sample text: literal, or a placeholder the reader replaces with a value. */
export type Part = { readonly text: string; readonly placeholder?: true };

interface XNode {
  readonly name: string;
  readonly uri: string;
  readonly text?: string;
  readonly children?: readonly XNode[];
}

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const xmlAttr = (s: string) => xmlText(s).replace(/"/g, '&quot;');

function placeholder(field: FieldDef): string {
  if (field.enumeration) return getEnumeration(field.enumeration).values.join(' or ');
  return field.type === 'record' ? 'xml' : field.type;
}

function recordNode(name: string, uri: string, record: RecordDef, ns: Namespaces, ancestors: ReadonlySet<string>): XNode {
  // A record the document leaves open takes any content; ASMX help pages write `xml` there.
  if (record.open) return { name, uri, text: 'xml' };
  // No record contains itself today; the guard keeps a future recursive one from looping.
  if (ancestors.has(record.name)) return { name, uri, text: 'xml' };
  const inner = new Set(ancestors).add(record.name);
  return { name, uri, children: record.fields.map((f) => fieldNode(f, record.ns, ns, inner)) };
}

function fieldNode(field: FieldDef, parentNs: NamespaceRole, ns: Namespaces, ancestors: ReadonlySet<string>): XNode {
  const uri = ns[elementNs(field, parentNs)];
  if (field.list) {
    const itemUri = ns[listItemNs(field, parentNs)];
    const item = (): XNode =>
      field.record ? recordNode(field.list!, itemUri, getRecord(field.record), ns, ancestors) : { name: field.list!, uri: itemUri, text: placeholder(field) };
    // Two items, as ASMX shows a repeating element.
    return { name: field.name, uri, children: [item(), item()] };
  }
  if (field.record) return recordNode(field.name, uri, getRecord(field.record), ns, ancestors);
  return { name: field.name, uri, text: placeholder(field) };
}

/** One element per line, two-space indent, a default xmlns wherever the namespace changes. */
function printNode(node: XNode, inherited: string, depth: number, out: Part[][]): void {
  const pad = '  '.repeat(depth);
  const decl = node.uri !== inherited ? ` xmlns="${xmlAttr(node.uri)}"` : '';
  if (node.children) {
    if (!node.children.length) {
      out.push([{ text: `${pad}<${node.name}${decl} />` }]);
      return;
    }
    out.push([{ text: `${pad}<${node.name}${decl}>` }]);
    for (const c of node.children) printNode(c, node.uri, depth + 1, out);
    out.push([{ text: `${pad}</${node.name}>` }]);
    return;
  }
  out.push([{ text: `${pad}<${node.name}${decl}>` }, { text: xmlText(node.text ?? ''), placeholder: true }, { text: `</${node.name}>` }]);
}

function recordContent(name: string, record: RecordDef, ns: Namespaces): XNode {
  return recordNode(name, ns.service, record, ns, new Set());
}

function soapEnvelopeLines(version: '1.1' | '1.2', prefix: string, content: XNode): Part[][] {
  const env = version === '1.1' ? SOAP11_ENVELOPE_NS : SOAP12_ENVELOPE_NS;
  const out: Part[][] = [
    [{ text: '<?xml version="1.0" encoding="utf-8"?>' }],
    [{ text: `<${prefix}:Envelope xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}" xmlns:${prefix}="${env}">` }],
    [{ text: `  <${prefix}:Body>` }],
  ];
  printNode(content, '', 2, out);
  out.push([{ text: `  </${prefix}:Body>` }], [{ text: `</${prefix}:Envelope>` }]);
  return out;
}

function bareLines(content: XNode): Part[][] {
  const out: Part[][] = [[{ text: '<?xml version="1.0" encoding="utf-8"?>' }]];
  printNode(content, '', 0, out);
  return out;
}

const line = (text: string): Part[] => [{ text }];
const LENGTH: Part = { text: 'length', placeholder: true };

export interface Sample {
  readonly binding: Binding;
  readonly request: Part[][];
  readonly reply: Part[][];
}

export interface SampleContext {
  readonly path: string;
  /** Host header as the browser reached the sandbox. */
  readonly host: string;
  readonly namespaces: Namespaces;
}

/** HTTP GET/POST parameters as `APIKey=string&UNNANumber=string`. */
function formParts(op: OperationDef): Part[] {
  return op.parameters.flatMap((p, i): Part[] => [{ text: `${i ? '&' : ''}${encodeURIComponent(p.name)}=` }, { text: placeholder(p), placeholder: true }]);
}

export function samplesFor(op: OperationDef, ctx: SampleContext): Sample[] {
  const ns = ctx.namespaces;
  const params = recordContent(op.operation, parametersRecord(op), ns);
  const result = getRecord(op.result);
  const response: XNode = { name: `${op.operation}Response`, uri: ns.service, children: [recordContent(`${op.operation}Result`, result, ns)] };
  const samples: Sample[] = [];
  for (const binding of op.bindings) {
    if (binding === 'soap11' || binding === 'soap12') {
      const v = binding === 'soap11' ? '1.1' : '1.2';
      const contentType = v === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8';
      const head = [line(`POST ${ctx.path} HTTP/1.1`), line(`Host: ${ctx.host}`), line(`Content-Type: ${contentType}`), [{ text: 'Content-Length: ' }, LENGTH]];
      // SOAP 1.2 carries no SOAPAction header (docs/wire.md#transport-rule-3).
      if (v === '1.1') head.push(line(`SOAPAction: "${soapAction(ns.service, op.operation)}"`));
      samples.push({
        binding,
        // The workbench writes soap12: on SOAP 1.2 requests, as .NET's own pages do; the sandbox answers with soap:.
        request: [...head, line(''), ...soapEnvelopeLines(v, v === '1.1' ? 'soap' : 'soap12', params)],
        reply: [
          line('HTTP/1.1 200 OK'),
          line(`Content-Type: ${contentType}`),
          [{ text: 'Content-Length: ' }, LENGTH],
          line(''),
          ...soapEnvelopeLines(v, 'soap', response),
        ],
      });
      continue;
    }
    if (!op.httpReplyRoot) continue;
    const url = httpOperationHref(ctx.path, op.operation);
    const request =
      binding === 'get'
        ? [[{ text: `GET ${url}?` }, ...formParts(op), { text: ' HTTP/1.1' }], line(`Host: ${ctx.host}`)]
        : [
            line(`POST ${url} HTTP/1.1`),
            line(`Host: ${ctx.host}`),
            line('Content-Type: application/x-www-form-urlencoded'),
            [{ text: 'Content-Length: ' }, LENGTH],
            line(''),
            formParts(op),
          ];
    samples.push({
      binding,
      request,
      reply: [
        line('HTTP/1.1 200 OK'),
        line('Content-Type: text/xml; charset=utf-8'),
        [{ text: 'Content-Length: ' }, LENGTH],
        line(''),
        ...bareLines(recordContent(op.httpReplyRoot, result, ns)),
      ],
    });
  }
  return samples;
}

/** The sample as HTML for a <pre>: every run escaped, placeholders marked. */
export function partsHtml(lines: readonly (readonly Part[])[]): string {
  return lines.map((parts) => parts.map((p) => (p.placeholder ? `<span class="ph">${esc(p.text)}</span>` : esc(p.text))).join('')).join('\n');
}

/** The sample as plain text (what a reader would copy). */
export function partsText(lines: readonly (readonly Part[])[]): string {
  return lines.map((parts) => parts.map((p) => p.text).join('')).join('\n');
}
