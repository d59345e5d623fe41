/**
 * `carrier send <file>`: sends a request file and prints status, timing, findings and the parsed
 * reply (or one JSON object with --json); --out also writes the request (redacted), the raw reply
 * and each decoded document. Exit 0 on HTTP 200 without fault or error, 1 on a fault, an in-body
 * error or a transport error, 2 on usage, file or environment errors (then nothing is sent).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandContext } from '../context';
import {
  BINDING_LABELS,
  classifyExchange,
  documentLine,
  type DecodedDocument,
  decodeText,
  type Exchange,
  findingLine,
  formatHttpRequest,
  joinPath,
  mediaType,
  missingApiKeyMessage,
  rawReplyBytes,
  Redactor,
  RequestError,
  SANDBOX_DEFAULT_KEY,
  secretValues,
  send,
  VERDICT_PHRASES,
} from '../../core';
import { keptBodyOf } from '../../inspector';
import { EmbeddedSandbox } from '../embeddedSandbox';
import { describeFlags, parseArgs, type FlagSpec } from '../args';
import type { Command } from '../command';
import { displayPath } from '../displayPath';
import { BINDING_FLAG, ENV_FLAG, loadRequestContext, VAR_FLAG } from './envelope';
import { SUMMARIES } from './summaries';

const FLAGS: readonly FlagSpec[] = [
  BINDING_FLAG,
  ENV_FLAG,
  VAR_FLAG,
  { name: 'json', description: 'print one JSON object: status, timing, fault, findings, reply, documents' },
  { name: 'out', short: 'o', value: true, description: 'folder to write request.http (redacted), the raw reply and each document into' },
];

/** Strings longer than this are shortened in the printed reply (base64 documents, huge texts). */
const SHOWN_STRING = 200;

export const sendCommand: Command = {
  name: 'send',
  summary: SUMMARIES.send,
  usage: [
    'Usage: carrier send [options] <file>',
    '',
    "Sends the request to the environment (--env, else the file's, else the embedded sandbox,",
    'started on a free loopback port for this call) and prints status, timing, findings and the',
    'reply read along the catalog. The API key comes from CARRIER_API_KEY_<ENV> or CARRIER_API_KEY',
    '(the sandbox needs none) and never appears in any output or file.',
    '',
    'Exit code: 0 HTTP 200 without fault or error, 1 fault, in-body error or transport error,',
    '2 usage, file or environment error (nothing sent).',
    '',
    'Options:',
    describeFlags(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const { positionals, flags, variables } = parseArgs(args, FLAGS);
    const context = commandContext(io);
    const ctx = loadRequestContext(context, positionals, flags, io, 'send');
    if (typeof ctx === 'number') return ctx;
    if (!ctx.apiKey && !ctx.environment.embedded) {
      io.stderr(`carrier send: ${missingApiKeyMessage(ctx.environment.name)}\n`);
      return 2;
    }
    const out = typeof flags.get('out') === 'string' ? path.resolve(io.cwd, flags.get('out') as string) : undefined;

    const sandbox = new EmbeddedSandbox();
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    let exchange: Exchange;
    try {
      exchange = await send({
        context,
        request: ctx.request,
        environment: ctx.environment,
        ...(ctx.apiKey ? { apiKey: ctx.apiKey.key } : {}),
        ...(ctx.binding ? { binding: ctx.binding } : {}),
        variables,
        signal: controller.signal,
        source: ctx.shown,
        resolveEmbedded: () => sandbox.url(ctx.environment),
      });
    } catch (err) {
      if (!(err instanceof RequestError)) throw err;
      io.stderr(`carrier send: ${ctx.shown}: ${err.message}\n`);
      return err.kind === 'sandbox' ? 1 : 2;
    } finally {
      process.off('SIGINT', onSigint);
      await context.http.close();
      await sandbox.close();
    }

    const summary = jsonSummary(exchange);
    if (flags.has('json')) io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
    else io.stdout(humanReport(exchange));
    if (out) {
      const apiKey = ctx.apiKey?.key ?? (ctx.environment.embedded ? SANDBOX_DEFAULT_KEY : undefined);
      const secrets = secretValues(apiKey, { ...ctx.environment.variables, ...variables }, ctx.environment.secrets);
      const written = await writeOut(out, exchange, summary, new Redactor(secrets), ctx.environment.maxReplyBytes);
      if (!flags.has('json')) io.stdout(`\nWritten to ${displayPath(out, io.cwd)}: ${written.join(', ')}\n`);
    }
    return classifyExchange(exchange).ok ? 0 : 1;
  },
};

// ---- output ----

/** The reply with document fields and other huge strings shortened: metadata, never bytes. */
function shownReply(exchange: Exchange): unknown {
  const documents = new Map(exchange.documents.map((d) => [d.path, d]));
  const walk = (v: unknown, at: string): unknown => {
    const doc = documents.get(at);
    if (doc && typeof v === 'string')
      return `[document ${doc.name}: ${doc.size} bytes${doc.pages !== undefined ? `, ${doc.pages} page${doc.pages === 1 ? '' : 's'}` : ''}]`;
    if (typeof v === 'string') return v.length > SHOWN_STRING ? `${v.slice(0, SHOWN_STRING)}… [${v.length} characters]` : v;
    // Bounded by the XML reader's depth limit (MAX_DEPTH in src/core/xml/parser.ts); paths spelled as documents name them.
    if (Array.isArray(v)) return v.map((x, i) => walk(x, joinPath(at, i)));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, joinPath(at, k))]));
    return v;
  };
  return walk(exchange.parsed, '');
}

function documentMeta(d: DecodedDocument): Omit<DecodedDocument, 'base64'> {
  const { base64: _bytes, ...meta } = d;
  return meta;
}

