/**
 * `POST {path}?op=<Operation>` with form fields `envelope` and `soap` (1.1 or 1.2): the SOAP test
 * form of a SOAP-only operation. The envelope goes through the sandbox's own SOAP handling, as if
 * posted to the service path, and the operation page comes back with the exact request and reply.
 * Only callers on the local machine may use it (docs/wire.md#transport-rule-8), judged by the connection's
 * address; a browser page from another site may not drive it either (Origin check).
 */
import { STATUS_CODES } from 'node:http';
import { create } from 'xmlbuilder2';
import { soapAction, type OperationDef } from '../../core';
import type { SandboxContext } from '../context';
import type { Reply } from '../http/reply';
import { soapRequestOf, soapRoute } from './soapRoute';
import { errorPage, unknownOperationPage } from '../pages/errorPage';
import { esc } from '../pages/html';
import { httpOperationHref, operationPageHref, relativeHref } from '../pages/links';
import { isLoopback } from '../pages/loopback';
import { hasHttpBinding, operationPage } from '../pages/operationPage';
import type { SoapExchange, SoapVersion } from '../pages/testForms';

export interface TestFormPost {
  readonly path: string;
  readonly shapes: readonly OperationDef[];
  readonly query: URLSearchParams;
  /** The connection's peer address (req.socket.remoteAddress), never a header. */
  readonly remoteAddress: string | undefined;
  readonly originHeader: string | undefined;
  readonly hostHeader: string | undefined;
  /** Reads the form body (UTF-8, size-limited), or says why it cannot. */
  readonly readBody: () => Promise<{ text: string } | Reply>;
  /** Drains a body that will not be read, so the connection stays usable. */
  readonly discardBody: () => void;
}

/**
 * A loopback connection can still be driven by a page from another site that the local browser
 * has open (a cross-site form post). Browsers name the posting page's origin, which that page
 * cannot forge; a request without Origin comes from a non-browser client on this machine.
 */
export function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (!host) return false;
  try {
    const o = new URL(origin);
    return o.protocol === 'http:' && o.host.toLowerCase() === host.toLowerCase();
  } catch {
    return false; // including the opaque origin "null"
  }
}

const contentTypeOf = (v: SoapVersion) => (v === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');

function indentXml(text: string): string | undefined {
  try {
    return create(text).end({ prettyPrint: true, headless: false });
  } catch {
    return undefined;
  }
}

/** The exchange as HTTP text: what the form handed to the SOAP endpoint, and what it answered. */
function exchangeOf(path: string, host: string, version: SoapVersion, action: string | undefined, envelope: string, reply: Reply): SoapExchange {
  const request = [
    `POST ${path} HTTP/1.1`,
    `Host: ${host}`,
    `Content-Type: ${contentTypeOf(version)}`,
    `Content-Length: ${Buffer.byteLength(envelope, 'utf8')}`,
    ...(action ? [`SOAPAction: "${action}"`] : []),
    '',
    envelope,
  ].join('\n');
  const body = typeof reply.body === 'string' ? reply.body : reply.body.toString('utf8');
  const head = [
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`.trimEnd(),
    `Content-Type: ${reply.contentType}`,
    `Content-Length: ${Buffer.byteLength(body, 'utf8')}`,
    ...Object.entries(reply.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ].join('\n');
  const xmlReply = /xml/.test(reply.contentType);
  return { request, status: reply.status, replyHead: head, replyBody: body, replyBodyIndented: xmlReply ? indentXml(body) : undefined };
}

export async function testFormPost(input: TestFormPost, ctx: SandboxContext): Promise<Reply> {
  const { path, shapes } = input;
  const refuse = (status: number, title: string, html: string): Reply => {
    input.discardBody();
    return errorPage(status, title, html, path, shapes);
  };
  if (!isLoopback(input.remoteAddress)) {
    return refuse(
      403,
      'Test form not available',
      `The SOAP test form accepts requests from the local machine only${input.remoteAddress ? `, and this one came from ${esc(input.remoteAddress)}` : ''}. Send the SOAP request to <code>${esc(path)}</code> with a SOAP client instead.`,
    );
  }
  if (!sameOrigin(input.originHeader, input.hostHeader)) {
    return refuse(
      403,
      'Test form not available',
      `The SOAP test form accepts posts from its own page only; this one came from ${esc(input.originHeader ?? 'another page')}.`,
    );
  }
  const name = input.query.get('op') ?? '';
  const op = shapes.find((s) => s.operation === name);
  if (!op) {
    input.discardBody();
    return unknownOperationPage(path, shapes, name);
  }
  if (hasHttpBinding(op)) {
    return refuse(
      400,
      'No SOAP test form',
      `${esc(op.operation)} offers HTTP bindings; its <a href="${esc(relativeHref(path, operationPageHref(path, op.operation)))}">test form</a> posts to <code>${esc(httpOperationHref(path, op.operation))}</code>.`,
    );
  }

  const body = await input.readBody();
  if (!('text' in body)) return body;
  const form = new URLSearchParams(body.text);
  const version = form.get('soap');
  const envelope = form.get('envelope');
  if ((version !== '1.1' && version !== '1.2') || envelope === null) {
    return errorPage(
      400,
      'Incomplete test form',
      'The test form sends two fields: <code>envelope</code> (the SOAP envelope) and <code>soap</code> (<code>1.1</code> or <code>1.2</code>).',
      path,
      shapes,
    );
  }
  // As a SOAP 1.1 client would send it; SOAP 1.2 carries no action (docs/wire.md#transport-rule-2, docs/wire.md#transport-rule-3).
  const action = version === '1.1' ? soapAction(ctx.namespaces.service, op.operation) : undefined;
  const { reply } = await soapRoute(soapRequestOf(version, action && `"${action}"`, undefined, envelope), shapes, ctx);
  const host = input.hostHeader ?? 'localhost';
  const exchange = exchangeOf(path, host, version, action, envelope, reply);
  return operationPage({
    path,
    op,
    namespaces: ctx.namespaces,
    host,
    remoteAddress: input.remoteAddress,
    soapState: { version, envelope, exchange },
    now: ctx.now(),
    anyKey: ctx.apiKeys === undefined,
  });
}
