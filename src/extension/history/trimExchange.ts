/**
 * What of an exchange is worth keeping on disk. Replies can be tens of megabytes; history keeps
 * enough to read a past result, and says so when it dropped something. The judgement (the verdict
 * and the request file's expectations as judged when it was sent) and the findings are always
 * kept whole: a reopened entry shows what was decided then, even without its parsed reply.
 */
import { type DecodedDocument, type Exchange } from '../../core';

export const KEEP_BODY_CHARS = 1_000_000;
export const KEEP_DOCUMENTS_BYTES = 8_000_000;
export const KEEP_PARSED_CHARS = 8_000_000;

export interface StoredExchange {
  readonly v: 1;
  readonly trimmed: boolean;
  readonly exchange: Exchange;
}

/**
 * Too large to hold whole for the session: a reply body, documents or parsed tree past what
 * history keeps. Memory then holds what disk holds (historyStore.ts), and the whole body a file.
 */
export function isLarge(exchange: Exchange): boolean {
  if ((exchange.reply?.bodyText.length ?? 0) > KEEP_BODY_CHARS) return true;
  if (exchange.documents.reduce((n, d) => n + d.base64.length, 0) > KEEP_DOCUMENTS_BYTES) return true;
  return exchange.parsed !== undefined && roughSize(exchange.parsed, KEEP_PARSED_CHARS) > KEEP_PARSED_CHARS;
}

export function trimForStorage(exchange: Exchange): StoredExchange {
  let trimmed = false;
  let reply = exchange.reply;
  if (reply && reply.bodyText.length > KEEP_BODY_CHARS) {
    reply = { ...reply, bodyText: reply.bodyText.slice(0, KEEP_BODY_CHARS) };
    trimmed = true;
  }
  let documents: readonly DecodedDocument[] = exchange.documents;
  const docBytes = documents.reduce((n, d) => n + d.base64.length, 0);
  if (docBytes > KEEP_DOCUMENTS_BYTES) {
    documents = documents.map((d) => ({ ...d, base64: '' }));
    trimmed = true;
  }
  let parsed = exchange.parsed;
  if (parsed !== undefined && roughSize(parsed, KEEP_PARSED_CHARS) > KEEP_PARSED_CHARS) {
    parsed = undefined;
    trimmed = true;
  }
  return { v: 1, trimmed, exchange: trimmed ? { ...exchange, reply, documents, parsed } : exchange };
}

/**
 * Stops counting once past `limit`, so sizing a huge tree costs no more than the limit. A stack
 * of its own for depth, and children pushed one by one for width: spreading a 150,000-item list
 * into push() overflows the call stack just as deep recursion does.
 */
function roughSize(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (Array.isArray(v)) {
      size += 2;
      for (const child of v) stack.push(child);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        size += k.length + 4;
        stack.push(child);
      }
    } else size += 8;
  }
  return size;
}
