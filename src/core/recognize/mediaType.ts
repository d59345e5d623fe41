/**
 * Content-Type as clients really write it: any case, optional charset, SOAP 1.2's `action`
 * parameter quoted with double quotes, single quotes (seen in a real client,
 * docs/carrier-facts.md#envelope-styles) or not at all.
 */
import type { SoapVersion } from './types';

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

/** The SOAP version a Content-Type announces (docs/wire.md#transport-rule-2, docs/wire.md#transport-rule-3); undefined for anything else. */
export function soapVersionOf(media: MediaType): SoapVersion | undefined {
  return media.type === 'text/xml' ? '1.1' : media.type === 'application/soap+xml' ? '1.2' : undefined;
}

export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';
