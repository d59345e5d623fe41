/**
 * The route table: every service path of the catalog, its `?WSDL`, its page, its SOAP endpoint
 * and its HTTP GET/POST operation URLs. Everything else is 404.
 */
import type { IncomingMessage } from 'node:http';
import { findOperationUrl, findService, serviceTable, soapVersionOf, wantsWsdl, type ServiceRoute, type ServiceTable } from '../core';
import type { SandboxContext } from './context';
import { readBody, RequestRefused, type BodyLimits } from './http/body';
import { encodingOf, parseMediaType } from './http/contentType';
import { checkFieldCount, queryOf, readForm } from './http/form';
import { httpBindingRoute, httpOperation, type HttpBinding } from './routes/httpBindingRoute';
import { notFound, textReply, XML_UTF8, type Reply } from './http/reply';
import { servicePage } from './pages/servicePage';
import { testFormPost } from './routes/testFormRoute';
import { soapRoute, soapRequestOf } from './routes/soapRoute';
import { wsdlFor } from './wsdl/wsdl';
import { readsNoState } from './operations';
import type { Replayer } from './replay/replayer';

export type { ServiceRoute } from '../core';

export interface RouteResult {
  readonly reply: Reply;
  /** For the log: what the request turned out to be. */
  readonly label: string;
  /**
   * True when the reply follows from the request alone, so the same request may be answered with
   * it again (the reply memo, http/replyMemo.ts): a 200 of an operation that reads neither the
   * store nor the clock (operations/index.ts), over SOAP or the HTTP POST binding. Never a fault,
   * another status, a replayed reply or a page.
   */
  readonly keep?: boolean;
}

/** Service paths by lower-cased path: IIS matches paths without regard to case. */
export function routeTable(): ServiceTable {
  return serviceTable();
}

/** Where clients reach this sandbox, as the request names it (so a WSDL's addresses work through any host name). */
function baseUrlOf(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  return host && /^[\w.:[\]-]+$/.test(host) ? `http://${host}` : fallback;
}

function methodNotAllowed(allow: string): Reply {
  return textReply(405, `Method not allowed. Use ${allow}.`, { Allow: allow });
}

/** Each binding reads at most what its requests can sensibly hold (http/limits.ts). */
function soapLimits(ctx: SandboxContext): BodyLimits {
  return { maxBytes: ctx.limits.soapBodyBytes, deadlineMs: ctx.limits.bodyTimeoutMs };
}

function formLimits(ctx: SandboxContext, maxBytes: number): BodyLimits {
  return { maxBytes, deadlineMs: ctx.limits.bodyTimeoutMs, maxFields: ctx.limits.parameters };
}

async function decodeBody(req: IncomingMessage, limits: BodyLimits): Promise<{ text: string } | Reply> {
  const media = parseMediaType(req.headers['content-type']);
  const encoding = encodingOf(media);
  if (!encoding) return textReply(415, `Unsupported charset "${media.params.get('charset')}": send UTF-8.`);
  try {
    return { text: (await readBody(req, limits)).toString(encoding) };
  } catch (e) {
    if (e instanceof RequestRefused) return textReply(e.status, e.message);
    throw e;
  }
}

/** A replay (`--replay`) answers a call before the emulator does; what it leaves goes on as without one. */
function replayed(replay: Replayer | undefined, req: IncomingMessage, body: string, ctx: SandboxContext): RouteResult | undefined {
  return replay?.answer({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body }, ctx.namespaces);
}

export async function route(req: IncomingMessage, ctx: SandboxContext, table: ServiceTable, fallbackBase: string, replay?: Replayer): Promise<RouteResult> {
  const target = req.url ?? '/';
  const method = req.method ?? 'GET';
  // Counted before anything parses the query (WSDL, pages and the HTTP GET binding all read it).
  try {
    checkFieldCount(queryOf(target), ctx.limits.parameters, 'query string fields');
  } catch (e) {
    if (!(e instanceof RequestRefused)) throw e;
    return { reply: textReply(e.status, e.message), label: 'too many query fields' };
  }
  const url = new URL(target, 'http://sandbox.invalid');

  const service = findService(table, url.pathname);
  if (service) return serviceRoute(req, method, url, service, ctx, baseUrlOf(req, fallbackBase), replay);

  const opUrl = findOperationUrl(table, url.pathname);
  if (opUrl) {
    if ('badEncoding' in opUrl) return { reply: textReply(400, `Bad Request: the URL ${url.pathname} is not correctly percent-encoded.`), label: '400' };
    return operationRoute(req, method, url, opUrl.route, opUrl.operation, ctx, replay);
  }
  return { reply: notFound(url.pathname), label: '404' };
}

