/**
 * A recording folder: per exchange `NNN-<Operation>.exchange.json` (the redacted Exchange and the
 * catalog's reading of the request), the raw bodies beside it (masked byte for byte; a compressed
 * body as its decoded, masked text, named `.decoded`), and for a call of the catalog
 * `NNN-<Operation>.carrier.json`, a request file that makes the same call and expects the same
 * outcome — so `carrier run <folder>` replays the session as a collection.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';
import { ENVIRONMENTS_FILE, expectFromExchange, mediaType, requestFileFromRecognized, type Exchange } from '../core';
import type { ReadExchange } from './readCapture';
import type { RecognitionSummary, RecordEnvironment, RecordingFiles } from './types';

export const RECORDING_FORMAT = 'carrier-inspector-recording';
export const EXCHANGE_SUFFIX = '.exchange.json';

/** What an `.exchange.json` holds. */
export interface RecordingDocument {
  readonly format: typeof RECORDING_FORMAT;
  readonly v: 1;
  readonly seq: number;
  readonly files: RecordingFiles;
  /** A body recorded as its decoded text (UTF-8) rather than the bytes as they went: what was undone (`gzip`, `utf-16be`…). */
  readonly decoded?: { readonly request?: string; readonly reply?: string };
  readonly recognition: RecognitionSummary;
  /** Document bytes are left out: they are in the raw reply beside this file. */
  readonly exchange: Exchange;
}

const NUMBERED = /^(\d+)-/;

/** The number the next exchange of a folder gets: one past the highest already there. */
export function nextNumber(dir: string): number {
  let highest = 0;
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 1;
  }
  for (const n of names) {
    const m = NUMBERED.exec(n);
    if (m) highest = Math.max(highest, Number(m[1]));
  }
  return highest + 1;
}

export function prefixOf(seq: number, label: string): string {
  return `${String(seq).padStart(3, '0')}-${label.replace(/[^\w.-]+/g, '_')}`;
}

function extensionFor(contentType: string | undefined, bytes: Buffer): string {
  const type = mediaType(contentType);
  if (type.endsWith('/xml') || type.endsWith('+xml')) return '.xml';
  if (type === 'application/x-www-form-urlencoded') return '.form.txt';
  if (type === 'text/html') return '.html';
  if (type === 'application/json') return '.json';
  if (type.startsWith('text/')) return '.txt';
  return bytes.subarray(0, 64).toString('latin1').trimStart().startsWith('<') ? '.xml' : '.bin';
}

const contentTypeOf = (headers: ReadonlyArray<readonly [string, string]> | undefined) => headers?.find(([n]) => n.toLowerCase() === 'content-type')?.[1];

/**
 * Why a request file cannot make the very call that was recorded: the workbench only builds
 * well-formed requests, so a client's own mistake (a wrong SOAP action, an operation element in
 * another namespace, an unknown HTTP parameter, which the service refuses) is not reproduced.
 */
function notReproduced(r: Extract<RecognitionSummary, { kind: 'operation' }>, e?: Pick<Exchange, 'request'>): string | undefined {
  const problem = r.problems.find((p) => p.code !== 'truncated');
  if (problem) return problem.message;
  // A request file always sends the environment's key and an envelope without SOAP headers.
  const key = r.params?.APIKey;
  if (r.params && (key === undefined || key === ''))
    return `the client sent ${key === undefined ? 'no APIKey' : 'an empty APIKey'}, and a replay sends the environment's key`;
  if (e && (r.binding === 'soap11' || r.binding === 'soap12') && /<(?:[\w.-]+:)?Header\b[^>]*>\s*<[^/!?]/.test(e.request.body)) {
    return `the client sent SOAP headers${/mustUnderstand\s*=\s*["'](?:1|true)["']/.test(e.request.body) ? ' (one with mustUnderstand)' : ''}, which a request file cannot carry`;
  }
  const unknown = r.issues.filter((i) => i.kind === 'unknown').map((i) => i.path);
  if ((r.binding === 'get' || r.binding === 'post') && unknown.length)
    return `it also sent ${unknown.join(', ')}, which the service refuses and a request file cannot carry`;
  return undefined;
}

/** The recorded exchange as a request file, or undefined when it is not a call of the catalog (or its body was not kept whole). */
export function recordedRequestFile(x: Pick<ReadExchange, 'exchange' | 'recognition'>, secrets: Iterable<string>, environment?: string): string | undefined {
  const r = x.recognition;
  if (r.kind !== 'operation' || !r.params) return undefined;
  const e = x.exchange;
  const outcome = e.reply ? `HTTP ${e.reply.status}${e.fault ? `, SOAP fault ${e.fault.code}` : ''}` : `no reply${e.error ? ` (${e.error.kind})` : ''}`;
  const differs = notReproduced(r, e);
  const expect = differs ? undefined : expectFromExchange(e);
  return requestFileFromRecognized(r, {
    secrets,
    ...(environment ? { environment } : {}),
    description: `${r.operation} ${r.version} as recorded on ${e.startedAt.slice(0, 19).replace('T', ' ')} (#${e.recorded?.seq ?? '?'})`,
    ...(expect ? { expect } : {}),
    comment: [
      `Recorded by the Carrier traffic inspector: ${e.request.method} ${e.request.url} → ${outcome}`,
      ...(differs ? [`This file sends the call as the contract has it, so the outcome seen then is not expected here: ${differs}`] : []),
      ...(r.keptOutOfNamespace
        ? [
            `The client sent these parameters outside the namespaces of the contract (${r.keptOutOfNamespace}); they are kept here and sent in the contract's namespaces, whereas the service may refuse the namespace the client used`,
          ]
        : []),
    ],
  });
}

