/**
 * A captured exchange → what people see: the catalog's reading of the request (recognition),
 * the reply read along the catalog (parseReply), findings, timing — every text redacted. Runs
 * after forwarding, off the hot path; never throws for anything a client or server can send.
 */
import { randomUUID } from 'node:crypto';
import { apiKeysIn, decodeText, MASK, parseReply, recognizeRequest, Redactor, SECRET_HEADER, type Exchange, type Finding, type Namespaces, type ParsedReply, type Recognition, type Timing } from '../core';
import type { Capture } from './capture';
import { ByteRedactor } from './redactBytes';
import type { RecognitionSummary, RecordedExchange } from './types';

export interface ReadContext {
  readonly namespaces: Namespaces;
  readonly environment?: string;
  /** The target's base URL as shown (no credentials). */
  readonly target: string;
  /** Every secret seen so far in this session: a key once seen is hidden from every later copy. */
  readonly secrets: Set<string>;
  readonly maxBodyBytes: number;
}

/** What is written to disk besides the Exchange: the bodies as they went, redacted byte for byte. */
export interface ReadExchange extends RecordedExchange {
  readonly requestBytes: Buffer;
  readonly replyBytes?: Buffer;
}

const round = (ms: number | undefined) => (ms === undefined ? undefined : Math.round(ms * 100) / 100);

function header(pairs: ReadonlyArray<readonly [string, string]> | undefined, name: string): string | undefined {
  return pairs?.find(([n]) => n.toLowerCase() === name)?.[1];
}

function redactHeaders(pairs: ReadonlyArray<readonly [string, string]>, r: Redactor): Array<readonly [string, string]> {
  return pairs.map(([n, v]) => [n, SECRET_HEADER.test(n) ? MASK : r.text(v)] as const);
}

function summary(recognition: Recognition, r: Redactor): RecognitionSummary {
  if (recognition.kind === 'unknown') return r.deep(recognition);
  const { op: _op, ...rest } = recognition;
  return r.deep(rest);
}

function timingOf(c: Capture): Timing {
  const firstByte = c.responseAt !== undefined && c.requestSentAt !== undefined ? Math.max(0, c.responseAt - c.requestSentAt) : undefined;
  const download = c.endedAt !== undefined && c.responseAt !== undefined ? c.endedAt - c.responseAt : undefined;
  return {
    ...(c.connectMs !== undefined ? { connectMs: round(c.connectMs) } : {}),
    ...(firstByte !== undefined ? { firstByteMs: round(firstByte) } : {}),
    ...(download !== undefined && c.error === undefined ? { downloadMs: round(download) } : {}),
    totalMs: round(c.endedAt ?? 0)!,
  };
}

export async function readCapture(c: Capture, ctx: ReadContext): Promise<ReadExchange> {
  const requestType = header(c.requestHeaders, 'content-type');
  const requestRaw = c.requestBody.bytes();
  const requestText = decodeText(requestRaw, requestType).text;
  const recognition = recognizeRequest({ method: c.method, url: c.url, headers: c.requestHeaders, body: requestText, bodyComplete: !c.requestBody.truncated }, { namespaces: ctx.namespaces });
  for (const s of apiKeysIn({ method: c.method, url: c.url, headers: c.requestHeaders, body: requestText }, recognition)) ctx.secrets.add(s);
  const redactor = new Redactor(ctx.secrets);
  const bytes = new ByteRedactor(ctx.secrets);

  const findings: Finding[] = [];
  if (recognition.kind === 'unknown') findings.push({ severity: 'info', kind: 'request', message: `Not a call of the catalog: ${recognition.reason}` });
  else {
    for (const p of recognition.problems) findings.push({ severity: p.code === 'truncated' ? 'info' : 'warning', kind: 'request', message: p.message });
    for (const i of recognition.issues) findings.push({ severity: i.kind === 'unknown' ? 'info' : 'warning', kind: i.kind === 'namespace' ? 'namespace' : 'request', message: `Request: ${i.message}`, path: i.path });
  }
  if (c.requestBody.truncated) findings.push({ severity: 'info', kind: 'request', message: `The request body is ${c.requestBody.total} bytes; the first ${ctx.maxBodyBytes} were kept` });
  if (c.error) findings.unshift({ severity: 'error', kind: 'transport', message: c.error.message });

  let replyRaw: Buffer | undefined;
  let replyText: string | undefined;
  let parsed: ParsedReply | undefined;
  if (c.status !== undefined) {
    const replyType = header(c.replyHeaders, 'content-type');
    replyRaw = c.replyBody.bytes();
    replyText = decodeText(replyRaw, replyType).text;
    if (c.replyBody.truncated) findings.push({ severity: 'info', kind: 'reply', message: `The reply body is ${c.replyBody.total} bytes; the first ${ctx.maxBodyBytes} were kept and not read along the catalog` });
    else if (recognition.kind === 'operation' && !c.error) {
      parsed = await parseReply({ op: recognition.op, binding: recognition.binding, namespaces: ctx.namespaces, status: c.status, statusText: c.statusText, contentType: replyType, text: replyText });
      findings.push(...parsed.findings);
    }
  }

  const known = recognition.kind === 'operation' ? recognition : undefined;
  const exchange: Exchange = {
    id: randomUUID(),
    startedAt: new Date(c.startedAtMs).toISOString(),
    ...(known ? { operation: known.operation, version: known.version, binding: known.binding } : {}),
    ...(ctx.environment ? { environment: ctx.environment } : {}),
    endpoint: redactor.text(c.forwardedUrl.replace(/[?#].*$/, '')),
    request: { method: c.method, url: redactor.text(c.forwardedUrl), headers: redactHeaders(c.requestHeaders, redactor), body: redactor.text(requestText) },
    ...(c.status !== undefined
      ? { reply: { status: c.status, statusText: c.statusText ?? '', headers: redactHeaders(c.replyHeaders ?? [], redactor), bodyText: redactor.text(replyText ?? ''), size: c.replyBody.total } }
      : {}),
    timing: timingOf(c),
    sizes: { requestBytes: c.requestBody.total, replyBytes: c.replyBody.total },
    ...(parsed?.fault ? { fault: redactor.deep(parsed.fault) } : {}),
    findings: redactor.deep(findings),
    ...(parsed && parsed.parsed !== undefined ? { parsed: redactor.deep(parsed.parsed) } : {}),
    documents: (parsed?.documents ?? []).map((d) => ({ ...d, name: redactor.text(d.name), path: redactor.text(d.path) })),
    ...(c.error ? { error: { kind: c.error.kind, message: redactor.text(c.error.message) } } : {}),
    recorded: {
      direction: 'recorded',
      seq: c.seq,
      target: ctx.target,
      ...(c.client ? { client: c.client } : {}),
      recognised: recognition.kind === 'operation',
      ...(recognition.kind === 'unknown' ? { reason: redactor.text(recognition.reason) } : {}),
      ...(known?.params ? { params: redactor.deep(known.params) } : {}),
      ...(c.requestBody.truncated ? { requestBodyTruncated: true } : {}),
      ...(c.replyBody.truncated ? { replyBodyTruncated: true } : {}),
    },
  };
  return {
    seq: c.seq,
    exchange,
    recognition: summary(recognition, redactor),
    requestBytes: bytes.redact(requestRaw),
    ...(replyRaw ? { replyBytes: bytes.redact(replyRaw) } : {}),
  };
}
