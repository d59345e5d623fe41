/**
 * POST to a service path: a SOAP 1.1 or 1.2 call. Reads the envelope, picks the operation,
 * binds the parameters along the catalog as .NET would, runs the handler and wraps its result
 * in `<Operation>Response/<Operation>Result`.
 */
import {
  getRecord,
  parametersRecord,
  parseXml,
  readSoapParameters,
  soapActionOf,
  writeRecord,
  XmlError,
  type Namespaces,
  type OperationDef,
  type XmlSink,
} from '../../core';
import type { SandboxContext } from '../context';
import { normaliseRequest } from '../decode/normalise';
import { headerList } from '../http/headers';
import { SOAP12_UTF8, XML_UTF8, type Reply } from '../http/reply';
import { invoke, noteApiKey } from '../operations';
import { selectOperation } from '../soap/action';
import { bodyWrapper, replyEnvelope } from '../soap/envelope';
import { clientFault, faultEnvelope, SandboxFault, type SoapVersion } from '../soap/fault';

export interface SoapRequest {
  readonly version: SoapVersion;
  /** SOAPAction header (1.1) or the Content-Type action parameter (1.2), unquoted. */
  readonly action: string | undefined;
  readonly text: string;
}

export function soapRequestOf(
  version: SoapVersion,
  soapActionHeaderValue: string | string[] | undefined,
  contentTypeAction: string | undefined,
  text: string,
): SoapRequest {
  return { version, action: soapActionOf(version, soapActionHeaderValue, contentTypeAction), text };
}

const contentTypeOf = (version: SoapVersion) => (version === '1.1' ? XML_UTF8 : SOAP12_UTF8);

export function soapFaultReply(version: SoapVersion, fault: SandboxFault): Reply {
  return { status: 500, contentType: contentTypeOf(version), body: faultEnvelope(version, fault) };
}

/** Header that names request elements the service did not bind, so a tester sees them. */
export const IGNORED_HEADER = 'X-Carrier-Sandbox-Ignored';

/** Long enough for every name a real request could misplace; a proxy's header limit is 8 KB. */
const IGNORED_HEADER_LENGTH = 900;

export function ignoredHeader(ignored: readonly string[]): Record<string, string> {
  if (!ignored.length) return {};
  // Element names from a request need not be ASCII: encoded, so the header is valid whatever they are.
  return { [IGNORED_HEADER]: headerList(ignored, IGNORED_HEADER_LENGTH) };
}

export async function soapRoute(req: SoapRequest, shapes: readonly OperationDef[], ctx: SandboxContext): Promise<{ reply: Reply; op?: OperationDef }> {
  let op: OperationDef | undefined;
  try {
    let root;
    try {
      root = parseXml(req.text);
    } catch (e) {
      if (e instanceof XmlError) throw clientFault(`Server was unable to read the request: ${e.message}.`);
      throw e;
    }
    const wrapper = bodyWrapper(root, req.version);
    op = selectOperation(shapes, wrapper, req.action, req.version, ctx.namespaces);
    const { params: raw, issues } = readSoapParameters(op, wrapper, ctx.namespaces, 'absent');
    const { value, ignored } = normaliseRequest(parametersRecord(op), raw, issues);
    noteApiKey(value, ctx);
    if (ignored.length) ctx.log(`  ignored: ${ignored.join(', ')}`);
    const selected = op;
    const body = await invoke({ op, binding: req.version === '1.1' ? 'soap11' : 'soap12', params: value, ignored }, ctx, (result) =>
      replyEnvelope(req.version, (b) => writeResult(b, selected, result, ctx.namespaces)),
    );
    return { op, reply: { status: 200, contentType: contentTypeOf(req.version), body, headers: ignoredHeader(ignored) } };
  } catch (e) {
    return { op, reply: soapFaultReply(req.version, asFault(e, ctx)) };
  }
}

function writeResult(body: XmlSink, op: OperationDef, result: Record<string, unknown>, namespaces: Namespaces): void {
  const response = body.ele(namespaces.service, `${op.operation}Response`);
  const el = response.ele(namespaces.service, `${op.operation}Result`);
  writeRecord(el, getRecord(op.result), result, [], { namespaces });
}

/** Anything that is not a deliberate refusal is the service's own failure, reported as such. */
export function asFault(e: unknown, ctx: SandboxContext): SandboxFault {
  if (e instanceof SandboxFault) return e;
  ctx.log(`  internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return new SandboxFault('server', `Server was unable to process the request: ${e instanceof Error ? e.message : String(e)}`);
}
