/**
 * What only the relay saw, added to an exchange once it is read (readCapture.ts makes the shape
 * every exchange has): the upload phase, interim replies, trailers, and whether the client's reply
 * was the inspector's own. Redacted like everything else.
 */
import { MASK, SECRET_HEADER, type Exchange, type Redactor, type WireFacts } from '../core';
import type { Capture } from './capture';
import type { InspectedExchange } from './types';

type Fields = ReadonlyArray<readonly [string, string]>;

const round = (ms: number) => Math.round(ms * 100) / 100;

export function withWireFacts(x: Exchange, c: Capture, r: Redactor): InspectedExchange {
  // Heads are latin1 text of the bytes as they came (readCapture.ts masks its headers the same way).
  const fields = (pairs: Fields): Fields => pairs.map(([n, v]) => [n, SECRET_HEADER.test(n) ? MASK : r.text(v, { utf8Bytes: true })] as const);
  const wire: WireFacts = {
    ...(c.interim?.length
      ? { interim: c.interim.map((i) => ({ status: i.status, statusText: r.text(i.statusText, { utf8Bytes: true }), headers: fields(i.headers) })) }
      : {}),
    ...(c.requestTrailers ? { requestTrailers: fields(c.requestTrailers) } : {}),
    ...(c.replyTrailers ? { replyTrailers: fields(c.replyTrailers) } : {}),
    ...(c.answered ? { answered: c.answered } : {}),
  };
  const timing = x.timing && c.requestSentAt !== undefined ? { ...x.timing, uploadMs: round(c.requestSentAt) } : x.timing;
  return { ...x, ...(timing ? { timing } : {}), ...(Object.keys(wire).length ? { wire } : {}) };
}
