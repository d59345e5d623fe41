/**
 * One pooled dispatcher per distinct transport setting (TLS files, proxy, connect timeout), reused
 * across sends so keep-alive connections and TLS sessions carry over from one request to the next.
 */
import * as fs from 'node:fs';
import type { Agent as UndiciAgent, Dispatcher, ProxyAgent as UndiciProxyAgent } from 'undici';
import type { TlsSettings } from '../environments/types';
import { timedConnector } from './socketTiming';

export interface TransportSettings {
  readonly tls?: TlsSettings;
  readonly proxy?: string;
  readonly connectTimeoutMs: number;
}

/** A TLS file that cannot be read: reported as a tls error, before anything is sent. */
export class TlsFileError extends Error {
  constructor(readonly setting: string, readonly file: string, cause: string) {
    super(`cannot read tls.${setting} file ${file}: ${cause}`);
    this.name = 'TlsFileError';
  }
}

/*
 * The two dispatchers straight from their modules: undici's index also loads fetch, WebSocket,
 * caching and mocking, half of the library and a quarter of the extension bundle, none of it
 * used here. (undici has no exports map, so these paths are reachable; they are stable since 6.)
 */
const Agent: typeof UndiciAgent = require('undici/lib/dispatcher/agent.js');
const ProxyAgent: typeof UndiciProxyAgent = require('undici/lib/dispatcher/proxy-agent.js');
// What undici's index does besides exporting: the proxy agent tunnels with its client's connect().
Object.assign(require('undici/lib/dispatcher/dispatcher.js').prototype, require('undici/lib/api/index.js'));

const pool = new Map<string, Dispatcher>();

function read(setting: string, file: string | undefined): Buffer | undefined {
  if (file === undefined) return undefined;
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new TlsFileError(setting, file, (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message);
  }
}

function mtime(file: string | undefined): number | undefined {
  try {
    return file === undefined ? undefined : fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

export function dispatcherFor(settings: TransportSettings): Dispatcher {
  const { tls, proxy, connectTimeoutMs } = settings;
  // Changed certificate files on disk make a new pool rather than keep using the old ones. Most
  // sends name neither TLS files nor a proxy: their key is the timeout alone, nothing to stat.
  const key = tls === undefined && proxy === undefined
    ? String(connectTimeoutMs)
    : JSON.stringify([tls, proxy, connectTimeoutMs, mtime(tls?.caPath), mtime(tls?.certPath), mtime(tls?.keyPath)]);
  let dispatcher = pool.get(key);
  if (dispatcher) return dispatcher;
  const tlsOptions = {
    ca: read('ca', tls?.caPath),
    cert: read('cert', tls?.certPath),
    key: read('key', tls?.keyPath),
    rejectUnauthorized: tls?.rejectUnauthorized ?? true,
  };
  dispatcher = proxy
    ? new ProxyAgent({ uri: proxy, requestTls: { ...tlsOptions, timeout: connectTimeoutMs }, proxyTls: { timeout: connectTimeoutMs } })
    : new Agent({ connect: timedConnector({ ...tlsOptions, timeout: connectTimeoutMs }) });
  pool.set(key, dispatcher);
  return dispatcher;
}

/** Closes every pooled connection (the CLI before it exits, tests after a suite). */
export async function closeTransport(): Promise<void> {
  const all = [...pool.values()];
  pool.clear();
  await Promise.all(all.map((d) => d.destroy().catch(() => undefined)));
}
