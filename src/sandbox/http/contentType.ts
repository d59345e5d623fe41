/**
 * Content-Type as clients really write it: any case, optional charset, SOAP 1.2's `action`
 * parameter quoted with double quotes, single quotes (seen in a real client) or not at all.
 */

export interface MediaType {
  /** Lower-case type/subtype, '' when the header is missing. */
  readonly type: string;
  /** Parameter names lower-cased, values unquoted. */
  readonly params: ReadonlyMap<string, string>;
}

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && ((t[0] === '"' && t.endsWith('"')) || (t[0] === "'" && t.endsWith("'")))) return t.slice(1, -1);
  return t;
}

export function parseMediaType(header: string | undefined): MediaType {
  const params = new Map<string, string>();
  if (!header) return { type: '', params };
  // A quoted action may itself contain ';' only in theory; split on ';' outside quotes anyway.
  const parts = header.match(/(?:[^;"']+|"[^"]*"|'[^']*')+/g) ?? [];
  const [type = '', ...rest] = parts;
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    params.set(p.slice(0, eq).trim().toLowerCase(), unquote(p.slice(eq + 1)));
  }
  return { type: type.trim().toLowerCase(), params };
}

/** Encodings the sandbox decodes; an ASMX service accepts these and refuses others. */
const CHARSETS: Readonly<Record<string, BufferEncoding>> = {
  'utf-8': 'utf8', utf8: 'utf8', 'us-ascii': 'latin1', 'iso-8859-1': 'latin1', latin1: 'latin1',
};

/** The Node encoding for a declared charset (UTF-8 when none is declared); undefined when unsupported. */
export function encodingOf(media: MediaType): BufferEncoding | undefined {
  const cs = media.params.get('charset');
  return cs === undefined ? 'utf8' : CHARSETS[cs.toLowerCase()];
}
