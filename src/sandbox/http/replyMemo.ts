/**
 * The reply memo (SandboxOptions.replyMemo, off by default): a reply the sandbox computed for a
 * request whose answer follows from the request alone (a 200 of an operation that reads neither
 * the store nor the clock, RouteResult.keep) is kept, and the same request — method, URL,
 * Content-Type, SOAPAction and body bytes — is answered with it again before any routing, parsing
 * or pricing. server.ts sends the requests it may answer this way through here (their body read
 * by readWhole); a body with no kept reply goes on to the route, which takes it through
 * presetBody (http/body.ts) with the limits it would have read it with.
 *
 * Bounded by entries and bytes; the oldest entry goes first. Every step is linear in the request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ClientGone, tooSlow, type RequestRefused } from './body';

/** Bodies up to this size come through the memo; larger ones (or chunked ones) go the normal way. */
export const MEMO_BODY_BYTES = 64 * 1024;

export interface MemoBounds {
  /** Replies kept at most. */
  readonly entries: number;
  /** Bytes kept at most: keys, bodies and a fixed allowance per entry. */
  readonly bytes: number;
}

export const DEFAULT_MEMO_BOUNDS: MemoBounds = { entries: 4096, bytes: 32 * 1024 * 1024 };

/** What an entry costs beyond its key and body: the objects, its headers, the Map's slot. */
const ENTRY_OVERHEAD = 512;

export interface KeptReply {
  readonly status: number;
  /** As the sandbox sent them the first time (Content-Type, Content-Length, Cache-Control…). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The log label of the request that computed it. */
  readonly label: string;
  /** Lines the routes logged while computing it ("  ignored: …"): said again each time it is served. */
  readonly notes: readonly string[];
  /** Values the log masks in lines about it: the key its request carried (in the body, so in the key). */
  readonly secrets: readonly string[];
}

/** A request that came through the memo with no reply kept for it: where its reply is kept, if it may be. */
export interface MemoRequest {
  readonly key: string;
  readonly body: Buffer;
}

interface Entry {
  /** The request body it answers (the key holds only its hash). */
  readonly request: Buffer;
  readonly reply: KeptReply;
  readonly size: number;
}

/**
 * A 32-bit hash of every byte, four at a time: a body's text as a Map key would cost V8 a hash
 * of each character (about 2.5 µs for a 1.3 KB rate quote, this about 0.5). Two bodies with one
 * hash are told apart by their bytes (ReplyMemo.get).
 */
function bodyHash(b: Buffer): number {
  let h = b.length | 0;
  const words = b.length & ~3;
  let i = 0;
  for (; i < words; i += 4) {
    h = Math.imul(h ^ (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)), 0x9e3779b1);
    h ^= h >>> 15;
  }
  for (; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x9e3779b1);
  return h >>> 0;
}

/**
 * The memo key of a request whose body has been read: its method, URL, Content-Type and
 * SOAPAction as text, its body by hash and length (the body itself is compared on a hit).
 */
export function memoKey(req: IncomingMessage, body: Buffer): string {
  const h = req.headers;
  // No part can hold a line break (node's parser refuses them in the request line and headers).
  return `${bodyHash(body)}:${body.length}\n${req.method} ${req.url}\n${h['content-type'] ?? ''}\n${String(h.soapaction ?? '')}`;
}

export class ReplyMemo {
  private readonly kept = new Map<string, Entry>();
  /** Keys in the order they were kept: the oldest is evicted first (a Map's own order would leave holes to walk). */
  private order: string[] = [];
  private oldest = 0;
  private bytes = 0;

  constructor(private readonly bounds: MemoBounds = DEFAULT_MEMO_BOUNDS) {}

  /** Replies kept now. */
  get entries(): number {
    return this.kept.size;
  }

  /** Bytes counted now. */
  get byteSize(): number {
    return this.bytes;
  }

  /** Keys in the eviction queue, evicted ones not yet dropped from it (tests: it stays bounded). */
  get queued(): number {
    return this.order.length;
  }

  /** The reply kept for this key and body. */
  get(key: string, body: Buffer): KeptReply | undefined {
    const entry = this.kept.get(key);
    return entry && entry.request.equals(body) ? entry.reply : undefined;
  }

