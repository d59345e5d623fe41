/** Shapes an exchange for the webview: the raw body is capped so one message never carries 60 MB. */
import type { Exchange } from '../../core';
import type { ExchangeView } from '../../webview/protocol';

/** About 1 MB of text: more than anyone reads in a raw view, little enough to render at once. */
export const RAW_BODY_CAP_CHARS = 1_048_576;

export function toExchangeView(exchange: Exchange, trimmed = false): ExchangeView {
  const body = exchange.reply?.bodyText;
  if (!exchange.reply || body === undefined || body.length <= RAW_BODY_CAP_CHARS) return { exchange, trimmed };
  return {
    exchange: { ...exchange, reply: { ...exchange.reply, bodyText: body.slice(0, RAW_BODY_CAP_CHARS) } },
    bodyTruncatedFrom: body.length,
    trimmed,
  };
}
