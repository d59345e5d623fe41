/**
 * Sends one request and returns the Exchange every consumer reads (CLI, results panel, runner,
 * history). Problems before anything is sent (unknown shape, binding not offered, unknown
 * variable, missing key, invalid file) throw RequestError; everything after — network errors,
 * faults, unreadable replies — is reported in the Exchange, never thrown. Every text in the
 * Exchange is redacted; only the wire copy of the request ever holds the key.
 */
import { randomUUID } from 'node:crypto';
import type { Binding } from './catalog';
import type { CoreContext } from './context';
import { prepareRequest, RequestError, type PrepareInput, type PreparedRequest } from './envelope/prepare';
import type { Exchange, ExchangeError, Finding, HttpReply, HttpRequestSpec, Timing } from './exchange';
import type { Redactor } from './redact';
import { decodeText } from './reply/decodeText';
import { parseReply, type ParsedReply } from './reply/parse';
import type { Finding as FileFinding } from './requestFile/types';
import { formatFinding } from './validation/format';
import { sendableRequest, validateRequestText } from './validation/validate';
import { timestamp } from './timestamp';
import { decideVerdict } from './verdict';
import { TlsFileError } from './transport/tlsFile';
import { sendHttp } from './transport/http';
import type { HttpOutcome, Phase } from './transport/types';
import type { Dispatcher } from 'undici';
import type { ReadReply, ReplyMemos } from './replyMemo';

export { RequestError } from './envelope/prepare';
export type { SendableRequest } from './envelope/prepare';

/** `sandbox`: the embedded sandbox is being started; then the transport's phases and `parsing`. */
export type SendPhase = 'sandbox' | Phase;

/** What to send: the request as prepareRequest takes it (its base URL comes from the environment or the sandbox). */
export interface SendInput extends Omit<PrepareInput, 'baseUrl' | 'context'> {
  /** What the send touches: the stored contract's files, the pooled dispatchers, the clock (src/core/context.ts). */
  readonly context: SendContext;
  readonly signal?: AbortSignal;
  /** Starts (or finds) the embedded sandbox and gives its base URL; needed for embedded environments. */
  readonly resolveEmbedded?: () => Promise<string>;
  readonly onPhase?: (phase: SendPhase) => void;
  /** Override the environment's limits (the extension's settings). */
  readonly timeoutMs?: number;
  readonly maxReplyBytes?: number;
  /** The request file, for the Exchange's `source`. */
  readonly source?: string;
  /**
   * This very input already prepared (prepareRequest): the runner sends copies of one file again
   * and again. For an embedded environment, whose address is known only once it runs, only with
   * `preparedAt`.
   */
  readonly prepared?: PreparedRequest;
  /**
   * An embedded environment's request prepared at the sandbox's address, once it is known; when
   * absent, it is prepared on each send.
   */
  readonly preparedAt?: (baseUrl: string) => PreparedRequest;
  /**
   * The exchange is judged and then dropped, never shown, kept or written (a load run's): only
   * what judging reads is made (runner/judge.ts, runner/captures.ts, the verdict). Its reply,
   * fault, parsed result, findings and documents are redacted as ever (a capture takes what a
   * run's would); its `id`, `startedAt` and `endpoint` are empty or absent, its request is the
   * prepared display copy (not the headers as sent), its reply's headers are its Content-Type
   * alone, it has no sizes, and rawReplyBytes() has nothing for it.
   */
  readonly judgedOnly?: boolean;
  /**
   * With `judgedOnly`: the readings of the replies this prepared request had before
   * (replyMemo.ts); a byte-identical reply reuses its reading.
   */
  readonly replies?: ReplyMemos;
}

/** Raw reply bytes per Exchange, outside the object so it stays small and JSON-serialisable. */
const rawReplies = new WeakMap<Exchange, Buffer>();

