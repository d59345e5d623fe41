/**
 * An exchange as reports keep it: the request and the reply as text, bodies cut at a limit. A
 * reply can carry a PDF as base64 and a run can have thousands of tests; a report that holds
 * every byte of every exchange would be too big to open, and what a person reads is the start.
 */
import type { Exchange } from '../exchange';
import type { Redactor } from '../redact';
import type { ExchangeTranscript, TranscriptMessage } from './types';

/** Characters of each body a report keeps. */
export const MAX_TRANSCRIPT_BODY = 64 * 1024;

/** `body` cut at `limit` into `into`: its `body`, and `bodyCut` when it was cut (assigned, not spread: this is per test). */
function cutInto<T extends object>(into: T, body: string, limit: number): T & Pick<TranscriptMessage, 'body' | 'bodyCut'> {
  const out = into as T & { body: string; bodyCut?: number };
  if (body.length <= limit) {
    out.body = body;
    return out;
  }
  // Never split a surrogate pair: a lone half is not text a report can carry.
  let end = limit;
  const code = body.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  out.body = `${body.slice(0, end)}…`;
  out.bodyCut = body.length - end;
  return out;
}

/** The exchange's request and reply as text, redacted again by the run's redactor, bodies cut at `limit`. */
export function transcriptOf(exchange: Exchange, redactor: Redactor, limit = MAX_TRANSCRIPT_BODY): ExchangeTranscript {
  const r = exchange.request;
  // The exchange is redacted as it is made (exchange.ts); masking again costs little and covers a reply that echoes a secret.
  const request = cutInto(
    { method: r.method, url: redactor.text(r.url), headers: r.headers.map((h) => [h[0], redactor.text(h[1])] as const) },
    redactor.text(r.body),
    limit,
  );
  const out: { -readonly [K in keyof ExchangeTranscript]: ExchangeTranscript[K] } = { request };
  const reply = exchange.reply;
  if (reply)
    out.reply = cutInto(
      { status: reply.status, statusText: reply.statusText, headers: reply.headers.map((h) => [h[0], redactor.text(h[1])] as const) },
      redactor.text(reply.bodyText),
      limit,
    );
  if (exchange.error) out.error = redactor.text(`${exchange.error.kind}: ${exchange.error.message}`);
  return out;
}
