/** The request as people read it (`carrier envelope`, Show Envelope) and as a curl command. */
import type { HttpRequestSpec } from '../exchange';

/** `METHOD URL`, the headers, a blank line, the body. */
export function formatHttpRequest(spec: HttpRequestSpec): string {
  const lines = [`${spec.method} ${spec.url}`, ...spec.headers.map(([n, v]) => `${n}: ${v}`)];
  return `${lines.join('\n')}\n\n${spec.body}`;
}

/** POSIX shell single quotes: nothing inside is special except the quote itself. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command that sends exactly this request. --data-binary keeps the body byte for byte
 * (plain -d would strip newlines) and implies POST, so no -X is needed.
 */
export function toCurl(spec: HttpRequestSpec): string {
  const parts = [`curl ${shellQuote(spec.url)}`];
  for (const [n, v] of spec.headers) parts.push(`-H ${shellQuote(`${n}: ${v}`)}`);
  if (spec.method === 'POST') parts.push(`--data-binary ${shellQuote(spec.body)}`);
  return parts.join(' \\\n  ') + '\n';
}