/**
 * The reply body bytes as received, for `--out` and "save raw reply". Should the reply echo a
 * secret, these are the redacted text's bytes instead: secrets never leave through this door.
 */
export function rawReplyBytes(exchange: Exchange): Buffer | undefined {
  return rawReplies.get(exchange);
}

/** The parts of a context a send touches. */
export type SendContext = Pick<CoreContext, 'files' | 'http' | 'clock' | 'defaultEnvironment'>;

export async function send(input: SendInput): Promise<Exchange> {
  const { environment, context } = input;
  const startedAt = context.clock.now();
  // A request that cannot be made says so before the sandbox is started for it.
  // An embedded environment's prepared request is this check only, unless it comes with its preparation at the sandbox's address.
  let prepared = input.prepared && (!environment.embedded || input.preparedAt) ? input.prepared : prepareRequest(input);
  if (environment.embedded) {
    if (!input.resolveEmbedded)
      throw new RequestError('sandbox', `Environment "${environment.name}" is the embedded sandbox, but no way to start it was given`);
    input.onPhase?.('sandbox');
    let baseUrl: string;
    try {
      baseUrl = (await input.resolveEmbedded()).replace(/\/+$/, '');
    } catch (err) {
      throw new RequestError('sandbox', `The embedded sandbox did not start: ${String((err as Error).message ?? err).split('\n')[0]}`);
    }
    prepared = input.preparedAt ? input.preparedAt(baseUrl) : prepareRequest({ ...input, baseUrl });
  }
  if (input.judgedOnly) return sendJudgedOnly(input, prepared);
  const { spec, display, redactor } = prepared;
  const timeoutMs = input.timeoutMs ?? environment.timeoutMs;
  const maxReplyBytes = input.maxReplyBytes ?? environment.maxReplyBytes;

  const dispatcher = dispatcherOf(input, timeoutMs, redactor);
  // Nothing went on the wire: the request keeps its own headers.
  if ('kind' in dispatcher)
    return {
      ...baseOf(input, prepared, startedAt),
      error: dispatcher,
      findings: [{ severity: 'error', kind: 'transport', message: dispatcher.message }],
      documents: [],
    };

  const sending = sendHttp(spec, {
    dispatcher,
    expectSocket: context.http.expectSocket && ((waiter) => context.http.expectSocket!(waiter)),
    timeoutMs,
    connectTimeoutMs: connectTimeoutOf(timeoutMs),
    maxReplyBytes,
    signal: input.signal,
    onPhase: input.onPhase,
    displayUrl: display.url,
  });
  // Made while the server works (a request alone is on the wire by now, transport/http.ts): the reply needs none of it.
  const base = baseOf(input, prepared, startedAt);
  const outcome = await sending;

  // Every header that went, as the client wrote it (Host, Connection, Content-Length…), not only the request's own.
  base.request = displayAsSent(display, outcome.sentHeaders, redactor);

  const { reply, parsed, findings } = await readOutcome(outcome, prepared, environment, input.onPhase);
  const exchange = exchangeOf(
    base,
    outcomeOf(outcome, reply, parsed, findings, { requestBytes: outcome.requestBytes, replyBytes: reply?.size ?? 0 }),
    redactor,
  );
  if (outcome.body && reply) {
    rawReplies.set(exchange, exchange.reply!.bodyText === reply.bodyText ? outcome.body : Buffer.from(exchange.reply!.bodyText, 'utf8'));
  }
  input.onPhase?.('done');
  return exchange;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The connect timeout of a send: its whole timeout, at most 10 s. */
const connectTimeoutOf = (timeoutMs: number): number => Math.min(10_000, timeoutMs);

/** The context's dispatcher for the environment's TLS, proxy and timeout, or the TLS error (redacted) that made one impossible. */
function dispatcherOf(input: SendInput, timeoutMs: number, redactor: Redactor): Dispatcher | ExchangeError {
  const { environment } = input;
  try {
    return input.context.http.dispatcherFor({ tls: environment.tls, proxy: environment.proxy, connectTimeoutMs: connectTimeoutOf(timeoutMs) });
  } catch (err) {
    if (!(err instanceof TlsFileError)) throw err;
    return { kind: 'tls', message: redactor.text(err.message) };
  }
}

/** What the reply's bytes say, not yet redacted: the reply as text, its reading, the findings (a transport error's first). */
async function readOutcome(
  outcome: HttpOutcome,
  prepared: PreparedRequest,
  environment: SendInput['environment'],
  onPhase: SendInput['onPhase'],
): Promise<{ reply?: HttpReply; parsed?: ParsedReply; findings: Finding[] }> {
  const { op, binding, replyContract } = prepared;
  const findings: Finding[] = [];
  let reply: HttpReply | undefined;
  let parsed: ParsedReply | undefined;
  if (outcome.status !== undefined) {
    const contentType = outcome.headers?.find((h) => h[0].length === 12 && h[0].toLowerCase() === 'content-type')?.[1];
    const body = outcome.body ?? Buffer.alloc(0);
    const decoded = decodeText(body, contentType);
    if (decoded.problem) findings.push({ severity: 'warning', kind: 'reply', message: `The reply ${decoded.problem.replace(/^the reply /, '')}` });
    reply = { status: outcome.status, statusText: outcome.statusText ?? '', headers: outcome.headers ?? [], bodyText: decoded.text, size: body.length };
    // A cut-short body is kept as it came, but not read as if it were whole.
    if (!outcome.error && outcome.complete) {
      onPhase?.('parsing');
      parsed = await parseReply({
        op,
        binding,
        namespaces: environment.namespaces,
        status: outcome.status,
        statusText: outcome.statusText,
        contentType,
        text: decoded.text,
        ...(replyContract ? { contract: replyContract } : {}),
      });
      findings.push(...parsed.findings);
    }
  }
  if (outcome.error) findings.unshift({ severity: 'error', kind: 'transport', message: outcome.error.message });

  return { reply, parsed, findings };
}

/**
 * send() for an exchange that is judged and dropped (SendInput.judgedOnly): the same request, the
 * same reading and redaction of the reply, but nothing made for display, and a reply
 * byte-identical to one read before takes that reading (replyMemo.ts).
 */
async function sendJudgedOnly(input: SendInput, prepared: PreparedRequest): Promise<Exchange> {
  const { environment } = input;
  const { op, binding, spec, display, redactor } = prepared;
  const timeoutMs = input.timeoutMs ?? environment.timeoutMs;
  const base = {
    id: '',
    startedAt: '',
    operation: op.operation,
    version: op.version,
    binding,
    environment: environment.name,
    request: display,
  } as Mutable<Omit<Exchange, 'findings' | 'documents'>>;
  const dispatcher = dispatcherOf(input, timeoutMs, redactor);
  if ('kind' in dispatcher) {
    const out = {
      ...base,
      error: dispatcher,
      findings: [{ severity: 'error', kind: 'transport', message: dispatcher.message }],
      documents: [],
    } as Mutable<Exchange>;
    out.judgement = { verdict: decideVerdict(out) };
    return out;
  }
  const outcome = await sendHttp(spec, {
    dispatcher,
    timeoutMs,
    connectTimeoutMs: connectTimeoutOf(timeoutMs),
    maxReplyBytes: input.maxReplyBytes ?? environment.maxReplyBytes,
    signal: input.signal,
    displayUrl: display.url,
    judgedOnly: true,
  });
  const whole = outcome.status !== undefined && !outcome.error && outcome.complete && outcome.body !== undefined;
  const memo = whole && input.replies ? input.replies.for(prepared) : undefined;
  const contentType = outcome.headers?.[0]?.[1];
  if (memo) {
    const known = memo.find(outcome.status!, outcome.statusText ?? '', contentType, outcome.body!);
    if (known) return fromReading(base, known, outcome.timing);
  }
  const { reply, parsed, findings } = await readOutcome(outcome, prepared, environment, undefined);
  const exchange = exchangeOf(base, outcomeOf(outcome, reply, parsed, findings), redactor);
  if (memo && exchange.reply) {
    const { reply: r, fault, parsed: p, findings: f, documents, judgement } = exchange;
    const read: ReadReply = { reply: r, ...(fault ? { fault } : {}), ...(p !== undefined ? { parsed: p } : {}), findings: f, documents, judgement: judgement! };
    memo.keep(outcome.status!, outcome.statusText ?? '', contentType, outcome.body!, read);
  }
  return exchange;
}

/** The exchange of a reply read before: its reading, shared (frozen), with this exchange's own timing. */
function fromReading(base: Mutable<Omit<Exchange, 'findings' | 'documents'>>, read: ReadReply, timing: Timing): Exchange {
  const out = base as Mutable<Exchange>;
  out.reply = read.reply;
  out.timing = timing;
  if (read.fault) out.fault = read.fault;
  out.findings = read.findings;
  if (read.parsed !== undefined) out.parsed = read.parsed;
  out.documents = read.documents;
  out.judgement = read.judgement;
  return out;
}

/** The URL without its query (where a GET's key would be) or fragment. */
function endpointOf(url: string): string {
  const query = url.indexOf('?');
  const fragment = url.indexOf('#');
  const end = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment);
  return end < 0 ? url : url.slice(0, end);
}

