/**
 * Which headers pass through the proxy. Hop-by-hop headers describe one connection, not the
 * message (RFC 9110 §7.6.1), so they stop here; `Expect: 100-continue` is answered here too
 * (.NET clients send it on every POST), and Host names the target.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'x-hop', 'proxy-authorization', 'proxy-authenticate', 'expect']);

/** rawHeaders ([name, value, name, value …]) → pairs, as sent. */
export function pairsOf(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
}

function connectionTokens(raw: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].toLowerCase() !== 'connection') continue;
    for (const t of raw[i + 1].split(',')) if (t.trim()) named.add(t.trim().toLowerCase());
  }
  return named;
}

/** The end-to-end headers, flat as node:http takes them, with Host replaced when given. */
export function forwardHeaders(raw: readonly string[], host?: string): string[] {
  const named = connectionTokens(raw);
  const out: string[] = [];
  if (host !== undefined) out.push('Host', host);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || (host !== undefined && name === 'host')) continue;
    out.push(raw[i], raw[i + 1]);
  }
  return out;
}
