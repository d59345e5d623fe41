/**
 * The API keys a request carries, so every copy of it can be redacted before anything is kept.
 * The key is the first child APIKey of the wrapper in SOAP and a query or form field in GET and
 * POST (authentication rule 1); some clients also add `?APIKEY=` to the URL (facts §2). A request
 * the catalog does not know is searched the same way, by name, so its key is hidden too.
 */
import { decodeEntities } from '../xml/dom';
import { headerValue } from './headers';
import { FORM_MEDIA_TYPE, parseMediaType } from './mediaType';
import { splitTarget } from './recognize';
import type { HeaderInput, Recognition, RequestInput } from './types';

const KEY_NAME = /^api[-_]?key$/i;
const KEY_ELEMENT = /<(?:[\w.-]+:)?api[-_]?key\b[^>]*>\s*(?:<!\[CDATA\[([\s\S]*?)\]\]>|([^<]*))/gi;
/** Headers whose values are credentials wherever they go. */
export const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|apikey|x-auth-token)$/i;

function fieldKeys(form: URLSearchParams, out: Set<string>): void {
  for (const [name, value] of form) if (KEY_NAME.test(name)) out.add(value);
}

/** Credentials in headers: the whole value, and for `Scheme token` the token alone. */
export function headerSecrets(headers: HeaderInput): string[] {
  const out: string[] = [];
  const pairs = Array.isArray(headers) ? (headers as ReadonlyArray<readonly [string, string]>) : Object.entries(headers as Record<string, string | readonly string[] | undefined>).flatMap(([n, v]) => (v === undefined ? [] : (typeof v === 'string' ? [v] : v).map((x) => [n, x] as const)));
  for (const [name, value] of pairs) {
    if (!SECRET_HEADER.test(name) || !value.trim()) continue;
    out.push(value);
    const token = /^\s*[A-Za-z][\w-]*\s+(\S.*)$/.exec(value)?.[1];
    if (token) out.push(token);
  }
  return out;
}

export function apiKeysIn(input: RequestInput, recognition?: Recognition): string[] {
  const keys = new Set<string>();
  if (recognition?.kind === 'operation' && typeof recognition.params?.APIKey === 'string') keys.add(recognition.params.APIKey);
  const target = splitTarget(input.url);
  if (target) fieldKeys(target.query, keys);
  if (parseMediaType(headerValue(input.headers, 'content-type')).type === FORM_MEDIA_TYPE) fieldKeys(new URLSearchParams(input.body), keys);
  for (const m of input.body.matchAll(KEY_ELEMENT)) keys.add(m[1] ?? decodeEntities(m[2] ?? ''));
  for (const s of headerSecrets(input.headers)) keys.add(s);
  // An empty or blank key hides nothing, and redacting blanks would wreck every copy.
  return [...keys].filter((k) => k.trim() !== '');
}