/** An Exchange's own fields that come before anything is sent, in the Exchange's order (source, when there is one, before request), without spreading. */
function baseOf(input: SendInput, prepared: PreparedRequest, startedAt: number): Mutable<Omit<Exchange, 'findings' | 'documents'>> {
  const { op, binding, display } = prepared;
  const base = {
    id: randomUUID(),
    startedAt: timestamp(startedAt),
    operation: op.operation,
    version: op.version,
    binding,
    environment: input.environment.name,
    endpoint: endpointOf(display.url),
  } as Mutable<Omit<Exchange, 'findings' | 'documents'>>;
  const source = input.source ?? input.request.fileName;
  if (source !== undefined) base.source = source;
  base.request = display;
  return base;
}
/** The displayed request with the headers as sent, redacted (the wire's carry no key today; a header a proxy or variable adds might). */
function displayAsSent(display: HttpRequestSpec, sent: HttpRequestSpec['headers'], r: Redactor): HttpRequestSpec {
  return { ...display, headers: r.empty ? sent : redactedHeaders(sent, r) };
}

/** What send() learnt once the request went; absent parts are undefined here and left out of the Exchange. */
type Outcome = Pick<Exchange, 'reply' | 'timing' | 'sizes' | 'fault' | 'findings' | 'parsed' | 'documents' | 'error'>;

