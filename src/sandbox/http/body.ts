/**
 * Reads a request body within limits: a size (refused from Content-Length before a byte is read,
 * or as soon as a chunked body passes it), a deadline (a client dripping bytes is cut off) and,
 * for forms, a field count checked as the bytes arrive. A refusal stops the buffering at once;
 * the server then answers and closes the connection (server.ts), since the rest of the body is
 * never read.
 */
import type { IncomingMessage } from 'node:http';
import { byteText } from './limits';

/** A request the sandbox will not read to the end: the HTTP status and the reason to send. */
export class RequestRefused extends Error {
  constructor(
    readonly status: 400 | 408 | 413 | 431,
    message: string,
  ) {
    super(message);
    this.name = 'RequestRefused';
  }
}

/** The client went away before its body was complete: there is nobody to answer. */
export class ClientGone extends Error {}

export interface BodyLimits {
  readonly maxBytes: number;
  readonly deadlineMs: number;
  /** Form bodies: refuse more fields than this (counted by their `&` separators). */
  readonly maxFields?: number;
}

/**
 * `Expect: 100-continue` requests: the server registers how to invite the body, and the body is
 * invited only when it is about to be read, so a refusal from the headers alone costs the client
 * nothing.
 */
const continueHooks = new WeakMap<IncomingMessage, () => void>();

export function deferContinue(req: IncomingMessage, writeContinue: () => void): void {
  continueHooks.set(req, writeContinue);
}

/**
 * Bodies read before routing (the reply memo's front, http/replyMemo.ts), or the refusal met while
 * reading them: readBody hands them over with the same limits, as if it had read them itself.
 */
const preRead = new WeakMap<IncomingMessage, Buffer | RequestRefused>();

/** The whole body of `req`, already read (or the refusal its reading met), for readBody to take. */
export function presetBody(req: IncomingMessage, body: Buffer | RequestRefused): void {
  preRead.set(req, body);
}

/** A body read before routing, held to the same limits readBody holds a body to as it arrives. */
function takePreRead(body: Buffer | RequestRefused, limits: BodyLimits): Promise<Buffer> {
  if (body instanceof RequestRefused) return Promise.reject(body);
  if (body.length > limits.maxBytes) return Promise.reject(tooLarge(limits.maxBytes));
  if (limits.maxFields !== undefined && separators(body) >= limits.maxFields) return Promise.reject(tooManyFields(limits.maxFields));
  return Promise.resolve(body);
}

export function tooLarge(limit: number): RequestRefused {
  return new RequestRefused(413, `Request Entity Too Large: the body is larger than ${byteText(limit)}, the most this endpoint reads.`);
}

export function tooSlow(deadlineMs: number): RequestRefused {
  return new RequestRefused(408, `Request Timeout: the body did not arrive within ${deadlineMs / 1000} s.`);
}

export function tooManyFields(limit: number, what = 'form fields'): RequestRefused {
  return new RequestRefused(400, `Bad Request: more than ${limit.toLocaleString('en-US')} ${what} (ASP.NET's limit, and the sandbox's).`);
}

/** Content-Length as declared, when it is one clean number. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const v = req.headers['content-length'];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** `&` bytes in a chunk; a loop over indexOf, so linear however the bytes are spread. */
function separators(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(0x26); i >= 0; i = chunk.indexOf(0x26, i + 1)) n++;
  return n;
}

export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > limits.maxBytes) return Promise.reject(tooLarge(limits.maxBytes));
  const read = preRead.get(req);
  if (read !== undefined) {
    preRead.delete(req);
    return takePreRead(read, limits);
  }
  const invite = continueHooks.get(req);
  continueHooks.delete(req);
  invite?.();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let separatorsSeen = 0;
    const timer = setTimeout(() => refuse(tooSlow(limits.deadlineMs)), limits.deadlineMs);
    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onClose);
    };
    const refuse = (e: Error) => {
      cleanup();
      chunks.length = 0;
      // The rest of the body flows on unbuffered until the server has answered and closes.
      req.on('error', () => undefined);
      req.resume();
      reject(e);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limits.maxBytes) return refuse(tooLarge(limits.maxBytes));
      if (limits.maxFields !== undefined) {
        // n separators make n + 1 fields.
        separatorsSeen += separators(c);
        if (separatorsSeen >= limits.maxFields) return refuse(tooManyFields(limits.maxFields));
      }
      chunks.push(c);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onGone = () => {
      cleanup();
      reject(new ClientGone('the client closed the connection before its body was complete'));
    };
    const onClose = () => {
      if (!req.complete) onGone();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onClose);
  });
}
