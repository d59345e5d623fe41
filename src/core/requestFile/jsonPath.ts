/** The two spellings of a location in a request file: for people, and as a JSON pointer key. */
import type { JsonPath } from './types';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `params.request.Accessorials[2]` — the form messages and findings use. */
export function formatPath(path: JsonPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** RFC 6901 JSON pointer: `/params/request/Items/0/Width`. */
export function numberKey(path: JsonPath): string {
  let out = '';
  for (const segment of path) out += '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
}
