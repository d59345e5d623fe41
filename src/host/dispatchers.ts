/**
 * The HTTP dispatchers of one context: one pooled undici dispatcher per distinct transport
 * setting (TLS files, proxy, connect timeout), reused across sends so keep-alive connections and
 * TLS sessions carry over from one request to the next. undici's `Agent`, `ProxyAgent` and
 * `buildConnector` only, required on the first send: a command that sends nothing (`carrier
 * validate`) never loads it. A pool whose certificate files changed on disk is replaced and
 * closed; `close()` closes them all when the face is done.
 */
import * as fs from 'node:fs';
import type { Dispatcher } from 'undici';
import { TlsFileError, type CoreHttp, type SocketWaiter, type TransportSettings } from '../core';
import { SocketTiming } from './socketTiming';

type Undici = Pick<typeof import('undici'), 'Agent' | 'ProxyAgent' | 'buildConnector'>;

function readTls(setting: string, file: string | undefined): Buffer | undefined {
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

/**
 * The parts of undici a send uses, each from its own module: `require('undici')` would also load
 * fetch, WebSocket, cookies, the mocks and the caches, more than half of undici's load time, paid
 * by every command that sends (BENCHMARKS.md, runner-throughput). The paths are the locked
 * version's (package-lock.json); the bundler resolves them at build time, so a release that moves
 * them fails the build, not a user's send. A direct send calls `dispatch` only; a proxy's tunnel
 * is opened with the `connect` method undici's index adds to every dispatcher, so that is added
 * here, as the index does, before the first proxy is made.
 */
const undiciParts = {
  /* eslint-disable @typescript-eslint/no-require-imports */
  agent: () => require('undici/lib/dispatcher/agent') as Undici['Agent'],
  buildConnector: () => require('undici/lib/core/connect') as Undici['buildConnector'],
  proxyAgent(): Undici['ProxyAgent'] {
    const dispatcher = require('undici/lib/dispatcher/dispatcher') as { prototype: object };
    Object.assign(dispatcher.prototype, require('undici/lib/api') as object);
    return require('undici/lib/dispatcher/proxy-agent') as Undici['ProxyAgent'];
  },
  /** The lean HTTP/1.1 dispatcher (leanDispatcher.ts), with http-parser-js: loaded by the first one made. */
  lean: () => (require('./leanDispatcher') as typeof import('./leanDispatcher')).LeanDispatcher,
  /* eslint-enable @typescript-eslint/no-require-imports */
};

export interface NodeDispatchersOptions {
  /**
   * Plain `http:` requests without a proxy go over the lean dispatcher (src/host/leanDispatcher.ts):
   * one write per request, a pure-JS parser as strict as undici's, no more of HTTP than a send
   * uses, and a third of undici's CPU per exchange. Every face's by default; TLS, proxies and
   * whatever the lean one does not speak go to undici. `false`: undici for everything (the lean
   * dispatcher's tests compare the two).
   */
  readonly lean?: boolean;
}

export class NodeDispatchers implements CoreHttp {
  private agent: Undici['Agent'] | undefined;
  private proxyAgent: Undici['ProxyAgent'] | undefined;
  private buildConnector: Undici['buildConnector'] | undefined;
  /** By setting: the key without file stamps, then the dispatcher and the stamps it was made at. */
  private readonly pool = new Map<string, { readonly stamps: string; readonly dispatcher: Dispatcher }>();
  private readonly timing = new SocketTiming();
  /**
   * A lean dispatcher's request is being started: the waiter its handler sets is the lean
   * dispatcher's to tell (it publishes no undici channel), not the socket timing's.
   */
  private leanStarting = false;
  private leanWaiter: SocketWaiter | undefined;
  private readonly expecting = {
    begin: (): void => {
      this.leanStarting = true;
      this.leanWaiter = undefined;
    },
    end: (): SocketWaiter | undefined => {
      const w = this.leanWaiter;
      this.leanStarting = false;
      this.leanWaiter = undefined;
      return w;
    },
  };

  constructor(private readonly options: NodeDispatchersOptions = {}) {}

  dispatcherFor(settings: TransportSettings): Dispatcher {
    const { tls, proxy, connectTimeoutMs } = settings;
    // Most sends name neither TLS files nor a proxy: their key is the timeout alone, nothing to stat.
    const plain = tls === undefined && proxy === undefined;
    const key = plain ? String(connectTimeoutMs) : JSON.stringify([tls, proxy, connectTimeoutMs]);
    const stamps = plain ? '' : JSON.stringify([mtime(tls?.caPath), mtime(tls?.certPath), mtime(tls?.keyPath)]);
    const pooled = this.pool.get(key);
    if (pooled?.stamps === stamps) return pooled.dispatcher;
    const tlsOptions = {
      ca: readTls('ca', tls?.caPath),
      cert: readTls('cert', tls?.certPath),
      key: readTls('key', tls?.keyPath),
      rejectUnauthorized: tls?.rejectUnauthorized ?? true,
    };
    const agent = (): Dispatcher =>
      new (this.agent ??= undiciParts.agent())({
        connect: this.timing.timedConnector((this.buildConnector ??= undiciParts.buildConnector()), { ...tlsOptions, timeout: connectTimeoutMs }),
      });
    const dispatcher: Dispatcher = proxy
      ? new (this.proxyAgent ??= undiciParts.proxyAgent())({
          uri: proxy,
          requestTls: { ...tlsOptions, timeout: connectTimeoutMs },
          proxyTls: { timeout: connectTimeoutMs },
        })
      : this.options.lean !== false
        ? // The part of a Dispatcher sendHttp uses (dispatch, close, destroy); https: and the rest go to undici's agent, made on first need.
          (new (undiciParts.lean())({ connectTimeoutMs, fallback: agent, expecting: this.expecting }) as unknown as Dispatcher)
        : agent();
    // Changed certificate files make a new pool; the old one finishes what it carries and goes.
    if (pooled) void pooled.dispatcher.close().catch(() => undefined);
    this.pool.set(key, { stamps, dispatcher });
    return dispatcher;
  }

  expectSocket(waiter: SocketWaiter): void {
    if (this.leanStarting) this.leanWaiter = waiter;
    else this.timing.expectSocket(waiter);
  }

  async close(): Promise<void> {
    const all = [...this.pool.values()];
    this.pool.clear();
    this.timing.close();
    await Promise.all(all.map((p) => p.dispatcher.destroy().catch(() => undefined)));
  }
}
