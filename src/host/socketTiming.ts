/**
 * Connect and TLS durations of the pool's sockets. undici does not say which socket a request
 * got, so the connector stamps each new socket, and the `undici:client:sendHeaders` channel —
 * published synchronously right after a request is handed its socket — links the socket to the
 * request that is being started at that moment (and hands it the head written on the socket).
 * One SocketTiming per set of dispatchers (a context's): it listens to the channel from its
 * first request until it is closed.
 */
import * as diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { buildConnector as BuildConnector } from 'undici';
import type { SocketStamp, SocketWaiter } from '../core';

const CHANNEL = 'undici:client:sendHeaders';

export class SocketTiming {
  private readonly stamps = new WeakMap<object, SocketStamp>();
  private waiting: SocketWaiter | undefined;
  private subscribed = false;
  private readonly onSendHeaders = (message: unknown): void => {
    const w = this.waiting;
    if (!w) return;
    this.waiting = undefined;
    const { request, headers, socket } = message as { request: { origin?: unknown; path?: string; method?: string }; headers?: unknown; socket: object };
    if (String(request.origin) !== w.origin || request.path !== w.path || request.method !== w.method) return;
    // The head as written, so the exchange shows every header that went (Host, Connection…), not only the request's own.
    w.onSocket(this.stamps.get(socket), typeof headers === 'string' ? headers : undefined);
  };

  /** A connector (undici's own, from `buildConnector`) that records when each socket was opened, connected and secured. */
  timedConnector(buildConnector: typeof BuildConnector, options: BuildConnector.BuildOptions): BuildConnector.connector {
    const base = buildConnector(options);
    const stamps = this.stamps;
    return (opts, callback) => {
      const stamp: SocketStamp = { startedAt: performance.now() };
      const socket = base(opts, (err, sock) => {
        if (!err && sock) {
          const now = performance.now();
          stamp.tcpAt ??= now;
          if (opts.protocol === 'https:') stamp.tlsAt = now;
        }
        callback(err, sock as never);
      }) as unknown as Socket | undefined;
      if (socket && typeof socket.once === 'function') {
        stamps.set(socket, stamp);
        socket.once('connect', () => {
          stamp.tcpAt = performance.now();
        });
      }
      return socket as never;
    };
  }

  /** Call from the handler's onRequestStart: the very next sendHeaders belongs to this request. */
  expectSocket(waiter: SocketWaiter): void {
    if (!this.subscribed) {
      diagnostics.subscribe(CHANNEL, this.onSendHeaders);
      this.subscribed = true;
    }
    this.waiting = waiter;
  }

  close(): void {
    if (this.subscribed) diagnostics.unsubscribe(CHANNEL, this.onSendHeaders);
    this.subscribed = false;
    this.waiting = undefined;
  }
}
