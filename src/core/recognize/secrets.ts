/**
 * The API keys a request carries, so every copy of it can be redacted before anything is kept.
 * The key is the first child APIKey of the wrapper in SOAP and a query or form field in GET and
 * POST (docs/wire.md#authentication-rule-1); some clients also add `?APIKEY=` to the URL (docs/carrier-facts.md#endpoints-and-transport). A request
 * the catalog does not know is searched the same way, by name, so its key is hidden too.
 */
import { keyElementContents } from '../redact';
import { decodeEntities } from '../xml/dom';
import { headerValue } from './headers';
import { FORM_MEDIA_TYPE, parseMediaType } from './mediaType';
import { splitTarget } from './recognize';
import type { HeaderInput, Recognition, RequestInput } from './types';

const KEY_NAME = /^api[-_]?key$/i;
/** `"APIKey": "…"` in a JSON body. */
const KEY_MEMBER = /"((?:[^"\\]|\\.){1,64})"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
/** Headers whose values are credentials wherever they go: the usual ones, and any name with api-key, token, secret or password in it (`X-ApiKey`, `X-Carrier-Api-Key`). */
export const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|api[-_.]?key|auth[-_.]?token|access[-_.]?token|secret|password/i;

function fieldKeys(form: URLSearchParams, out: Set<string>): void {
  for (const [name, value] of form) if (KEY_NAME.test(name)) out.add(value);
}

/** Credentials in headers: the whole value, and for `Scheme token` the token alone. */
export function headerSecrets(headers: HeaderInput): string[] {
  const out: string[] = [];
  const pairs = Array.isArray(headers)
    ? (headers as ReadonlyArray<readonly [string, string]>)
    : Object.entries(headers as Record<string, string | readonly string[] | undefined>).flatMap(([n, v]) =>
        v === undefined ? [] : (typeof v === 'string' ? [v] : v).map((x) => [n, x] as const),
      );
  for (const [name, value] of pairs) {
    if (!SECRET_HEADER.test(name) || !value.trim()) continue;
    out.push(value);
    const token = /^\s*[A-Za-z][\w-]*\s+(\S.*)$/.exec(value)?.[1];
    if (token) out.push(token);
  }
  return out;
}

/** An element's text as XML reads it: comments dropped, CDATA sections unwrapped, references decoded. */
function elementText(raw: string): string {
  let out = '';
  const parts = /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>/g;
  let at = 0;
  for (const m of raw.matchAll(parts)) {
    out += decodeEntities(raw.slice(at, m.index)) + (m[1] ?? '');
    at = m.index + m[0].length;
  }
  return (out + decodeEntities(raw.slice(at))).trim();
}

function jsonString(escaped: string): string | undefined {
  try {
    return JSON.parse(`"${escaped}"`) as string;
  } catch {
    return undefined;
  }
}

export function apiKeysIn(input: RequestInput, recognition?: Recognition): string[] {
  const keys = new Set<string>();
  if (recognition?.kind === 'operation' && typeof recognition.params?.APIKey === 'string') keys.add(recognition.params.APIKey);
  const target = splitTarget(input.url);
  if (target) fieldKeys(target.query, keys);
  if (parseMediaType(headerValue(input.headers, 'content-type')).type === FORM_MEDIA_TYPE) fieldKeys(new URLSearchParams(input.body), keys);
  for (const [start, end] of keyElementContents(input.body)) keys.add(elementText(input.body.slice(start, end)));
  if (input.body.includes('"')) {
    for (const m of input.body.matchAll(KEY_MEMBER)) {
      const name = jsonString(m[1]);
      if (name !== undefined && KEY_NAME.test(name)) keys.add(jsonString(m[2]) ?? m[2]);
    }
  }
  for (const s of headerSecrets(input.headers)) keys.add(s);
  // An empty or blank key hides nothing, and redacting blanks would wreck every copy.
  return [...keys].filter((k) => k.trim() !== '');
}
