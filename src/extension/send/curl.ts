/**
 * A request as a curl command line. The request is redacted, so a masked API key becomes a
 * reference to $CARRIER_API_KEY: the copied command works in a shell that exports the key, and
 * the key itself never reaches the clipboard.
 */
import type { HttpRequestSpec } from '../../core/exchange';

export const MASK = '••••';

export function toCurl(request: HttpRequestSpec): string {
  const parts = ['curl', '--silent', '--show-error'];
  if (request.method !== 'GET' || request.body !== '') parts.push('-X', request.method);
  for (const [name, value] of request.headers) {
    // curl computes these itself; sending stale ones breaks the request.
    if (/^(content-length|host|connection|transfer-encoding)$/i.test(name)) continue;
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (request.body !== '') parts.push('--data-binary', shellQuote(request.body));
  parts.push(shellQuote(request.url));
  return parts.join(' ');
}

/** POSIX single quoting, with the mask spliced out as a double-quoted variable reference. */
export function shellQuote(text: string): string {
  return text
    .split(MASK)
    .map((piece) => `'${piece.replace(/'/g, `'\\''`)}'`)
    .join('"$CARRIER_API_KEY"')
    .replace(/^''(?=")/, '')
    .replace(/(?<=")''$/, '');
}
