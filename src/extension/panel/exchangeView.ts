/** Shapes an exchange for the webview: the raw body is capped so one message never carries 60 MB. */
import type { Exchange } from '../../core';
import type { ExchangeView, ExpectationReport } from '../../webview/protocol';

/** About 1 MB of text: more than anyone reads in a raw view, little enough to render at once. */
export const RAW_BODY_CAP_CHARS = 1_048_576;

export function toExchangeView(exchange: Exchange, trimmed = false, expectations?: ExpectationReport): ExchangeView {
  const body = exchange.reply?.bodyText;
  const extra = expectations ? { expectations } : {};
  if (!exchange.reply || body === undefined || body.length <= RAW_BODY_CAP_CHARS) return { exchange, trimmed, ...extra };
  return {
    exchange: { ...exchange, reply: { ...exchange.reply, bodyText: body.slice(0, RAW_BODY_CAP_CHARS) } },
    bodyTruncatedFrom: body.length,
    trimmed,
    ...extra,
  };
}
