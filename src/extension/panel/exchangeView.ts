/**
 * Shapes an exchange for the webview: the raw body is capped so one message never carries 60 MB,
 * and the request file's expectations are the ones judged when it was sent (its `judgement`),
 * never judged again here.
 */
import type { Exchange } from '../../core';
import type { ExchangeView, ExpectationReport } from '../../webview/protocol';

/** About 1 MB of text: more than anyone reads in a raw view, little enough to render at once. */
export const RAW_BODY_CAP_CHARS = 1_048_576;

/**
 * The judgement's expectations with the file named for display (`displayPath`: the panel makes it
 * workspace-relative). A fresh send and an exchange reopened from History alike: what was judged
 * when it was sent, whatever the file says now.
 */
export function expectationReport(exchange: Exchange, displayPath: (file: string) => string = (f) => f): ExpectationReport | undefined {
  const judged = exchange.judgement?.expectations;
  return judged && { ...judged, file: judged.file ? displayPath(judged.file) : judged.file };
}

export function toExchangeView(exchange: Exchange, trimmed = false, displayPath?: (file: string) => string): ExchangeView {
  const body = exchange.reply?.bodyText;
  const expectations = expectationReport(exchange, displayPath);
  const extra = expectations ? { expectations } : {};
  if (!exchange.reply || body === undefined || body.length <= RAW_BODY_CAP_CHARS) return { exchange, trimmed, ...extra };
  return {
    exchange: { ...exchange, reply: { ...exchange.reply, bodyText: body.slice(0, RAW_BODY_CAP_CHARS) } },
    bodyTruncatedFrom: body.length,
    trimmed,
    ...extra,
  };
}