  /**
   * Keeps a reply. A key kept already keeps its first: for the same body the reply is the same;
   * another body with the same hash (rare) is simply not kept.
   */
  keep(key: string, body: Buffer, reply: KeptReply): void {
    if (this.kept.has(key)) return;
    let size = ENTRY_OVERHEAD + key.length + body.length + reply.body.length + reply.label.length;
    for (const [name, value] of Object.entries(reply.headers)) size += name.length + value.length;
    for (const n of reply.notes) size += n.length;
    for (const s of reply.secrets) size += s.length;
    if (size > this.bounds.bytes) return;
    // A copy of its own: the body read may be a slice of a larger buffer the entry would hold on to.
    const request = Buffer.allocUnsafeSlow(body.length);
    body.copy(request);
    this.kept.set(key, { request, reply, size });
    this.order.push(key);
    this.bytes += size;
    while (this.kept.size > this.bounds.entries || this.bytes > this.bounds.bytes) this.evictOldest();
  }

  private evictOldest(): void {
    const key = this.order[this.oldest++]!;
    const entry = this.kept.get(key)!;
    this.kept.delete(key);
    this.bytes -= entry.size;
    // The evicted keys are dropped from the queue now and then, in one linear step.
    if (this.oldest >= 1024 && this.oldest * 2 >= this.order.length) {
      this.order = this.order.slice(this.oldest);
      this.oldest = 0;
    }
  }
}

const EMPTY = Buffer.alloc(0);
const ignore = (): void => undefined;

/** What readWhole reads into `done`. */
export type WholeBody = Buffer | RequestRefused | ClientGone;

/** Called once a body is read (or refused, or its client gone): one function for every request. */
export type WholeBodyDone = (req: IncomingMessage, res: ServerResponse, read: WholeBody, started: number) => void;

const READING = Symbol('replyMemo.reading');

interface Reading {
  readonly res: ServerResponse;
  readonly done: WholeBodyDone;
  readonly deadlineMs: number;
  readonly started: number;
  first: Buffer | undefined;
  more: Buffer[] | undefined;
  size: number;
  settled: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

type ReadingRequest = IncomingMessage & { [READING]?: Reading };

/**
 * Reads a request's whole body (one whose Content-Length is known and small), as lean as a bare
 * server does: no promise and no closure per request (the listeners are these functions, the
 * state hangs on the request), and a deadline timer only for a body that has not arrived with
 * its headers. `done` is called once, with the body, the refusal when the deadline passes (the
 * rest then flows on unread), or ClientGone.
 */
export function readWhole(req: IncomingMessage, res: ServerResponse, deadlineMs: number, done: WholeBodyDone): void {
  const r: ReadingRequest = req;
  r[READING] = { res, done, deadlineMs, started: Date.now(), first: undefined, more: undefined, size: 0, settled: false, timer: undefined };
  r.on('data', onData);
  r.on('end', onEnd);
  r.on('error', onError);
  r.on('close', onClose);
  // A body that came in the packet of its headers has been parsed by the next tick.
  process.nextTick(armDeadline, r);
}

function settle(req: ReadingRequest, read: WholeBody): void {
  const r = req[READING]!;
  if (r.settled) return;
  r.settled = true;
  if (r.timer) clearTimeout(r.timer);
  r.first = undefined;
  r.more = undefined;
  r.done(req, r.res, read, r.started);
}

function onData(this: ReadingRequest, c: Buffer): void {
  const r = this[READING]!;
  if (r.settled) return;
  r.size += c.length;
  if (r.first === undefined) r.first = c;
  else (r.more ??= [r.first]).push(c);
}

function onEnd(this: ReadingRequest): void {
  const r = this[READING]!;
  settle(this, r.more ? Buffer.concat(r.more, r.size) : (r.first ?? EMPTY));
}

function onError(this: ReadingRequest): void {
  settle(this, new ClientGone('the client closed the connection before its body was complete'));
}

function onClose(this: ReadingRequest): void {
  if (!this.complete) settle(this, new ClientGone('the client closed the connection before its body was complete'));
}

function armDeadline(req: ReadingRequest): void {
  const r = req[READING]!;
  if (!r.settled && !req.complete) r.timer = setTimeout(deadlinePassed, r.deadlineMs, req);
}

function deadlinePassed(req: ReadingRequest): void {
  const r = req[READING]!;
  r.timer = undefined;
  req.on('error', ignore);
  req.resume();
  settle(req, tooSlow(r.deadlineMs));
}
