/**
 * Reading recording folders (what `carrier inspect --record` writes, src/inspector/recordings.ts)
 * for replay. Recordings are input from outside: what is read is budgeted before it is read (file
 * counts and sizes from the directory and stat), every field used is checked, and a recording that
 * does not read stops the start with an error naming its file. Reply bodies are kept as the bytes
 * in the recorded file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Binding } from '../../core';
import { IgnoreRules, ignoreProblem } from './params';

/** The recording format src/inspector/recordings.ts writes (RECORDING_FORMAT, v 1). */
const FORMAT = 'carrier-inspector-recording';
const EXCHANGE_SUFFIX = '.exchange.json';
export const REPLAY_CONFIG = 'replay.json';

/** What may be read, and why so much: the inspector keeps bodies up to 16 MiB by default (docs/inspector.md). */
export const REPLAY_BUDGET = {
  /** Entries listed in one folder. */
  folderEntries: 100_000,
  /** Recordings in all folders. */
  recordings: 10_000,
  /** One `.exchange.json`: the exchange holds the reply's text and its reading besides the raw body file. */
  exchangeBytes: 128 * 1024 * 1024,
  /** One recorded reply body. */
  replyBytes: 64 * 1024 * 1024,
  /** Every reply body held for replay, together. */
  totalReplyBytes: 512 * 1024 * 1024,
  /** replay.json. */
  configBytes: 1024 * 1024,
} as const;

export class ReplayLoadError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'ReplayLoadError';
  }
}

/** One recorded call, as replay needs it. */
export interface Recording {
  /** The `.exchange.json`, as found (its folder as given). */
  readonly file: string;
  /** Which of the folders given it came from, in order: the folder's replay.json applies. */
  readonly folder: number;
  readonly seq: number;
  readonly operation: string;
  readonly version: string;
  readonly binding: Binding;
  readonly params: unknown;
  /** Codes of what the recogniser noticed (a wrong action…), sorted: a call with them is another call. */
  readonly problems: readonly string[];
  readonly status: number;
  readonly statusText?: string;
  /** The reply's headers as recorded, less those that frame one particular connection. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
  /** The recorded request's size: its body, or its URL when it had none (a GET). */
  readonly requestBytes: number;
}

export interface ReplayFolder {
  readonly dir: string;
  readonly ignore: IgnoreRules;
}

export interface LoadedRecordings {
  readonly folders: readonly ReplayFolder[];
  readonly recordings: readonly Recording[];
  /** Exchanges that are no replayable call, with why (for one line in the log). */
  readonly skipped: ReadonlyArray<{ readonly file: string; readonly why: string }>;
}

const BINDINGS: ReadonlySet<string> = new Set(['soap11', 'soap12', 'get', 'post']);

/** Headers that belong to one connection or one framing, never to the reply as such; the server sets its own. */
const NOT_REPLAYED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', 'trailer', 'upgrade', 'proxy-connection']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function isPairs(v: unknown): v is Array<[string, string]> {
  return Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string');
}

/** A file name the recording names beside itself: never a path that leaves the folder. */
function besideName(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length < 300 && !/[/\\]/.test(v) && v !== '.' && v !== '..' && !v.includes('\0');
}

