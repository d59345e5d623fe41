/** Line/character range of a JSON path in request-file text (for editors that hold only text). */
import { JsonSource, type RangePart } from './source';
import type { JsonPath, Range } from './types';

/**
 * Parses `text` (or reuses a JsonSource) and returns where `path` is; a path that does not exist
 * gives its nearest existing ancestor's location. Keep the JsonSource for repeated lookups.
 */
export function rangeOfPath(text: string | JsonSource, path: JsonPath, part: RangePart = 'value'): Range {
  const source = typeof text === 'string' ? new JsonSource(text) : text;
  return source.rangeOf(path, part);
}