const sameUrl = (a: unknown, b: string) => typeof a === 'string' && a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * A URL target as an environment of the recording folder's own carrier.environments.json (made,
 * or added to in place): the name of an entry already there with this baseUrl, else `wanted`, else
 * `wanted-2`, `wanted-3`… Environments are found by walking up from the folder being run, so this
 * file is the one `carrier run <folder>` reads.
 */
export async function environmentInFolder(dir: string, wanted: RecordEnvironment & { readonly baseUrl: string }): Promise<string> {
  const file = path.join(dir, ENVIRONMENTS_FILE);
  const ns = wanted.namespaces;
  const entry = {
    description: `The target carrier inspect recorded against (${wanted.baseUrl})`,
    baseUrl: wanted.baseUrl,
    ...(ns ? { serviceNamespace: ns.service, dataNamespace: ns.data, pickupNamespace: ns.pickup } : {}),
  };
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    await fs.promises.writeFile(file, `${JSON.stringify({ [wanted.name]: entry }, null, 2)}\n`, { flag: 'wx' });
    return wanted.name;
  }
  const errors: ParseError[] = [];
  const doc = parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length || doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new Error(`${file} is not a JSON object, so the recording's target cannot be added to it`);
  const envs = doc as Record<string, unknown>;
  const same = Object.entries(envs).find(([, v]) => v !== null && typeof v === 'object' && sameUrl((v as Record<string, unknown>).baseUrl, wanted.baseUrl));
  if (same) return same[0];
  let name = wanted.name;
  for (let i = 2; Object.prototype.hasOwnProperty.call(envs, name); i++) name = `${wanted.name}-${i}`;
  const edits = modify(text, [name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  await fs.promises.writeFile(file, applyEdits(text, edits));
  return name;
}

export class RecordingWriter {
  private ready: Promise<void> | undefined;
  /** The environment the request files name, once known. */
  private environment: string | undefined;

  constructor(
    readonly dir: string,
    readonly target?: RecordEnvironment,
  ) {}

  private init(): Promise<void> {
    return (this.ready ??= (async () => {
      await fs.promises.mkdir(this.dir, { recursive: true });
      const t = this.target;
      this.environment = t?.baseUrl ? await environmentInFolder(this.dir, { ...t, baseUrl: t.baseUrl }) : t?.name;
      const collection = path.join(this.dir, 'collection.json');
      const text = `${JSON.stringify({ name: `Recorded with carrier inspect`, description: 'Each request file makes a call the traffic inspector recorded and expects the outcome seen then.', concurrency: 1 }, null, 2)}\n`;
      await fs.promises.writeFile(collection, text, { flag: 'wx' }).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
    })());
  }

  async write(x: ReadExchange, secrets: Iterable<string>): Promise<RecordingFiles> {
    await this.init();
    const label = x.recognition.kind === 'operation' ? x.recognition.operation : 'unknown';
    const prefix = prefixOf(x.seq, label);
    const e = x.exchange;
    const files: { -readonly [K in keyof RecordingFiles]: RecordingFiles[K] } = { exchange: `${prefix}${EXCHANGE_SUFFIX}` };
    const writes: Array<Promise<void>> = [];
    const put = (name: string, data: string | Buffer) => writes.push(fs.promises.writeFile(path.join(this.dir, name), data));
    // A decoded body says so in its name: it is not the bytes as they went.
    const marked = (side: 'request' | 'reply') => (x.decoded?.[side] ? '.decoded' : '');
    if (x.requestBytes.length)
      put((files.requestBody = `${prefix}.request${marked('request')}${extensionFor(contentTypeOf(e.request.headers), x.requestBytes)}`), x.requestBytes);
    if (x.replyBytes?.length)
      put((files.replyBody = `${prefix}.reply${marked('reply')}${extensionFor(contentTypeOf(e.reply?.headers), x.replyBytes)}`), x.replyBytes);
    const requestFile = recordedRequestFile(x, secrets, this.environment);
    if (requestFile) put((files.requestFile = `${prefix}.carrier.json`), requestFile);
    const doc: RecordingDocument = {
      format: RECORDING_FORMAT,
      v: 1,
      seq: x.seq,
      files,
      ...(x.decoded ? { decoded: x.decoded } : {}),
      recognition: x.recognition,
      exchange: { ...e, documents: e.documents.map((d) => ({ ...d, base64: '' })) },
    };
    put(files.exchange, `${JSON.stringify(doc, null, 2)}\n`);
    await Promise.all(writes);
    return files;
  }
}
