/** Where the inspector forwards to: origin, path prefix, Host header and a pooled agent. */
import * as http from 'node:http';
import * as https from 'node:https';
import type { InspectorOptions } from './types';

export interface Target {
  /** The base URL as shown: no credentials, no trailing slash. */
  readonly display: string;
  /** Prepended to every request path (a base URL such as https://host/ltl has one). */
  readonly prefix: string;
  /** The Host header the target expects. */
  readonly host: string;
  request(options: http.RequestOptions): http.ClientRequest;
  close(): void;
}

export class TargetError extends Error {}

export function makeTarget(baseUrl: string, tls?: InspectorOptions['tls']): Target {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TargetError(`${baseUrl} is not a URL: give an http(s) base URL or an environment name`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetError(`${baseUrl}: only http and https targets can be inspected`);
  if (url.search || url.hash) throw new TargetError(`${baseUrl}: a base URL has no query or fragment`);
  const secure = url.protocol === 'https:';
  // Connections are reused: opening one per request would cost more than everything else the proxy does.
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: 64, ...(tls?.ca ? { ca: tls.ca } : {}), ...(tls?.cert ? { cert: tls.cert } : {}), ...(tls?.key ? { key: tls.key } : {}), ...(tls?.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}) })
    : new http.Agent({ keepAlive: true, maxSockets: 64 });
  const prefix = url.pathname.replace(/\/+$/, '');
  const display = `${url.protocol}//${url.host}${prefix}`;
  const base = { protocol: url.protocol, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || undefined, agent };
  return {
    display,
    prefix,
    host: url.host,
    request: (options) => (secure ? https : http).request({ ...base, ...options }),
    close: () => agent.destroy(),
  };
}
