/**
 * Pasted text → a recognised request, for Import SOAP Envelope: either a whole HTTP request
 * (`POST /path HTTP/1.1`, headers, blank line, body — as `carrier envelope` prints one) or just
 * the XML. Without a path the operation element decides the shape; where an operation has several
 * versions the one whose parameters fit best is taken. The envelope's own namespace is taken as
 * the service namespace and nothing is dropped (elements outside their namespace are kept and
 * flagged), since the point is to keep what was pasted.
 */
import { operations, servicePath, SOAP11_ENVELOPE_NS, type Namespaces } from '../catalog';
import { parseXml, XmlError, type XmlElement } from '../xml/dom';
import { readSoapParameters } from './parameters';
import { recognizeRequest } from './recognize';
import { soapParts } from './soapEnvelope';
import type { Recognition, RecognizedRequest, SoapVersion } from './types';

const REQUEST_LINE = /^(GET|POST|PUT|DELETE|HEAD|OPTIONS|PATCH)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?\s*$/;

export interface HttpMessage {
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

/** Reads `METHOD URL [HTTP/x]`, header lines, a blank line and the body; undefined when the text is not one. */
export function parseHttpMessage(text: string): HttpMessage | undefined {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/^\s+/, '')
    .split(/\r?\n/);
  const first = REQUEST_LINE.exec(lines[0] ?? '');
  if (!first) return undefined;
  const headers: Array<readonly [string, string]> = [];
  let i = 1;
  for (; i < lines.length && lines[i].trim() !== ''; i++) {
    const colon = lines[i].indexOf(':');
    if (colon > 0) headers.push([lines[i].slice(0, colon).trim(), lines[i].slice(colon + 1).trim()]);
  }
  return { method: first[1], url: first[2], headers, body: lines.slice(i + 1).join('\n') };
}

export function recognizeEnvelopeText(text: string, namespaces: Namespaces): Recognition {
  const message = parseHttpMessage(text);
  if (message) {
    const url = /^https?:\/\//i.test(message.url) ? message.url : message.url.startsWith('/') ? message.url : `/${message.url}`;
    const byPath = recognizeRequest({ ...message, url }, { namespaces, outOfNamespace: 'keep' });
    // Pasted with another namespace than the environment's: read it by its own.
    if (byPath.kind === 'operation' || !message.body.trim()) return byPath;
    const byBody = recognizeXml(message.body, namespaces);
    return byBody.kind === 'operation' ? byBody : byPath;
  }
  return recognizeXml(text, namespaces);
}

function recognizeXml(text: string, namespaces: Namespaces): Recognition {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (e) {
    if (!(e instanceof XmlError)) throw e;
    return { kind: 'unknown', code: 'not-xml', reason: `The text is not well-formed XML: ${e.message}` };
  }
  const version: SoapVersion = root.ns === SOAP11_ENVELOPE_NS ? '1.1' : '1.2';
  const isEnvelope = root.local === 'Envelope';
  const parts = isEnvelope ? soapParts(root, version) : { wrapper: root };
  const wrapper = parts.wrapper;
  if (!wrapper) return { kind: 'unknown', code: 'not-envelope', reason: ('problem' in parts && parts.problem?.message) || 'No operation element found' };
  const shapes = operations.filter((o) => o.operation === wrapper.local);
  if (!shapes.length) {
    return { kind: 'unknown', code: 'operation', reason: `<${wrapper.local}> is not an operation of the service`, operation: wrapper.local };
  }
  const own: Namespaces = { ...namespaces, service: wrapper.ns };
  const readings = shapes.map((op) => ({ op, ...readSoapParameters(op, wrapper, own, 'keep') }));
  // Fewest elements the shape does not know; a later version wins a tie (the newest is the likeliest to be in use).
  const misfit = (r: (typeof readings)[number]) => r.issues.filter((i) => i.kind === 'unknown' || i.kind === 'type').length;
  const best = readings.reduce((a, b) => (misfit(b) <= misfit(a) ? b : a));
  const binding = isEnvelope ? (version === '1.1' ? 'soap11' : 'soap12') : 'soap11';
  const result: RecognizedRequest = {
    kind: 'operation',
    op: best.op,
    operation: best.op.operation,
    version: best.op.version,
    binding,
    servicePath: servicePath(best.op),
    params: best.params,
    issues: best.issues,
    ...(best.literals ? { literals: best.literals } : {}),
    problems: [],
  };
  return result;
}
