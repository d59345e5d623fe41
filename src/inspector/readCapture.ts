/**
 * A captured exchange → what people see: the catalog's reading of the request (recognition),
 * the reply read along the catalog (parseReply), findings, timing — every text redacted. Runs
 * after forwarding, off the hot path (scheduler.ts), and yields to the event loop between its
 * phases (opening a body, recognising the request, reading the reply), so the relay's I/O is
 * served between them; never throws for anything a client or server can send.
 */
import { randomUUID } from 'node:crypto';
import {
  apiKeysIn,
  decideVerdict,
  decodeText,
  MASK,
  MIN_SECRET_BY_VALUE,
  parseReply,
  recognizeRequest,
  Redactor,
  SECRET_HEADER,
  type Exchange,
  type Finding,
  type Namespaces,
  type ParsedReply,
  type Recognition,
  type Timing,
} from '../core';
import { keepBody, openBody, type KeptBody } from './bodies';
import type { Capture } from './capture';
import type { RecognitionSummary, RecordedExchange } from './types';

/** Keys learned from traffic beyond this many are forgotten oldest first: each one makes every search longer. */
const MAX_LEARNED = 256;

/**
 * The secrets of a session: those given at the start and every key seen since (a key once seen is
 * hidden from every later copy, replies that echo it included), with one redactor for them all,
 * made again only when a new one comes.
 */
export class SessionSecrets {
  private readonly given: Set<string>;
  private readonly learned = new Set<string>();
  private current: Redactor | undefined;

  constructor(given: Iterable<string>) {
    this.given = new Set([...given].filter((s) => s.trim() !== ''));
  }

  add(secret: string): void {
    if (this.given.has(secret) || this.learned.has(secret) || secret.trim() === '' || secret === MASK) return;
    this.learned.add(secret);
    if (this.learned.size > MAX_LEARNED) this.learned.delete(this.learned.values().next().value!);
    this.current = undefined;
  }

  /** Every secret: given and learned. */
  all(): string[] {
    return [...this.given, ...this.learned];
  }

  /** Those long enough to be searched by value (src/core/redact.ts), for texts made from what was kept (request files). */
  byValue(): string[] {
    return this.all().filter((s) => [...s].length >= MIN_SECRET_BY_VALUE);
  }

  /** Masks by value (keys of MIN_SECRET_BY_VALUE characters or more) and, whatever their length, where keys stand. */
  redactor(): Redactor {
    return (this.current ??= new Redactor(this.all(), { inPlace: true }));
  }
}

export interface ReadContext {
  readonly namespaces: Namespaces;
  readonly environment?: string;
  /** The target's base URL as shown (no credentials). */
  readonly target: string;
  readonly secrets: SessionSecrets;
  readonly maxBodyBytes: number;
  /** Exchanges are written to a folder: the bodies' file forms are made too. */
  readonly recording: boolean;
}

/** What is written to disk besides the Exchange: the bodies (bodies.ts says which form each takes). */
export interface ReadExchange extends RecordedExchange {
  readonly requestBytes: Buffer;
  readonly replyBytes?: Buffer;
}

const HEAD = { utf8Bytes: true } as const;

/** The rest of the reading waits for a later turn: what the relay has to do meanwhile goes first. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const round = (ms: number | undefined) => (ms === undefined ? undefined : Math.round(ms * 100) / 100);

function header(pairs: ReadonlyArray<readonly [string, string]> | undefined, name: string): string | undefined {
  return pairs?.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** Heads are latin1 text of the bytes as they came, so a secret's own characters are searched as UTF-8 bytes there. */
function redactHeaders(pairs: ReadonlyArray<readonly [string, string]>, r: Redactor): Array<readonly [string, string]> {
  return pairs.map(([n, v]) => [n, SECRET_HEADER.test(n) ? MASK : r.text(v, HEAD)] as const);
}