/** What the transport and the reading of its reply give an exchange, not yet redacted (a judged-only exchange has no sizes). */
function outcomeOf(
  outcome: HttpOutcome,
  reply: HttpReply | undefined,
  parsed: ParsedReply | undefined,
  findings: Finding[],
  sizes?: Outcome['sizes'],
): Outcome {
  // One literal, sizes included: spreading it into another was a few µs of every send at concurrency 1.
  return {
    reply,
    timing: outcome.timing,
    sizes,
    fault: parsed?.fault,
    findings,
    parsed: parsed?.parsed,
    documents: parsed?.documents ?? [],
    error: outcome.error && { kind: outcome.error.kind, message: outcome.error.message },
  };
}

/**
 * Headers (a reply's, a request's as sent) with every secret masked. Searched as one text first, each value in double
 * quotes: every value is whole in it, and where a value starts or ends the text has a `"`, which
 * bounds a whole value as the start or end of a text does (a short secret is masked only as a
 * whole value, redact.ts). What finds nothing there is in no value: the headers are kept as they
 * came. A find, even one made only by the joining, sends each value through the redactor.
 */
function redactedHeaders(headers: HttpReply['headers'], r: Redactor): HttpReply['headers'] {
  let joined = '';
  for (let i = 0; i < headers.length; i++) joined += `"${headers[i][1]}"`;
  if (!r.finds(joined)) return headers;
  return headers.map((h) => [h[0], r.text(h[1])] as const);
}