async function sizeOf(file: string, shown: string, limit: number, what: string): Promise<number> {
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(file);
  } catch (e) {
    throw new ReplayLoadError(shown, `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  if (!st.isFile()) throw new ReplayLoadError(shown, 'is not a file');
  if (st.size > limit)
    throw new ReplayLoadError(shown, `is ${st.size.toLocaleString('en-US')} bytes, more than the ${limit.toLocaleString('en-US')} a ${what} may have`);
  return st.size;
}

async function readConfig(dir: string): Promise<IgnoreRules> {
  const file = path.join(dir, REPLAY_CONFIG);
  try {
    await fs.promises.access(file);
  } catch {
    return IgnoreRules.NONE;
  }
  await sizeOf(file, file, REPLAY_BUDGET.configBytes, 'replay.json');
  let doc: unknown;
  try {
    doc = JSON.parse(await fs.promises.readFile(file, 'utf8'));
  } catch (e) {
    throw new ReplayLoadError(file, `is not JSON (${(e as Error).message})`);
  }
  if (!isObject(doc)) throw new ReplayLoadError(file, 'is not a JSON object such as { "ignore": ["PickupDate", "Items[*].Weight"] }');
  const unknown = Object.keys(doc).filter((k) => k !== 'ignore' && k !== '$comment');
  if (unknown.length) throw new ReplayLoadError(file, `has ${unknown.map((k) => `"${k}"`).join(', ')}; it takes "ignore" (and "$comment")`);
  const ignore = doc.ignore ?? [];
  if (!Array.isArray(ignore) || ignore.length > 1_000 || !ignore.every((p) => typeof p === 'string'))
    throw new ReplayLoadError(file, '"ignore" is not a list of at most 1,000 parameter paths (strings)');
  for (const p of ignore as string[]) {
    const problem = ignoreProblem(p);
    if (problem) throw new ReplayLoadError(file, `the ignore path ${JSON.stringify(p.slice(0, 100))} ${problem}`);
  }
  return new IgnoreRules(ignore as string[]);
}

/** Reads every `NNN-….exchange.json` of the folders, in the order given and by number inside each. */
export async function loadRecordings(dirs: readonly string[]): Promise<LoadedRecordings> {
  const folders: ReplayFolder[] = [];
  const recordings: Recording[] = [];
  const skipped: Array<{ file: string; why: string }> = [];
  let replyBytes = 0;
  for (const [index, dir] of dirs.entries()) {
    let names: string[];
    try {
      const st = await fs.promises.stat(dir);
      if (!st.isDirectory()) throw new ReplayLoadError(dir, 'is not a folder of recordings');
      names = [];
      // Listed through an iterator, so a folder of millions of files is refused without listing them all.
      const handle = await fs.promises.opendir(dir);
      for await (const entry of handle) {
        if (names.length >= REPLAY_BUDGET.folderEntries) {
          await handle.close().catch(() => undefined);
          throw new ReplayLoadError(dir, `holds more than ${REPLAY_BUDGET.folderEntries.toLocaleString('en-US')} files`);
        }
        if (entry.isFile() && entry.name.endsWith(EXCHANGE_SUFFIX)) names.push(entry.name);
      }
    } catch (e) {
      if (e instanceof ReplayLoadError) throw e;
      throw new ReplayLoadError(dir, `cannot be read as a folder of recordings (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    folders.push({ dir, ignore: await readConfig(dir) });
    if (recordings.length + names.length > REPLAY_BUDGET.recordings)
      throw new ReplayLoadError(dir, `brings the recordings to more than ${REPLAY_BUDGET.recordings.toLocaleString('en-US')}`);
    const numbered = names.map((n) => ({ n, seq: Number(/^(\d+)-/.exec(n)?.[1] ?? NaN) })).sort((a, b) => a.seq - b.seq || (a.n < b.n ? -1 : 1));
    for (const { n } of numbered) {
      const file = path.join(dir, n);
      const read = await readRecording(file, index, REPLAY_BUDGET.totalReplyBytes - replyBytes);
      if ('why' in read) skipped.push({ file, why: read.why });
      else {
        replyBytes += read.body.length;
        recordings.push(read);
      }
    }
  }
  if (!recordings.length) throw new ReplayLoadError(dirs.join(', '), 'holds no recorded call of the catalog with its reply to replay');
  return { folders, recordings, skipped };
}

async function readRecording(file: string, folder: number, replyBudget: number): Promise<Recording | { why: string }> {
  await sizeOf(file, file, REPLAY_BUDGET.exchangeBytes, 'recorded exchange');
  let doc: unknown;
  try {
    doc = JSON.parse(await fs.promises.readFile(file, 'utf8'));
  } catch (e) {
    throw new ReplayLoadError(file, `is not JSON (${(e as Error).message})`);
  }
  const bad = (what: string) => new ReplayLoadError(file, `is not a recording of carrier inspect: ${what}`);
  if (!isObject(doc) || doc.format !== FORMAT) throw bad(`"format" is not "${FORMAT}"`);
  if (doc.v !== 1) throw bad(`"v" is ${JSON.stringify(doc.v)}, and this version reads 1`);
  if (!Number.isSafeInteger(doc.seq) || (doc.seq as number) < 0) throw bad('"seq" is not a whole number');
  const { files, recognition: r, exchange: x } = doc;
  if (!isObject(files) || !besideName(files.exchange)) throw bad('"files" does not name the exchange file');
  if (!isObject(r) || (r.kind !== 'operation' && r.kind !== 'unknown')) throw bad('"recognition" is not the reading of a request');
  if (!isObject(x) || !isObject(x.request) || typeof x.request.method !== 'string' || typeof x.request.url !== 'string')
    throw bad('"exchange.request" is not a request');
  if (r.kind === 'unknown') return { why: 'not a call of the catalog' };
  if (typeof r.operation !== 'string' || typeof r.version !== 'string' || typeof r.binding !== 'string' || !BINDINGS.has(r.binding))
    throw bad('"recognition" does not name an operation, a version and a binding');
  if (!Array.isArray(r.problems) || !r.problems.every((p) => isObject(p) && typeof p.code === 'string')) throw bad('"recognition.problems" is not a list');
  if (r.params === undefined) return { why: 'its request body was not kept whole' };
  if (!isObject(r.params)) throw bad('"recognition.params" is not an object');
  const reply = x.reply;
  if (reply === undefined) return { why: 'it has no reply' };
  if (!isObject(reply) || !Number.isInteger(reply.status) || (reply.status as number) < 100 || (reply.status as number) > 599 || !isPairs(reply.headers))
    throw bad('"exchange.reply" has no status and headers');
  if (isObject(x.wire) && x.wire.answered !== undefined) return { why: "its reply was the inspector's own, not the target's" };
  if (isObject(x.recorded) && x.recorded.replyBodyTruncated === true) return { why: 'its reply body was kept only in part' };
  let body = Buffer.alloc(0);
  if (files.replyBody !== undefined) {
    if (!besideName(files.replyBody)) throw bad('"files.replyBody" is not a file name beside it');
    const bodyFile = path.join(path.dirname(file), files.replyBody);
    const size = await sizeOf(bodyFile, bodyFile, Math.min(REPLAY_BUDGET.replyBytes, replyBudget), 'recorded reply (within what is left of the replay budget)');
    body = await fs.promises.readFile(bodyFile);
    if (body.length !== size) throw new ReplayLoadError(bodyFile, 'changed while it was read');
  } else if (typeof reply.bodyText === 'string' && reply.bodyText !== '') throw bad('its reply has a body but "files.replyBody" names no file for it');
  const decoded = isObject(doc.decoded) && typeof doc.decoded.reply === 'string' ? doc.decoded.reply : undefined;
  let requestBytes = Buffer.byteLength(x.request.url);
  if (files.requestBody !== undefined) {
    if (!besideName(files.requestBody)) throw bad('"files.requestBody" is not a file name beside it');
    requestBytes = Math.max(requestBytes, (await fs.promises.stat(path.join(path.dirname(file), files.requestBody))).size);
  }
  return {
    file,
    folder,
    seq: doc.seq as number,
    operation: r.operation,
    version: r.version,
    binding: r.binding as Binding,
    params: r.params,
    problems: (r.problems as Array<{ code: string }>).map((p) => p.code).sort(),
    status: reply.status as number,
    ...(typeof reply.statusText === 'string' && /^[\t\x20-\x7e]{1,100}$/.test(reply.statusText) ? { statusText: reply.statusText } : {}),
    headers: replayedHeaders(reply.headers, decoded),
    body,
    requestBytes,
  };
}

/**
 * The recorded headers less framing ones. A body recorded decoded (`decoded.reply`: a content
 * coding undone or a charset turned into UTF-8, src/inspector/bodies.ts) goes out as recorded, so
 * its Content-Encoding is dropped and its charset becomes utf-8.
 */
function replayedHeaders(headers: ReadonlyArray<readonly [string, string]>, decoded: string | undefined): Array<[string, string]> {
  // Either way the recorded file is UTF-8 text (src/inspector/bodies.ts, utf8File).
  const recharset = decoded !== undefined;
  const out: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (NOT_REPLAYED.has(lower) || (decoded !== undefined && lower === 'content-encoding')) continue;
    out.push([name, lower === 'content-type' && recharset ? value.replace(/charset\s*=\s*("?)[^";]*\1/i, 'charset=utf-8') : value]);
  }
  return out;
}
