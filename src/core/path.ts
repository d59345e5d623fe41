/**
 * The one spelling of a path into JSON, a request file's or a parsed reply's:
 * `params.request.Items[0].Width`, `Result.Shipment[0].ErrorMessage`. Findings, messages, the
 * runner's failures and the panel's tree (which reads paths back to reveal them) all write it so.
 * A key is written plainly where a reply path (src/core/runner/replyPath.ts) reads it back as one
 * name, and as a quoted JSON string in brackets otherwise: `a["with space"]`, `a["dot.ted"]`.
 */
export type PathSegment = string | number;

const PLAIN_KEY = /^[^.[\]\s"]+$/u;

export function joinPath(parent: string, segment: PathSegment): string {
  if (typeof segment === 'number') return `${parent}[${segment}]`;
  if (PLAIN_KEY.test(segment)) return parent === '' ? segment : `${parent}.${segment}`;
  return `${parent}[${JSON.stringify(segment)}]`;
}

export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) out = joinPath(out, segment);
  return out;
}

/** The segments of a path `formatPath` wrote. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  const re = /\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([^.[\]]+)/g;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m[1] !== undefined) segments.push(Number(m[1]));
    else if (m[2] !== undefined) segments.push(JSON.parse(m[2]) as string);
    else if (m[3] !== undefined) segments.push(m[3]);
  }
  return segments;
}
