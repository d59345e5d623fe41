/**
 * `{path}/<Operation>` with HTTP GET (query string) or HTTP POST (form fields): the reply is the
 * bare reply root in the service namespace (docs/wire.md#transport-rule-5, docs/wire.md#transport-rule-6). Refusals are an HTTP 500
 * with a plain-text reason, as an ASMX service answers these bindings.
 */
import { getRecord, writeRecord, type Binding, type OperationDef } from '../../core';
import type { SandboxContext } from '../context';
import { httpParameters } from '../decode/httpParameters';
import { invoke } from '../operations';
import { bareReply } from '../soap/envelope';
import { asFault } from './soapRoute';
import { textReply, XML_UTF8, type Reply } from '../http/reply';

export type HttpBinding = Extract<Binding, 'get' | 'post'>;

/** The operation a URL names, or the refusal an ASMX service gives for it (one answer for an unknown method and for a method without this binding). */
export function httpOperation(binding: HttpBinding, operation: string, shapes: readonly OperationDef[]): OperationDef | Reply {
  const op = shapes.find((s) => s.operation === operation);
  if (op && op.bindings.includes(binding) && op.httpReplyRoot) return op;
  const soapOnly = op ? ` ${op.operation} is offered over SOAP only.` : '';
  return textReply(500, `Request format is unrecognized for URL unexpectedly ending in '/${operation}'.${soapOnly}`);
}

export async function httpBindingRoute(binding: HttpBinding, op: OperationDef, form: URLSearchParams, ctx: SandboxContext): Promise<Reply> {
  try {
    const params = httpParameters(op, form);
    const body = await invoke({ op, binding, params, ignored: [] }, ctx, (result) =>
      bareReply(ctx.namespaces.service, op.httpReplyRoot!, (el) => writeRecord(el, getRecord(op.result), result, [], { namespaces: ctx.namespaces })),
    );
    return { status: 200, contentType: XML_UTF8, body };
  } catch (e) {
    return textReply(500, asFault(e, ctx).message);
  }
}
