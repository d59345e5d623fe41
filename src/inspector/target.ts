/** Where the inspector forwards to: origin, path prefix, the Host header, and how to connect. */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { Environment } from '../core';
import type { InspectorOptions } from './types';

export interface Target {
  /** The base URL as shown: no credentials, no trailing slash. */
  readonly display: string;
  /** Prepended to every request path (a base URL such as https://host/ltl has one). */
  readonly prefix: string;
  /** The Host header the target expects. */
  readonly host: string;
  /** https: the connection is ready on 'secureConnect' rather than 'connect'. */
  readonly secure: boolean;
  /** A new connection to the target; over TLS for https, so what is written to it is plain HTTP either way. */
  connect(): net.Socket;
}

export class TargetError extends Error {}

export function makeTarget(baseUrl: string, tlsOptions?: InspectorOptions['tls']): Target {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TargetError(`${baseUrl} is not a URL: give an http(s) base URL or an environment name`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetError(`${baseUrl}: only http and https targets can be inspected`);
  if (url.search || url.hash) throw new TargetError(`${baseUrl}: a base URL has no query or fragment`);
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 443 : 80));
  const prefix = url.pathname.replace(/\/+$/, '');
  return {
    display: `${url.protocol}//${url.host}${prefix}`,
    prefix,
    host: url.host,
    secure,
    connect: () => {
      if (!secure) return net.connect({ host: hostname, port, noDelay: true });
      return tls.connect({
        host: hostname,
        port,
        servername: net.isIP(hostname) ? undefined : hostname,
        ...(tlsOptions?.ca ? { ca: tlsOptions.ca } : {}),
        ...(tlsOptions?.cert ? { cert: tlsOptions.cert } : {}),
        ...(tlsOptions?.key ? { key: tlsOptions.key } : {}),
        ...(tlsOptions?.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
      });
    },
  };
}

/** An environment's TLS files (a CA to trust, a client certificate) as the inspector's options. */
export function tlsOptionsOf(environment: Pick<Environment, 'tls'> | undefined): InspectorOptions['tls'] {
  const t = environment?.tls;
  if (!t) return undefined;
  const read = (p: string | undefined) => (p ? fs.readFileSync(p) : undefined);
  return { ca: read(t.caPath), cert: read(t.certPath), key: read(t.keyPath), rejectUnauthorized: t.rejectUnauthorized };
}