/** The key the request's APIKey parameter held, whatever its length: masked where it stands. */
function withKeyMasked<T>(params: T): T {
  const p = params as Record<string, unknown>;
  return typeof p.APIKey === 'string' && p.APIKey !== '' ? ({ ...p, APIKey: MASK } as T) : params;
}

function summary(recognition: Recognition, r: Redactor, params: unknown): RecognitionSummary {
  if (recognition.kind === 'unknown') return r.deep(recognition);
  const { op: _op, wrapperNamespace, ...rest } = recognition;
  return {
    ...r.deep(rest),
    ...(params !== undefined ? { params: params as typeof rest.params } : {}),
    ...(wrapperNamespace !== undefined && params !== undefined ? { keptOutOfNamespace: wrapperNamespace || '(no namespace)' } : {}),
  };
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

/** One side's body, opened and decoded (not yet masked: the request's keys are learned from it first). */
async function openSide(c: Capture, side: 'request' | 'reply', maxBodyBytes: number) {
  const capture = side === 'request' ? c.requestBody : c.replyBody;
  const headers = side === 'request' ? c.requestHeaders : c.replyHeaders;
  const type = header(headers, 'content-type');
  const opened = await openBody(capture.bytes(), header(headers, 'content-encoding'), maxBodyBytes);
  const decoded = decodeText(opened.bytes, type);
  return { capture, type, opened, decoded, cut: capture.truncated || opened.cut };
}

type Side = Awaited<ReturnType<typeof openSide>>;

/** What the findings say about a body that was not kept as it came: cut, decoded, or undecodable. */
function bodyFindings(s: Side, side: 'request' | 'reply', kept: KeptBody, maxBodyBytes: number): Finding[] {
  const out: Finding[] = [];
  const what = side === 'request' ? 'The request body' : 'The reply body';
  const unread = side === 'reply' ? ' and not read along the catalog' : '';
  if (s.capture.truncated) {
    const why = s.capture.starved ? " (the inspector's memory for bodies under way was full)" : '';
    out.push({ severity: 'info', kind: side, message: `${what} is ${s.capture.total} bytes; the first ${s.capture.kept} were kept${unread}${why}` });
  }
  if (s.opened.problem) out.push({ severity: 'warning', kind: side, message: `${what} is shown as it came: ${s.opened.problem}` });
  else if (s.opened.undone.length)
    out.push({
      severity: 'info',
      kind: side,
      message: `${what} is ${kept.decoded}-encoded: it is kept decoded${s.opened.cut ? `, its first ${maxBodyBytes} bytes${unread}` : ''}`,
    });
  else if (kept.decoded) out.push({ severity: 'info', kind: side, message: `${what} is ${kept.decoded}: it is recorded as decoded text in UTF-8` });
  return out;
}

export async function readCapture(c: Capture, ctx: ReadContext): Promise<ReadExchange> {
  const req = await openSide(c, 'request', ctx.maxBodyBytes);
  await nextTurn();
  const requestText = req.decoded.text;
  const input = { method: c.method, url: c.url, headers: c.requestHeaders, body: requestText, bodyComplete: !req.cut };
  const recognition = recognizeRequest(input, { namespaces: ctx.namespaces });
  // An operation element in another namespace (a .NET client's http://tempuri.org/): the service
  // reads none of its parameters, but the recording keeps them all, read wherever they stood.
  const kept =
    recognition.kind === 'operation' && recognition.wrapperNamespace !== undefined && recognition.params
      ? recognizeRequest(input, { namespaces: ctx.namespaces, outOfNamespace: 'keep' })
      : undefined;
  const keptParams = kept?.kind === 'operation' ? kept : undefined;
  for (const s of apiKeysIn({ method: c.method, url: c.url, headers: c.requestHeaders, body: requestText }, recognition)) ctx.secrets.add(s);
  const redactor = ctx.secrets.redactor();
  const requestKept = keepBody(req.opened, requestText, req.decoded.charset, redactor, req.cut, ctx.recording);

  const findings: Finding[] = [];
  if (recognition.kind === 'unknown') findings.push({ severity: 'info', kind: 'request', message: `Not a call of the catalog: ${recognition.reason}` });
  else {
    for (const p of recognition.problems) findings.push({ severity: p.code === 'truncated' ? 'info' : 'warning', kind: 'request', message: p.message });
    for (const i of recognition.issues)
      findings.push({
        severity: i.kind === 'unknown' ? 'info' : 'warning',
        kind: i.kind === 'namespace' ? 'namespace' : 'request',
        message: `Request: ${i.message}`,
        path: i.path,
      });
  }
  findings.push(...bodyFindings(req, 'request', requestKept, ctx.maxBodyBytes));
  if (c.error) findings.unshift({ severity: 'error', kind: 'transport', message: c.error.message });

  let replyKept: KeptBody | undefined;
  let replyCut = false;
  let parsed: ParsedReply | undefined;
  if (c.status !== undefined) {
    await nextTurn();
    const rep = await openSide(c, 'reply', ctx.maxBodyBytes);
    replyCut = rep.cut;
    replyKept = keepBody(rep.opened, rep.decoded.text, rep.decoded.charset, redactor, rep.cut, ctx.recording);
    findings.push(...bodyFindings(rep, 'reply', replyKept, ctx.maxBodyBytes));
    if (!rep.cut && !rep.opened.problem && recognition.kind === 'operation' && !c.error) {
      await nextTurn();
      parsed = await parseReply({
        op: recognition.op,
        binding: recognition.binding,
        namespaces: ctx.namespaces,
        status: c.status,
        statusText: c.statusText,
        contentType: rep.type,
        text: rep.decoded.text,
      });
      findings.push(...parsed.findings);
    }
  }

  const known = recognition.kind === 'operation' ? recognition : undefined;
  const readParams = keptParams?.params ?? known?.params;
  const params = readParams ? redactor.deep(withKeyMasked(readParams)) : undefined;
  const made: Exchange = {
    id: randomUUID(),
    startedAt: new Date(c.startedAtMs).toISOString(),
    ...(known ? { operation: known.operation, version: known.version, binding: known.binding } : {}),
    ...(ctx.environment ? { environment: ctx.environment } : {}),
    endpoint: redactor.text(c.forwardedUrl.replace(/[?#].*$/, ''), HEAD),
    request: { method: c.method, url: redactor.text(c.forwardedUrl, HEAD), headers: redactHeaders(c.requestHeaders, redactor), body: requestKept.text },
    ...(c.status !== undefined
      ? {
          reply: {
            status: c.status,
            statusText: redactor.text(c.statusText ?? '', HEAD),
            headers: redactHeaders(c.replyHeaders ?? [], redactor),
            bodyText: replyKept?.text ?? '',
            size: c.replyBody.total,
          },
        }
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
      ...(params ? { params } : {}),
      ...(req.cut ? { requestBodyTruncated: true } : {}),
      ...(replyCut ? { replyBodyTruncated: true } : {}),
    },
  };
  // Judged once as it is recorded: the inspector's tree, --show and the editor's view read this verdict.
  const exchange: Exchange = { ...made, judgement: { verdict: decideVerdict(made) } };
  const decoded = { ...(requestKept.decoded ? { request: requestKept.decoded } : {}), ...(replyKept?.decoded ? { reply: replyKept.decoded } : {}) };
  return {
    seq: c.seq,
    exchange,
    recognition: summary(keptParams ? { ...recognition, ...(keptParams.literals ? { literals: keptParams.literals } : {}) } : recognition, redactor, params),
    ...(Object.keys(decoded).length ? { decoded } : {}),
    requestBytes: requestKept.file,
    ...(replyKept ? { replyBytes: replyKept.file } : {}),
  };
}