/**
 * The Exchange, made once from `base` (send's own, not shared), every text through the
 * redactor; document bytes are the server's and stay. Keys go in the order the Exchange has
 * always had (JSON output and history read as before), and a part that is absent is left out
 * rather than set undefined.
 *
 * The parsed reply and the fault are read out of the body text: every string in them is a piece
 * of it, entity-decoded only where the body has an `&`. A body with no `&` and no spelling of a
 * secret therefore cannot have put one in them, and they are not walked.
 */
function exchangeOf(base: Mutable<Omit<Exchange, keyof Outcome>>, x: Outcome, r: Redactor): Exchange {
  const redact = !r.empty;
  const body = x.reply?.bodyText;
  // The body is searched once: a body with no secret in it is its own redacted text.
  const bodyHolds = redact && body !== undefined && r.finds(body);
  const fromBodyClean = !redact || (body !== undefined && !body.includes('&') && !bodyHolds);
  const out = base as Mutable<Exchange>;
  if (redact && out.endpoint) out.endpoint = r.text(out.endpoint);
  if (x.reply) out.reply = redact ? { ...x.reply, headers: redactedHeaders(x.reply.headers, r), bodyText: bodyHolds ? r.text(body!) : body! } : x.reply;
  out.timing = x.timing;
  if (x.sizes) out.sizes = x.sizes;
  if (x.fault) out.fault = fromBodyClean ? x.fault : r.deep(x.fault);
  out.findings = redact && x.findings.length ? r.deep(x.findings) : x.findings;
  if (x.parsed !== undefined) out.parsed = fromBodyClean ? x.parsed : r.deep(x.parsed);
  out.documents = redact ? x.documents.map((d) => ({ ...d, name: r.text(d.name), path: r.text(d.path) })) : x.documents;
  if (x.error) out.error = redact ? { ...x.error, message: r.text(x.error.message) } : x.error;
  // Judged as it is made: the verdict, from the redacted findings (the runner and the editor add the file's expect, runner/judge.ts).
  out.judgement = { verdict: decideVerdict(out) };
  return out;
}

/** A request file that does not validate: its findings, formatted `file:line:col: error: …`. */
export class RequestFileError extends RequestError {
  constructor(
    readonly fileName: string,
    readonly findings: readonly FileFinding[],
  ) {
    super(
      'file',
      findings
        .filter((f) => f.severity === 'error')
        .map((f) => formatFinding(fileName, f))
        .join('\n') || `${fileName}: not a request file`,
    );
    this.name = 'RequestFileError';
  }
}

export interface SendFileInput extends Omit<SendInput, 'request'> {
  readonly text: string;
  readonly fileName: string;
  /** Used when the file names no binding (the editor's `carrier.defaultBinding`). */
  readonly defaultBinding?: Binding;
  /** Send a file whose errors are all in values, as written (validate.ts `sendableRequest`). */
  readonly anyway?: boolean;
}

/** Validates request-file text and sends it; a file with errors throws RequestFileError unsent (unless `anyway` and they are value errors). */
export async function sendRequestFile(input: SendFileInput): Promise<Exchange> {
  const validation = validateRequestText(input.text, input.fileName, {
    context: input.context,
    ...(input.defaultBinding ? { defaultBinding: input.defaultBinding } : {}),
  });
  const request = sendableRequest(validation, input.anyway);
  if (!request) throw new RequestFileError(input.fileName, validation.findings);
  return send({ ...input, request, asWritten: input.anyway === true, source: input.source ?? input.fileName });
}
