/**
 * The sandbox's log lines: bounded in length and free of keys. A line may quote a request (its
 * URL, names of elements it held, an error about it), and a request can be any size and carry
 * its key in a query string, a body or a header; so every line goes through here. Keys are
 * masked by where they stand (an `APIKey` field, element or header, however spelled) and by value
 * (the keys the sandbox accepts and the key the request itself carried, in every spelling core's
 * redactor knows).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { MASK, Redactor } from '../core';

/** Long enough for a request line with a full URL; a longer line is cut with a count. */
export const MAX_LOG_LINE = 1000;
/** Text beyond this is never looked at: the line is cut far sooner anyway. */
const SCAN_LIMIT = 64 * 1024;
/** Shorter values are masked only where they stand: by value they would mask ordinary words. */
const MIN_SECRET_BY_VALUE = 4;

/** A query or form field, header or element name that holds a key: APIKey, api_key, X-Api-Key… */
const KEY_NAME = /api[-_ ]?key/i;

/** Form decoding that never throws: a malformed escape leaves the text as it was. */
function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The values of key fields in a query string or form body: the request's own key, to be masked by value too. */
export function keyFieldValues(form: string): string[] {
  const out: string[] = [];
  for (const field of form.split('&')) {
    const eq = field.indexOf('=');
    if (eq > 0 && KEY_NAME.test(decodeName(field.slice(0, eq)))) out.push(decodeName(field.slice(eq + 1)));
  }
  return out.filter(Boolean);
}

/** Values of request headers that carry a key or credentials. */
export function keyHeaderValues(headers: IncomingHttpHeaders): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!KEY_NAME.test(name) && name !== 'authorization' && name !== 'proxy-authorization') continue;
    for (const v of Array.isArray(value) ? value : [value ?? '']) {
      if (v) out.push(v, ...v.split(/\s+/).filter((w) => w.length >= 8));
    }
  }
  return out;
}

/** `name=value` fields whose (decoded) name is a key's: the value masked, wherever the text has them. */
function maskKeyFields(text: string): string {
  return text.replace(/([?&;\s]|^)([^=&?#;\s]{1,64})=([^&#;\s]*)/g, (all, lead: string, name: string) =>
    KEY_NAME.test(decodeName(name)) ? `${lead}${name}=${MASK}` : all,
  );
}

/** `<p:APIKey>value</p:APIKey>`, `"APIKey": "value"`, `APIKey: value`: the value masked. */
function maskKeyElements(text: string): string {
  return text
    .replace(/(<(?:[\w.-]+:)?[\w.-]*api[-_]?key[\w.-]*(?:\s[^>]*)?>)([^<]*)/gi, `$1${MASK}`)
    .replace(/("[^"\\]{0,32}api[-_ ]?key[^"\\]{0,32}"\s*:\s*")((?:[^"\\]|\\.)*)/gi, `$1${MASK}`)
    .replace(/(\bapi[-_ ]?key\s*:\s*)(\S+)/gi, `$1${MASK}`);
}

function cut(text: string): string {
  if (text.length <= MAX_LOG_LINE) return text;
  const more = text.length - MAX_LOG_LINE;
  return `${text.slice(0, MAX_LOG_LINE)}… (${more.toLocaleString('en-US')} more characters)`;
}

/** One safe line: keys masked (by place and by value), control characters escaped, length bounded. */
export function safeLogLine(line: string, secrets: Iterable<string>): string {
  let text = line.length > SCAN_LIMIT ? line.slice(0, SCAN_LIMIT) : line;
  text = new Redactor([...secrets].filter((s) => s.length >= MIN_SECRET_BY_VALUE)).text(text);
  text = maskKeyElements(maskKeyFields(text));
  // One line per entry, whatever a URL or an element name held; a stack keeps its breaks as " | ".
  text = text.replace(/\r?\n\s*/g, ' | ');
  // Control characters are exactly what this looks for: a request could hide terminal escapes in a name.
  // eslint-disable-next-line no-control-regex
  text = text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return cut(text);
}

/** A log that masks the accepted keys and, per request, the keys that request carried. */
export class SandboxLog {
  constructor(
    private readonly sink: ((line: string) => void) | undefined,
    private readonly keys: readonly string[],
  ) {}

  get enabled(): boolean {
    return this.sink !== undefined;
  }

  write(line: string, requestSecrets: Iterable<string> = []): void {
    if (!this.sink) return;
    this.sink(safeLogLine(line, [...this.keys, ...requestSecrets]));
  }
}