async function serviceRoute(
  req: IncomingMessage,
  method: string,
  url: URL,
  service: ServiceRoute,
  ctx: SandboxContext,
  base: string,
  replay: Replayer | undefined,
): Promise<RouteResult> {
  if (method === 'GET' || method === 'HEAD') {
    if (wantsWsdl(url.searchParams)) {
      return {
        reply: { status: 200, contentType: XML_UTF8, body: wsdlFor(service.path, service.shapes, ctx.namespaces, base) },
        label: `WSDL ${service.path}`,
      };
    }
    const page = servicePage({
      path: service.path,
      shapes: service.shapes,
      namespaces: ctx.namespaces,
      baseUrl: base,
      query: url.searchParams,
      remoteAddress: req.socket.remoteAddress,
      now: ctx.now(),
      anyKey: ctx.apiKeys === undefined,
    });
    return { reply: page, label: `page ${service.path}` };
  }
  if (method !== 'POST') return { reply: methodNotAllowed('GET, POST'), label: `${method} ${service.path}` };

  const media = parseMediaType(req.headers['content-type']);
  // The SOAP test form of an operation page posts back to that page (routes/testFormRoute.ts).
  if (media.type === 'application/x-www-form-urlencoded' && url.searchParams.has('op')) {
    const reply = await testFormPost(
      {
        path: service.path,
        shapes: service.shapes,
        query: url.searchParams,
        remoteAddress: req.socket.remoteAddress,
        originHeader: req.headers.origin,
        hostHeader: req.headers.host,
        readBody: () => decodeBody(req, formLimits(ctx, ctx.limits.soapBodyBytes)),
        discardBody: () => req.resume(),
      },
      ctx,
    );
    return { reply, label: `test form ${service.path}` };
  }
  const version = soapVersionOf(media);
  if (!version) {
    req.resume();
    const got = media.type ? `"${media.type}"` : 'no Content-Type';
    return {
      reply: textReply(
        415,
        `Unsupported Media Type: ${got}. A SOAP 1.1 request is text/xml; charset=utf-8, a SOAP 1.2 request application/soap+xml; charset=utf-8.`,
      ),
      label: `SOAP? ${service.path}`,
    };
  }
  const body = await decodeBody(req, soapLimits(ctx));
  if (!('text' in body)) return { reply: body, label: `SOAP ${version} ${service.path}` };
  const recorded = replayed(replay, req, body.text, ctx);
  if (recorded) return recorded;
  const { reply, op } = await soapRoute(soapRequestOf(version, req.headers.soapaction, media.params.get('action'), body.text), service.shapes, ctx);
  return {
    reply,
    label: `${op ? `${op.operation} ${op.version}` : service.path} SOAP ${version}`,
    ...(reply.status === 200 && op && readsNoState(op) ? { keep: true } : {}),
  };
}

async function operationRoute(
  req: IncomingMessage,
  method: string,
  url: URL,
  service: ServiceRoute,
  operation: string,
  ctx: SandboxContext,
  replay: Replayer | undefined,
): Promise<RouteResult> {
  const binding: HttpBinding | undefined = method === 'GET' || method === 'HEAD' ? 'get' : method === 'POST' ? 'post' : undefined;
  if (!binding) return { reply: methodNotAllowed('GET, POST'), label: `${method} ${url.pathname}` };
  const label = `${operation} HTTP ${binding.toUpperCase()}`;
  const op = httpOperation(binding, operation, service.shapes);
  if (!('operation' in op)) {
    req.resume();
    return { reply: op, label };
  }
  const fullLabel = `${op.operation} ${op.version} HTTP ${binding.toUpperCase()}`;
  if (binding === 'get') return replayed(replay, req, '', ctx) ?? { reply: await httpBindingRoute(binding, op, url.searchParams, ctx), label: fullLabel };

  const media = parseMediaType(req.headers['content-type']);
  if (media.type !== 'application/x-www-form-urlencoded') {
    req.resume();
    return {
      reply: textReply(
        415,
        `Unsupported Media Type: ${media.type ? `"${media.type}"` : 'no Content-Type'}. HTTP POST takes application/x-www-form-urlencoded form fields.`,
      ),
      label: fullLabel,
    };
  }
  const body = await decodeBody(req, formLimits(ctx, ctx.limits.formBodyBytes));
  if (!('text' in body)) return { reply: body, label: fullLabel };
  let form: URLSearchParams;
  try {
    form = readForm(body.text, ctx.limits.parameters);
  } catch (e) {
    if (!(e instanceof RequestRefused)) throw e;
    return { reply: textReply(e.status, e.message), label: fullLabel };
  }
  const recorded = replayed(replay, req, body.text, ctx);
  if (recorded) return recorded;
  const reply = await httpBindingRoute(binding, op, form, ctx);
  return { reply, label: fullLabel, ...(reply.status === 200 && readsNoState(op) ? { keep: true } : {}) };
}
