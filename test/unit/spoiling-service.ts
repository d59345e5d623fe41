/**
 * A spoiling service for the contract tests: a loopback HTTP server in front of a real embedded
 * sandbox that forwards each request to it and spoils the sandbox's real reply with ONE named
 * defect before answering (status, headers and body).
 *
 * The defect is chosen by the path: `/spoil/<defect>/1.0.2/TerminalInformationService.asmx…`
 * forwards `/1.0.2/TerminalInformationService.asmx…` and spoils the reply with `<defect>` (its
 * name in kebab case: `int-not-int`); `/clean/…` forwards without spoiling. An environment whose
 * baseUrl is `urlFor('intNotInt')` therefore sends every request file to a service with that defect.
 *
 * Each defect is a pure text transform of the reply (status, Content-Type, body) that works on
 * SOAP 1.1 and SOAP 1.2 envelopes and on the bare XML of the HTTP GET/POST bindings, whatever
 * prefixes the reply uses: the reply's elements are located by a small scanner (`scanXml`), and
 * only the characters the defect is about change. A transform throws when the reply lacks what it
 * spoils; the service then answers 502 and records the error in `errors`, so a test never gets an
 * unspoilt reply by accident (tests assert `errors` is empty).
 */
import { getEnumeration } from '../../src/core/catalog';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SOAP11, SOAP12 } from './sandbox-kit';
import { startServer, type TestServer } from './transport-support';

// ---------------------------------------------------------------------------------------------
// Replies and the elements in their text.

