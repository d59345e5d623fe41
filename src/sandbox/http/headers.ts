/**
 * Reply headers that are valid whatever the request held. Node refuses to send a header value
 * with characters outside Latin-1 (and a sandbox that lets it throw answers 500); HTTP itself
 * only promises printable ASCII. Text from a request (element names, for the ignored-elements
 * header) is therefore percent-encoded as UTF-8 beyond printable ASCII, as URLs are.
 */
import { validateHeaderName } from 'node:http';

/** Printable ASCII, with `%` and anything else percent-encoded (UTF-8), so the encoding can be undone. */
export function headerText(text: string): string {
  // encodeURIComponent refuses a lone surrogate: it is written as U+FFFD, as a UTF-8 decoder would.
  const whole = text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  return whole.replace(/[^\x20-\x24\x26-\x7e]/gu, (c) => encodeURIComponent(c));
}

/**
 * A list of request-supplied names as one header value: each name encoded, joined by `, `, and
 * cut between names (never inside an escape) with a count of the rest.
 */
export function headerList(items: readonly string[], maxLength: number): string {
  let out = '';
  for (let i = 0; i < items.length; i++) {
    const item = headerText(items[i]!);
    const next = out ? `${out}, ${item}` : item;
    const rest = items.length - i;
    if (next.length > maxLength) return `${out}${out ? ', ' : ''}... (${rest} more)`;
    out = next;
  }
  return out;
}

/** The headers as they can be sent: invalid names dropped, values made printable ASCII. */
export function sendableHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    try {
      validateHeaderName(name);
    } catch {
      continue;
    }
    out[name] = /^[\t\x20-\x7e]*$/.test(value) ? value : headerText(value);
  }
  return out;
}
