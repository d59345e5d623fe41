/**
 * Connect and TLS durations of the pool's sockets. undici does not say which socket a request
 * got, so the connector stamps each new socket, and the `undici:client:sendHeaders` channel —
 * published synchronously right after a request is handed its socket — links the socket to the
 * request that is being started at that moment.
 */
import * as diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { buildConnector as BuildConnector } from 'undici';

// From its module rather than undici's index, for the reason given in agents.ts.
const buildConnector: typeof BuildConnector = require('undici/lib/core/connect.js');

export interface SocketStamp {
  readonly startedAt: number;
  tcpAt?: number;
  tlsAt?: number;
}

const stamps = new WeakMap<object, SocketStamp>();

/** A connector that records when each socket was opened, connected and secured. */
export function timedConnector(options: BuildConnector.BuildOptions): BuildConnector.connector {
  const base = buildConnector(options);
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
      socket.once('connect', () => { stamp.tcpAt = performance.now(); });
    }
    return socket as never;
  };
}

interface Waiter {
  readonly origin: string;
  readonly path: string;
  readonly method: string;
  onSocket(stamp: SocketStamp | undefined): void;
}

let waiting: Waiter | undefined;
let subscribed = false;

function onSendHeaders(message: unknown): void {
  const w = waiting;
  if (!w) return;
  waiting = undefined;
  const { request, socket } = message as { request: { origin?: unknown; path?: string; method?: string }; socket: object };
  if (String(request.origin) !== w.origin || request.path !== w.path || request.method !== w.method) return;
  w.onSocket(stamps.get(socket));
}

/** Call from the handler's onRequestStart: the very next sendHeaders belongs to this request. */
export function expectSocket(waiter: Waiter): void {
  if (!subscribed) {
    diagnostics.subscribe('undici:client:sendHeaders', onSendHeaders);
    subscribed = true;
  }
  waiting = waiter;
}
