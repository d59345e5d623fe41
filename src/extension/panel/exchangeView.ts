/**
 * Shapes an exchange for the webview: the raw body is capped so one message never carries 60 MB,
 * and the request file's expectations are the ones judged when it was sent (its `judgement`),
 * never judged again here.
 */
import type { Exchange } from '../../core';
import type { ExchangeDetail, ExchangeView, ExpectationReport } from '../../webview/protocol';

/** About 1 MB of text: more than anyone reads in a raw view, little enough to render at once. */
export const RAW_BODY_CAP_CHARS = 1_048_576;

/**
 * A reply bigger than this is shown in two messages: first its header (status, findings, the
 * body's first HEAD_BODY_CHARS), then, once the webview has drawn that, its parsed reply and raw
 * body. A 45 MB trace parses to some 24 MB of JSON, which took seconds to cross to the webview
 * while the panel showed nothing.
 */
export const DEFER_DETAIL_CHARS = 262_144;
export const HEAD_BODY_CHARS = 16_384;

/**
 * The judgement's expectations with the file named for display (`displayPath`: the panel makes it
 * workspace-relative). A fresh send and an exchange reopened from History alike: what was judged
 * when it was sent, whatever the file says now.
 */
export function expectationReport(exchange: Exchange, displayPath: (file: string) => string = (f) => f): ExpectationReport | undefined {
  const judged = exchange.judgement?.expectations;
  return judged && { ...judged, file: judged.file ? displayPath(judged.file) : judged.file };
}

/** A copy of the first `n` characters that does not keep the whole body alive (V8 slices point into their parent). */
function ownSlice(text: string, n: number): string {
  return text.length <= n ? text : (' ' + text.slice(0, n)).slice(1);
}

/** Whether a reply is big enough to send in two messages (its body is what its parsed reply is read from). */
export function defersDetail(exchange: Exchange): boolean {
  return (exchange.reply?.bodyText.length ?? 0) > DEFER_DETAIL_CHARS;
}

/** The first message of a large reply: everything but the parsed reply, and the body's start. */
export function toHeadView(exchange: Exchange, trimmed = false, displayPath?: (file: string) => string): ExchangeView {
  if (!defersDetail(exchange)) return toExchangeView(exchange, trimmed, displayPath);
  const body = exchange.reply!.bodyText;
  const expectations = expectationReport(exchange, displayPath);
  const { parsed: _parsed, ...rest } = exchange;
  return {
    exchange: { ...rest, reply: { ...exchange.reply!, bodyText: ownSlice(body, HEAD_BODY_CHARS) } },
    bodyTruncatedFrom: body.length,
    trimmed,
    detailPending: true,
    ...(expectations ? { expectations } : {}),
  };
}

/** The second message: the parsed reply and the body capped at RAW_BODY_CAP_CHARS. */
export function toDetail(exchange: Exchange): ExchangeDetail {
  const body = exchange.reply?.bodyText ?? '';
  return {
    exchangeId: exchange.id,
    parsed: exchange.parsed,
    bodyText: ownSlice(body, RAW_BODY_CAP_CHARS),
    ...(body.length > RAW_BODY_CAP_CHARS ? { bodyTruncatedFrom: body.length } : {}),
  };
}

export function toExchangeView(exchange: Exchange, trimmed = false, displayPath?: (file: string) => string): ExchangeView {
  const body = exchange.reply?.bodyText;
  const expectations = expectationReport(exchange, displayPath);
  const extra = expectations ? { expectations } : {};
  if (!exchange.reply || body === undefined || body.length <= RAW_BODY_CAP_CHARS) return { exchange, trimmed, ...extra };
  return {
    exchange: { ...exchange, reply: { ...exchange.reply, bodyText: ownSlice(body, RAW_BODY_CAP_CHARS) } },
    bodyTruncatedFrom: body.length,
    trimmed,
    ...extra,
  };
}
