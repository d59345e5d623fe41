/**
 * Where an API key sent to an environment goes: the origin of its base URL (scheme, host, port),
 * the proxy in between, and whether TLS is verified. The extension binds a stored key to the
 * destination it was stored for, so a repository that redefines "production" — another base URL,
 * a proxy, `tls.rejectUnauthorized: false` — never receives the key without the user saying so.
 */
import type { Environment } from './types';

export interface KeyDestination {
  /** Equal for two environments exactly when a key sent to either lands in the same place. */
  readonly id: string;
  /** The same, for a person: `https://api.carrier.example:443 via proxy http://proxy:3128`. */
  readonly label: string;
}

const EMBEDDED: KeyDestination = { id: 'embedded', label: 'the embedded sandbox' };

function origin(url: string): string {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' ? '443' : u.protocol === 'http:' ? '80' : '');
    return `${u.protocol}//${u.hostname.toLowerCase()}${port ? `:${port}` : ''}`;
  } catch {
    return url;
  }
}

export function keyDestination(env: Pick<Environment, 'embedded' | 'baseUrl' | 'proxy' | 'tls'>): KeyDestination {
  if (env.embedded) return EMBEDDED;
  const parts = [origin(env.baseUrl)];
  if (env.proxy) parts.push(`via proxy ${origin(env.proxy)}`);
  if (env.tls?.rejectUnauthorized === false) parts.push('without TLS verification');
  const label = parts.join(' ');
  return { id: label, label };
}