/** A reply as the spoiling service answers it. */
export interface Reply {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export interface XmlAttr {
  readonly name: string;
  readonly value: string;
  /** Offsets of the value (inside the quotes) in the reply text. */
  readonly valueStart: number;
  readonly valueEnd: number;
}

/** One element of an XML text, by offsets into that text. */
export interface XmlSpan {
  readonly qname: string;
  readonly prefix: string;
  readonly local: string;
  /** `<` of the start tag. */
  readonly start: number;
  /** Just after the `>` of the start tag. */
  readonly openEnd: number;
  /** `<` of the end tag (openEnd for a self-closed element). */
  readonly closeStart: number;
  /** Just after the element. */
  readonly end: number;
  readonly selfClosing: boolean;
  readonly attrs: readonly XmlAttr[];
  readonly parent: XmlSpan | undefined;
  readonly children: readonly XmlSpan[];
}

export interface XmlDoc {
  readonly text: string;
  readonly root: XmlSpan;
  /** Every element in document order. */
  readonly elements: readonly XmlSpan[];
}

type MutableSpan = { -readonly [K in keyof XmlSpan]: K extends 'children' ? XmlSpan[] : XmlSpan[K] };

// Comments, CDATA, processing instructions, a doctype, an end tag, a start tag (attribute values
// quoted either way, so a `>` inside one does not end the tag), or a `<` that starts none of them.
const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE(?:[^>[]|\[[\s\S]*?\])*>|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|</g;
const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function unescapeXml(s: string): string {
  return s.replace(/&(lt|gt|quot|apos|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The elements of a well-formed XML text; throws on text that is not (a stray `<`, tags that do not match). */
export function scanXml(text: string): XmlDoc {
  const elements: MutableSpan[] = [];
  const stack: MutableSpan[] = [];
  const roots: MutableSpan[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    const [whole, endName, startName, attrText, slash] = m;
    if (whole === '<')
      throw new Error(`not well-formed XML: a "<" that starts no tag at offset ${m.index}: ${JSON.stringify(text.slice(m.index, m.index + 60))}`);
    if (endName !== undefined) {
      const open = stack.pop();
      if (!open || open.qname !== endName)
        throw new Error(`not well-formed XML: </${endName}> at offset ${m.index} closes ${open ? `<${open.qname}>` : 'nothing'}`);
      open.closeStart = m.index;
      open.end = m.index + whole.length;
      continue;
    }
    if (startName === undefined) continue; // comment, CDATA, declaration, doctype
    const colon = startName.indexOf(':');
    const attrs: XmlAttr[] = [];
    const attrOffset = m.index + 1 + startName.length;
    ATTR.lastIndex = 0;
    for (let a = ATTR.exec(attrText); a; a = ATTR.exec(attrText)) {
      const raw = a[2] ?? a[3] ?? '';
      const valueStart = attrOffset + a.index + a[0].length - raw.length - 1;
      attrs.push({ name: a[1]!, value: unescapeXml(raw), valueStart, valueEnd: valueStart + raw.length });
    }
    const parent = stack[stack.length - 1];
    const span: MutableSpan = {
      qname: startName,
      prefix: colon < 0 ? '' : startName.slice(0, colon),
      local: colon < 0 ? startName : startName.slice(colon + 1),
      start: m.index,
      openEnd: m.index + whole.length,
      closeStart: m.index + whole.length,
      end: m.index + whole.length,
      selfClosing: slash === '/',
      attrs,
      parent,
      children: [],
    };
    elements.push(span);
    if (parent) parent.children.push(span);
    else roots.push(span);
    if (!span.selfClosing) stack.push(span);
  }
  if (stack.length) throw new Error(`not well-formed XML: <${stack[stack.length - 1]!.qname}> is never closed`);
  if (roots.length !== 1) throw new Error(`not an XML document: ${roots.length} root elements`);
  return { text, root: roots[0]!, elements };
}

/** The namespace URI of an element, from the declarations in scope. */
export function namespaceOf(el: XmlSpan): string {
  const decl = el.prefix ? `xmlns:${el.prefix}` : 'xmlns';
  for (let e: XmlSpan | undefined = el; e; e = e.parent) {
    const a = e.attrs.find((x) => x.name === decl);
    if (a) return a.value;
  }
  if (el.prefix) throw new Error(`the prefix of <${el.qname}> is not declared`);
  return '';
}

/** The text inside an element that holds no elements. */
export function textOf(doc: XmlDoc, el: XmlSpan): string {
  if (el.children.length) throw new Error(`<${el.qname}> holds elements, not a value`);
  return unescapeXml(doc.text.slice(el.openEnd, el.closeStart));
}

export type ReplyShape = 'soap11' | 'soap12' | 'http';

/** SOAP 1.1 or 1.2 by the envelope's namespace; anything else is an HTTP GET/POST binding's bare reply. */
export function shapeOf(doc: XmlDoc): ReplyShape {
  if (doc.root.local !== 'Envelope') return 'http';
  const ns = namespaceOf(doc.root);
  if (ns === SOAP11) return 'soap11';
  if (ns === SOAP12) return 'soap12';
  return 'http';
}

/** `<Operation>Response` in the SOAP Body, or the bare reply's root element (HTTP GET/POST). */
export function responseElement(doc: XmlDoc): XmlSpan {
  if (shapeOf(doc) === 'http') return doc.root;
  const body = doc.root.children.find((c) => c.local === 'Body');
  const response = body?.children[0];
  if (!response || !response.local.endsWith('Response')) throw new Error(`no <…Response> in the SOAP Body: ${doc.text.slice(0, 300)}`);
  return response;
}

/** `<Operation>Result` of a SOAP reply, or the bare reply's root element (HTTP GET/POST). */
export function resultElement(doc: XmlDoc): XmlSpan {
  const response = responseElement(doc);
  if (shapeOf(doc) === 'http') return response;
  const name = `${response.local.slice(0, -'Response'.length)}Result`;
  const result = response.children.find((c) => c.local === name);
  if (!result) throw new Error(`no <${name}> in <${response.qname}>`);
  return result;
}

/** The first element named `local` (any prefix) in document order; throws when there is none. */
export function firstElement(doc: XmlDoc, local: string, within?: XmlSpan): XmlSpan {
  const found = doc.elements.find((e) => e.local === local && (!within || (e.start >= within.openEnd && e.end <= within.closeStart)));
  if (!found) throw new Error(`no <${local}> in the reply`);
  return found;
}

/** The element children of `parent` named `local`. */
export function childrenNamed(parent: XmlSpan, local: string): XmlSpan[] {
  return parent.children.filter((c) => c.local === local);
}

// ---------------------------------------------------------------------------------------------
// Edits of the reply text: located replacements, applied back to front.

interface Edit {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  if (!edits.length) throw new Error('the defect changed nothing');
  const sorted = [...edits].sort((a, b) => b.at - a.at || b.remove - a.remove);
  let out = text;
  let limit = Infinity;
  for (const e of sorted) {
    if (e.at + e.remove > limit) throw new Error('overlapping edits');
    out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove);
    limit = e.at;
  }
  return out;
}

/** Where an attribute can be added to the start tag of `el`: right after its name. */
const afterName = (el: XmlSpan) => el.start + 1 + el.qname.length;

/** The start tag of `el` as a self-closed element: `<Name attrs/>`. */
function selfClosedTag(doc: XmlDoc, el: XmlSpan): string {
  return doc.text.slice(el.start, el.openEnd).replace(/\s*\/?>$/, '/>');
}

/** Replaces the content of an element (a self-closed one gets an end tag). */
function replaceContent(doc: XmlDoc, el: XmlSpan, inner: string): Edit {
  if (el.selfClosing)
    return { at: el.start, remove: el.end - el.start, insert: `${doc.text.slice(el.start, el.openEnd).replace(/\s*\/>$/, '>')}${inner}</${el.qname}>` };
  return { at: el.openEnd, remove: el.closeStart - el.openEnd, insert: inner };
}

/** A prefix no element or declaration of the reply uses. */
function freshPrefix(doc: XmlDoc): string {
  const used = new Set(doc.elements.flatMap((e) => [e.prefix, ...e.attrs.filter((a) => a.name.startsWith('xmlns:')).map((a) => a.name.slice(6))]));
  let p = 'spoilt';
  for (let i = 1; used.has(p); i++) p = `spoilt${i}`;
  return p;
}

/**
 * Puts the element `el` itself (not its content) into namespace `uri`: unprefixed, its default
 * namespace changes and its unprefixed children are given back the namespace they had; prefixed,
 * it gets a prefix of its own bound to `uri`.
 */
function moveToNamespace(doc: XmlDoc, el: XmlSpan, uri: string): Edit[] {
  const was = namespaceOf(el);
  if (was === uri) throw new Error(`<${el.qname}> is already in ${uri}`);
  if (el.prefix) {
    const p = freshPrefix(doc);
    const edits: Edit[] = [{ at: el.start + 1, remove: el.qname.length, insert: `${p}:${el.local} xmlns:${p}="${uri}"` }];
    if (!el.selfClosing) edits.push({ at: el.closeStart + 2, remove: el.qname.length, insert: `${p}:${el.local}` });
    return edits;
  }
  const own = el.attrs.find((a) => a.name === 'xmlns');
  const edits: Edit[] = [
    own ? { at: own.valueStart, remove: own.valueEnd - own.valueStart, insert: uri } : { at: afterName(el), remove: 0, insert: ` xmlns="${uri}"` },
  ];
  for (const c of el.children) {
    if (!c.prefix && !c.attrs.some((a) => a.name === 'xmlns')) edits.push({ at: afterName(c), remove: 0, insert: ` xmlns="${was}"` });
  }
  return edits;
}

// ---------------------------------------------------------------------------------------------
// The defects.

/** Where the spoilt elements go: the namespace of a .NET service deployed without its own. */
export const FOREIGN_NAMESPACE = 'http://tempuri.org/';
/** The in-body message `wasSuccessFalseSpelt` adds (no element name in it, so a test finds the path elsewhere). */
export const SPELT_FALSE_MESSAGE = 'The rate engine could not price this lane: the tariff table is unavailable.';
/** The element `unknownElement` adds after the first TerminalCode. */
export const UNKNOWN_ELEMENT = 'TerminalRegion';

export type DefectName =
  | 'wasSuccessFalseSpelt'
  | 'wasSuccessTwice'
  | 'iisHtml500'
  | 'foreignNamespaceFields'
  | 'foreignNamespaceResponse'
  | 'foreignNamespaceResult'
  | 'soapVersionSwapped'
  | 'intNotInt'
  | 'boolNotBool'
  | 'noResult'
  | 'emptyResult'
  | 'decimalNotDecimal'
  | 'dateTimeNotDateTime'
  | 'enumerationUnknown'
  | 'base64NotBase64'
  | 'unknownElement'
  | 'outOfOrder'
  | 'emptyBody200'
  | 'plainText500';

/**
 * `error`: a typed client (zeep, .NET) cannot read past it; `warning`: an element the contract does
 * not know or out of its order; `body`: the reply is no XML answer at all (an HTML page, an empty
 * body, plain text).
 */
export type DefectKind = 'error' | 'warning' | 'body';

export interface Defect {
  readonly name: DefectName;
  readonly kind: DefectKind;
  /** What it does to the reply, in a few words. */
  readonly summary: string;
  /** The reply shapes it can spoil (it throws on the others). */
  readonly shapes: readonly ReplyShape[];
  /** The spoilt reply; throws when the reply lacks what the defect spoils. */
  spoil(reply: Reply): Reply;
}

const ALL_SHAPES: readonly ReplyShape[] = ['soap11', 'soap12', 'http'];
const SOAP_SHAPES: readonly ReplyShape[] = ['soap11', 'soap12'];

/** The service's own 200 answer, scanned: every defect spoils one of those, nothing else. */
function answerOf(reply: Reply, shapes: readonly ReplyShape[]): XmlDoc {
  if (reply.status !== 200) throw new Error(`expected the service's 200 answer to spoil, got HTTP ${reply.status}: ${reply.body.slice(0, 300)}`);
  const doc = scanXml(reply.body);
  const shape = shapeOf(doc);
  if (!shapes.includes(shape)) throw new Error(`this defect spoils ${shapes.join(', ')} replies, not ${shape}`);
  resultElement(doc);
  return doc;
}

/** A defect that edits the reply's XML, keeping status and Content-Type. */
function xmlDefect(name: DefectName, kind: DefectKind, summary: string, shapes: readonly ReplyShape[], edit: (doc: XmlDoc) => Edit[]): Defect {
  return {
    name,
    kind,
    summary,
    shapes,
    spoil(reply) {
      const doc = answerOf(reply, shapes);
      const body = applyEdits(doc.text, edit(doc));
      scanXml(body); // still well-formed: the defect is the one named, not broken XML
      return { ...reply, body };
    },
  };
}

/** The first `local` element's value, checked to be what it should be, replaced by `bad(value)`. */
function valueNotOfType(name: DefectName, summary: string, local: string, isValid: (value: string) => boolean, bad: (value: string) => string): Defect {
  return xmlDefect(name, 'error', summary, ALL_SHAPES, (doc) => {
    const el = firstElement(doc, local, resultElement(doc));
    const value = textOf(doc, el);
    if (!isValid(value)) throw new Error(`<${el.qname}> holds ${JSON.stringify(value)}, not a valid value to spoil`);
    const spoilt = bad(value);
    if (isValid(spoilt)) throw new Error(`${JSON.stringify(spoilt)} would still be valid in <${el.qname}>`);
    return [replaceContent(doc, el, escapeXml(spoilt))];
  });
}

/** The one WasSuccess of the result, which says true. */
function wasSuccessTrue(doc: XmlDoc): XmlSpan {
  const result = resultElement(doc);
  const was = childrenNamed(result, 'WasSuccess');
  if (was.length !== 1) throw new Error(`expected one WasSuccess in <${result.qname}>, found ${was.length}`);
  if (textOf(doc, was[0]!) !== 'true') throw new Error(`WasSuccess says ${JSON.stringify(textOf(doc, was[0]!))}, not true`);
  return was[0]!;
}

const XSD_DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const XSD_DATETIME = /^-?\d{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/;
const XSD_INT = /^[+-]?\d+$/;
const XSD_BOOLEAN = /^(true|false|1|0)$/;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

function pageOf(title: string, heading: string, detail: string): string {
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"/>
<title>${title}</title>
<style type="text/css">
<!--
body{margin:0;font-size:.7em;font-family:Verdana, Arial, Helvetica, sans-serif;background:#EEEEEE;}
fieldset{padding:0 15px 10px 15px;}
h1{font-size:2.4em;margin:0;color:#FFF;}
h2{font-size:1.7em;margin:0;color:#CC0000;}
h3{font-size:1.2em;margin:10px 0 0 0;color:#000000;}
#header{width:96%;margin:0 0 0 0;padding:6px 2% 6px 2%;font-family:"trebuchet MS", Verdana, sans-serif;color:#FFF;background-color:#555555;}
#content{margin:0 0 0 2%;position:relative;}
.content-container{background:#FFF;width:96%;margin-top:8px;padding:10px;position:relative;}
-->
</style>
</head>
<body>
<div id="header"><h1>Server Error</h1></div>
<div id="content">
 <div class="content-container"><fieldset>
  <h2>${heading}</h2>
  <h3>${detail}</h3>
 </fieldset></div>
</div>
</body>
</html>
`;
}

/** A defect that replaces the whole reply (it is no XML answer at all). */
function bodyDefect(name: DefectName, summary: string, make: (reply: Reply) => Reply): Defect {
  return {
    name,
    kind: 'body',
    summary,
    shapes: ALL_SHAPES,
    spoil(reply) {
      answerOf(reply, ALL_SHAPES);
      return make(reply);
    },
  };
}

const DOCUMENT_TYPES = new Set(getEnumeration('DocumentType').values);

export const DEFECTS: Readonly<Record<DefectName, Defect>> = {
  wasSuccessFalseSpelt: xmlDefect(
    'wasSuccessFalseSpelt',
    'error',
    'WasSuccess true becomes "False" (xs:boolean is true, false, 1 or 0), with an error message in Messages',
    ALL_SHAPES,
    (doc) => {
      const was = wasSuccessTrue(doc);
      const result = was.parent!;
      const messages = childrenNamed(result, 'Messages');
      if (messages.length > 1) throw new Error('more than one Messages');
      const edits = [replaceContent(doc, was, 'False')];
      const m = messages[0];
      const item = (prefix: string) => `<${prefix ? `${prefix}:` : ''}string>${escapeXml(SPELT_FALSE_MESSAGE)}</${prefix ? `${prefix}:` : ''}string>`;
      if (!m)
        edits.push({
          at: was.end,
          remove: 0,
          insert: `<${was.prefix ? `${was.prefix}:` : ''}Messages>${item(was.prefix)}</${was.prefix ? `${was.prefix}:` : ''}Messages>`,
        });
      else if (m.selfClosing) edits.push(replaceContent(doc, m, item(m.prefix)));
      else edits.push({ at: m.openEnd, remove: 0, insert: item(m.prefix) });
      return edits;
    },
  ),
  wasSuccessTwice: xmlDefect('wasSuccessTwice', 'error', 'WasSuccess (a single element) twice: true, then false', ALL_SHAPES, (doc) => {
    const was = wasSuccessTrue(doc);
    return [{ at: was.end, remove: 0, insert: `<${was.qname}>false</${was.qname}>` }];
  }),
  iisHtml500: bodyDefect('iisHtml500', "HTTP 500 with IIS's HTML error page (text/html)", () => ({
    status: 500,
    contentType: 'text/html',
    body: pageOf(
      '500 - Internal server error.',
      '500 - Internal server error.',
      'There is a problem with the resource you are looking for, and it cannot be displayed.',
    ),
  })),
  foreignNamespaceFields: xmlDefect(
    'foreignNamespaceFields',
    'error',
    `every field element of the result (its children) in ${FOREIGN_NAMESPACE}`,
    ALL_SHAPES,
    (doc) => {
      const result = resultElement(doc);
      if (!result.children.length) throw new Error(`<${result.qname}> has no fields`);
      return result.children.flatMap((c) => moveToNamespace(doc, c, FOREIGN_NAMESPACE));
    },
  ),
  foreignNamespaceResponse: xmlDefect(
    'foreignNamespaceResponse',
    'error',
    `<Operation>Response (the bare root for HTTP GET/POST) in ${FOREIGN_NAMESPACE}`,
    ALL_SHAPES,
    (doc) => moveToNamespace(doc, responseElement(doc), FOREIGN_NAMESPACE),
  ),
  foreignNamespaceResult: xmlDefect('foreignNamespaceResult', 'error', `<Operation>Result in ${FOREIGN_NAMESPACE}`, SOAP_SHAPES, (doc) =>
    moveToNamespace(doc, resultElement(doc), FOREIGN_NAMESPACE),
  ),
  soapVersionSwapped: {
    name: 'soapVersionSwapped',
    kind: 'error',
    shapes: SOAP_SHAPES,
    summary: 'a SOAP 1.2 envelope (and Content-Type) answering a SOAP 1.1 request, and the reverse',
    spoil(reply) {
      const doc = answerOf(reply, SOAP_SHAPES);
      const from = namespaceOf(doc.root);
      const to = from === SOAP11 ? SOAP12 : SOAP11;
      const decls = doc.elements.flatMap((e) => e.attrs).filter((a) => (a.name === 'xmlns' || a.name.startsWith('xmlns:')) && a.value === from);
      const body = applyEdits(
        doc.text,
        decls.map((a) => ({ at: a.valueStart, remove: a.valueEnd - a.valueStart, insert: to })),
      );
      const type = to === SOAP12 ? 'application/soap+xml' : 'text/xml';
      const contentType = reply.contentType.replace(/^\s*[^;\s]+/, type);
      if (contentType === reply.contentType) throw new Error(`Content-Type ${reply.contentType} did not change`);
      return { ...reply, contentType, body };
    },
  },
  intNotInt: valueNotOfType(
    'intNotInt',
    '"abc" in an xs:int (the first TerminalDetailID)',
    'TerminalDetailID',
    (v) => XSD_INT.test(v),
    () => 'abc',
  ),
  boolNotBool: valueNotOfType(
    'boolNotBool',
    '"yes" in an xs:boolean (the first IsHazmat)',
    'IsHazmat',
    (v) => XSD_BOOLEAN.test(v),
    () => 'yes',
  ),
  decimalNotDecimal: valueNotOfType(
    'decimalNotDecimal',
    '"68%" in an xs:decimal (CustomerDiscounts of a 1.0.0 quote, a string in later versions)',
    'CustomerDiscounts',
    (v) => XSD_DECIMAL.test(v),
    () => '68%',
  ),
  dateTimeNotDateTime: valueNotOfType(
    'dateTimeNotDateTime',
    'a US date and time ("02/10/2003 08:00 AM") in an xs:dateTime (the first DateCreated)',
    'DateCreated',
    (v) => XSD_DATETIME.test(v),
    (v) => {
      const [, y, mo, d, h, mi] = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)/.exec(v)!;
      const hour = Number(h);
      return `${mo}/${d}/${y} ${String(hour % 12 || 12).padStart(2, '0')}:${mi} ${hour < 12 ? 'AM' : 'PM'}`;
    },
  ),
  enumerationUnknown: valueNotOfType(
    'enumerationUnknown',
    '"ProofOfDelivery" in a DocumentType (not a value of its enumeration)',
    'DocumentType',
    (v) => DOCUMENT_TYPES.has(v),
    () => 'ProofOfDelivery',
  ),
  base64NotBase64: valueNotOfType(
    'base64NotBase64',
    'the PDF as text, not base64, in PdfDocument (xs:base64Binary)',
    'PdfDocument',
    (v) => v.startsWith('JVBER') && BASE64.test(v),
    () => '%PDF-1.7 (raw PDF bytes, not base64)',
  ),
  noResult: xmlDefect('noResult', 'error', '<Operation>Response with no <Operation>Result', SOAP_SHAPES, (doc) => {
    const response = responseElement(doc);
    resultElement(doc);
    return [{ at: response.start, remove: response.end - response.start, insert: selfClosedTag(doc, response) }];
  }),
  emptyResult: xmlDefect('emptyResult', 'error', 'an empty <Operation>Result/>', SOAP_SHAPES, (doc) => {
    const result = resultElement(doc);
    if (result.selfClosing || result.closeStart === result.openEnd) throw new Error(`<${result.qname}> is empty already`);
    return [{ at: result.start, remove: result.end - result.start, insert: selfClosedTag(doc, result) }];
  }),
  unknownElement: xmlDefect(
    'unknownElement',
    'warning',
    `an element the contract does not know (${UNKNOWN_ELEMENT}) after the first TerminalCode`,
    ALL_SHAPES,
    (doc) => {
      const code = firstElement(doc, 'TerminalCode', resultElement(doc));
      const name = `${code.prefix ? `${code.prefix}:` : ''}${UNKNOWN_ELEMENT}`;
      return [{ at: code.end, remove: 0, insert: `<${name}>Central Plains</${name}>` }];
    },
  ),
  outOfOrder: xmlDefect('outOfOrder', 'warning', 'the first TerminalMailingCity and TerminalMailingState swapped', ALL_SHAPES, (doc) => {
    const city = firstElement(doc, 'TerminalMailingCity', resultElement(doc));
    const siblings = city.parent!.children;
    const state = siblings[siblings.indexOf(city) + 1];
    if (!state || state.local !== 'TerminalMailingState') throw new Error(`<${city.qname}> is not followed by TerminalMailingState`);
    const t = doc.text;
    return [
      {
        at: city.start,
        remove: state.end - city.start,
        insert: t.slice(state.start, state.end) + t.slice(city.end, state.start) + t.slice(city.start, city.end),
      },
    ];
  }),
  emptyBody200: bodyDefect('emptyBody200', 'HTTP 200 with an empty body (Content-Type kept)', (reply) => ({
    status: 200,
    contentType: reply.contentType,
    body: '',
  })),
  plainText500: bodyDefect('plainText500', "HTTP 500 with ASP.NET's plain-text error of the HTTP bindings (text/plain)", () => ({
    status: 500,
    contentType: 'text/plain; charset=utf-8',
    body: [
      'System.InvalidOperationException: Request format is invalid: the request could not be read.',
      '   at System.Web.Services.Protocols.HttpServerProtocol.ReadParameters()',
      '   at System.Web.Services.Protocols.WebServiceHandler.CoreProcessRequest()',
      '',
    ].join('\r\n'),
  })),
};

export const DEFECT_NAMES = Object.keys(DEFECTS) as DefectName[];

/** A defect's path segment: `intNotInt` → `int-not-int` (no element name of a reply is spelled so). */
export function defectSlug(name: DefectName): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

const BY_SLUG = new Map(DEFECT_NAMES.map((n) => [defectSlug(n), n]));

// ---------------------------------------------------------------------------------------------
// The service.

export interface SpoiledExchange {
  /** undefined: forwarded through /clean/. */
  readonly defect: DefectName | undefined;
  readonly method: string;
  /** The path forwarded to the sandbox (prefix taken off), with its query. */
  readonly path: string;
  readonly original: Reply;
  readonly sent: Reply;
}

export interface SpoilingService {
  readonly url: string;
  readonly sandbox: SandboxHandle;
  /** A base URL for environments: every request under it is spoilt with `defect` (or none: 'clean'). */
  urlFor(defect: DefectName | 'clean'): string;
  /** Every exchange forwarded, as the sandbox answered and as the service answered. */
  readonly exchanges: SpoiledExchange[];
  /** Requests the service could not serve as asked (a defect that found nothing to spoil, an unknown path). */
  readonly errors: string[];
  close(): Promise<void>;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export async function startSpoilingService(): Promise<SpoilingService> {
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  const exchanges: SpoiledExchange[] = [];
  const errors: string[] = [];
  let server: TestServer;
  try {
    server = await startServer(async (req, res, body) => {
      const url = new URL(req.url ?? '/', 'http://spoiling.invalid');
      const m = /^\/(?:spoil\/([a-z0-9-]+)|clean)(\/.*)$/.exec(url.pathname);
      const defect = m?.[1] !== undefined ? BY_SLUG.get(m[1]) : undefined;
      const refuse = (status: number, why: string) => {
        errors.push(`${req.method} ${req.url}: ${why}`);
        res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`spoiling service: ${why}\n`);
      };
      if (!m || (m[1] !== undefined && !defect)) return refuse(404, 'not /spoil/<defect>/… or /clean/…');
      const path = `${m[2]}${url.search}`;
      const headers: Record<string, string> = {};
      for (const h of ['content-type', 'soapaction', 'accept']) {
        const v = header(req.headers[h]);
        if (v !== undefined) headers[h] = v;
      }
      let original: Reply;
      try {
        const r = await fetch(`${sandbox.url}${path}`, {
          method: req.method,
          headers,
          ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: new Uint8Array(body) }),
        });
        original = { status: r.status, contentType: r.headers.get('content-type') ?? '', body: await r.text() };
      } catch (e) {
        return refuse(502, `the sandbox did not answer: ${(e as Error).message}`);
      }
      let sent: Reply;
      try {
        sent = defect ? DEFECTS[defect].spoil(original) : original;
      } catch (e) {
        return refuse(502, `${defect}: ${(e as Error).message}`);
      }
      exchanges.push({ defect, method: req.method ?? '', path, original, sent });
      const bytes = Buffer.from(sent.body, 'utf8');
      res.writeHead(sent.status, {
        ...(sent.contentType ? { 'Content-Type': sent.contentType } : {}),
        'Content-Length': String(bytes.length),
        'Cache-Control': 'private',
      });
      res.end(bytes);
    });
  } catch (e) {
    await sandbox.close();
    throw e;
  }
  return {
    url: server.url,
    sandbox,
    urlFor: (defect) => (defect === 'clean' ? `${server.url}/clean` : `${server.url}/spoil/${defectSlug(defect)}`),
    exchanges,
    errors,
    async close() {
      await server.close();
      await sandbox.close();
    },
  };
}
