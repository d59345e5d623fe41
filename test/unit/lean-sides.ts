/**
 * The two sides the lean dispatcher's tests send through (lean-dispatcher*.test.ts): undici's
 * pool and the lean one, each its own NodeDispatchers with its socket timings, and sendHttp's
 * options for either; and the raw server both files script replies with.
 */
import * as net from 'node:net';
import type { HttpSendOptions } from '../../src/core/transport';
import { NodeDispatchers } from '../../src/host';

export const SIDES = ['undici', 'lean'] as const;
export type Side = (typeof SIDES)[number];

export function transports(timeoutMs = 5000) {
  const pools = { undici: new NodeDispatchers({ lean: false }), lean: new NodeDispatchers() };
  const options = (side: Side, extra: Partial<HttpSendOptions> = {}): HttpSendOptions => ({
    dispatcher: pools[side].dispatcherFor({ connectTimeoutMs: 5000 }),
    expectSocket: (waiter) => pools[side].expectSocket(waiter),
    timeoutMs,
    connectTimeoutMs: 5000,
    maxReplyBytes: 1 << 20,
    ...extra,
  });
  return { pools, options, close: () => Promise.all([pools.undici.close(), pools.lean.close()]) };
}

export type Script = (socket: net.Socket, request: string, n: number) => void;

/** A raw server: `script` answers each request, or `onConnection` takes the socket as it comes. Tracks its open sockets. */
export async function rawServer(script: Script, onConnection?: (socket: net.Socket) => void) {
  const open = new Set<net.Socket>();
  let connections = 0;
  let n = 0;
  const server = net.createServer((socket) => {
    connections++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    if (onConnection) return onConnection(socket);
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      for (;;) {
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
        if (text.length < end + 4 + length) return;
        const request = text.slice(0, end + 4 + length);
        text = text.slice(end + 4 + length);
        script(socket, request, n++);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    open: () => open.size,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