function jsonSummary(x: Exchange): Record<string, unknown> {
  const verdict = classifyExchange(x);
  return {
    operation: x.operation,
    version: x.version,
    binding: x.binding,
    environment: x.environment,
    request: { method: x.request.method, url: x.request.url },
    status: x.reply?.status ?? null,
    statusText: x.reply?.statusText ?? null,
    ok: verdict.ok,
    verdict: verdict.kind,
    reason: verdict.reason,
    timing: x.timing ?? null,
    sizes: x.sizes ?? null,
    error: x.error ?? null,
    fault: x.fault ?? null,
    findings: x.findings,
    reply: x.parsed === undefined ? null : shownReply(x),
    documents: x.documents.map(documentMeta),
  };
}

function phase(label: string, ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : `${label} ${ms} ms`;
}

function humanReport(x: Exchange): string {
  const lines: string[] = [];
  lines.push(`${x.request.method} ${x.request.url}`);
  lines.push(`${x.operation} ${x.version} · ${x.binding ? BINDING_LABELS[x.binding] : ''} · environment ${x.environment}`);
  const t = x.timing;
  const phases = t
    ? [phase('connect', t.connectMs), phase('TLS', t.tlsMs), phase('first byte', t.firstByteMs), phase('download', t.downloadMs)].filter(Boolean)
    : [];
  const status = x.reply ? `HTTP ${x.reply.status}${x.reply.statusText ? ` ${x.reply.statusText}` : ''}` : 'no reply';
  lines.push(
    `${status} · ${t ? `${t.totalMs} ms` : ''}${phases.length ? ` (${phases.join(', ')})` : ''} · sent ${x.sizes?.requestBytes ?? 0} bytes, received ${x.sizes?.replyBytes ?? 0} bytes`,
  );
  if (x.error) lines.push('', `Error (${x.error.kind}): ${x.error.message}`);
  if (x.fault) {
    lines.push('', `SOAP ${x.fault.soapVersion} fault`, `  code:   ${[x.fault.code, ...x.fault.subcodes].join(' / ')}`, `  reason: ${x.fault.reason}`);
    if (x.fault.actor) lines.push(`  ${x.fault.soapVersion === '1.2' ? 'node' : 'actor'}:  ${x.fault.actor}`);
    if (x.fault.role) lines.push(`  role:   ${x.fault.role}`);
    if (x.fault.detail !== undefined) lines.push(`  detail: ${JSON.stringify(x.fault.detail)}`);
  }
  const shown = x.findings.filter((f) => !(x.fault && f.kind === 'fault') && !(x.error && f.kind === 'transport'));
  if (shown.length) {
    lines.push('', 'Findings:');
    for (const f of shown) lines.push(`  ${findingLine(f)}`);
  }
  if (x.parsed !== undefined) lines.push('', 'Reply:', JSON.stringify(shownReply(x), null, 2));
  if (x.documents.length) {
    lines.push('', 'Documents:');
    for (const d of x.documents) lines.push(`  ${documentLine(d)}`);
  }
  // The last line is the verdict the exit code follows, so a terminal's tail always says it.
  const verdict = classifyExchange(x);
  lines.push('', verdict.ok ? `✓ ${VERDICT_PHRASES.success}` : `✗ ${VERDICT_PHRASES[verdict.kind]}: ${verdict.reason}`);
  return `${lines.join('\n')}\n`;
}

function replyExtension(x: Exchange): string {
  const type = mediaType(x.reply?.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1]);
  if (type.endsWith('xml') || type.endsWith('+xml')) return '.xml';
  if (type === 'text/html') return '.html';
  if (type.startsWith('text/')) return '.txt';
  if (type === 'application/json') return '.json';
  return x.reply?.bodyText.trimStart().startsWith('<') ? '.xml' : '.bin';
}

/**
 * The reply body as it is written: the bytes as received with every secret masked byte for byte,
 * or — when they were compressed (gzip, deflate, br) or in a charset a mask cannot stand in — the
 * decoded, masked text in UTF-8, named `reply.decoded.<ext>` so nobody takes it for the wire bytes.
 */
async function replyFile(x: Exchange, r: Redactor, cap: number): Promise<{ name: string; bytes: Buffer } | undefined> {
  const raw = rawReplyBytes(x);
  if (!raw || !x.reply) return undefined;
  const headers = x.reply.headers;
  const contentType = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  // core hands over the redacted text's UTF-8 bytes instead when the reply echoed a secret
  // (src/core/send.ts): the same bytes, masked, for a UTF-8 reply; the decoded text for another.
  if (decodeText(raw, contentType).text !== x.reply.bodyText) return { name: `reply.decoded${replyExtension(x)}`, bytes: r.bytes(raw) };
  const kept = await keptBodyOf(raw, headers, r, cap);
  return { name: `reply${kept.decoded ? '.decoded' : ''}${replyExtension(x)}`, bytes: kept.file };
}

/** request.http, reply.<ext>, exchange.json and the documents; returns the names written. */
async function writeOut(dir: string, x: Exchange, summary: Record<string, unknown>, r: Redactor, cap: number): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const write = (name: string, data: string | Uint8Array) => {
    fs.writeFileSync(path.join(dir, name), data);
    written.push(name);
  };
  write('request.http', formatHttpRequest(x.request));
  const reply = await replyFile(x, r, cap);
  if (reply) write(reply.name, reply.bytes);
  write('exchange.json', `${JSON.stringify(summary, null, 2)}\n`);
  for (const d of x.documents) if (d.base64) write(path.basename(d.name), Buffer.from(d.base64, 'base64'));
  return written;
}
