/**
 * The two spellings of a location in a request file: for people (`params.request.Accessorials[2]`,
 * core's one path spelling, src/core/path.ts), and as a JSON pointer key.
 */
import type { JsonPath } from './types';

export { formatPath } from '../path';

/** RFC 6901 JSON pointer: `/params/request/Items/0/Width`. */
export function numberKey(path: JsonPath): string {
  let out = '';
  for (const segment of path) out += '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
}
