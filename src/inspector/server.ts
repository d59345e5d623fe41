/**
 * startInspector(): listens on loopback, forwards every request to the target, and reads and
 * records each exchange after it is over. Used by `carrier inspect`, the extension and the tests.
 */
import * as net from 'node:net';
import type { Capture } from './capture';
import { Relay } from './relay';
import { readCapture, type ReadContext } from './readCapture';
import { nextNumber, RecordingWriter } from './recordings';
import { IdleQueue } from './scheduler';
import { makeTarget } from './target';
import type { InspectorHandle, InspectorOptions, RecordedExchange } from './types';

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
const DEFAULT_KEEP = 500;

export class InspectorHostError extends Error {}

/** The inspector forwards whatever reaches it, keys included: only this machine may reach it. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startInspector(options: InspectorOptions): Promise<InspectorHandle> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host)) throw new InspectorHostError(`${host} is not a loopback address: the inspector listens on this machine only (127.0.0.1, ::1 or localhost)`);
  const log = options.log ?? (() => undefined);
  const target = makeTarget(options.target, options.tls);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const keep = options.keep ?? DEFAULT_KEEP;
  const writer = options.recordDir ? new RecordingWriter(options.recordDir) : undefined;
  let seq = options.recordDir ? nextNumber(options.recordDir) - 1 : 0;
  const ctx: ReadContext = {
    namespaces: options.namespaces,
    ...(options.environment ? { environment: options.environment } : {}),
    target: target.display,
    secrets: new Set((options.secrets ?? []).filter((s) => s.trim() !== '')),
    maxBodyBytes,
  };
  const kept: RecordedExchange[] = [];
  const listeners = new Set<(r: RecordedExchange) => void>();

  const record = async (capture: Capture): Promise<void> => {
    try {
      const read = await readCapture(capture, ctx);
      let files;
      if (writer) {
        try {
          files = await writer.write(read, ctx.secrets);
        } catch (e) {
          log(`could not write exchange ${read.seq} to ${writer.dir}: ${(e as Error).message}`);
        }
      }
      const recorded: RecordedExchange = { seq: read.seq, exchange: read.exchange, recognition: read.recognition, ...(files ? { files } : {}) };
      kept.push(recorded);
      if (kept.length > keep) kept.splice(0, kept.length - keep);
      for (const l of listeners) {
        try { l(recorded); } catch (e) { log(`an exchange listener failed: ${(e as Error).message}`); }
      }
    } catch (e) {
      log(`could not read exchange ${capture.seq}: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    }
  };
  const queue = new IdleQueue<Capture>(record, (c) => c.requestBody.kept + c.replyBody.kept + 2048);

  const relays = new Set<Relay>();
  // Half-open connections stay usable: a client that ends its side still gets its replies.
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    const relay = new Relay(socket, {
      target,
      maxBodyBytes,
      nextSeq: () => ++seq,
      begin: () => queue.begin(),
      done: (capture) => {
        queue.end();
        queue.push(capture);
      },
    });
    relays.add(relay);
    socket.once('close', () => relays.delete(relay));
  });

  await listen(server, options.port ?? 0, host);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port ?? 0;
  const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    target: target.display,
    onExchange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    exchanges: () => [...kept],
    flush: () => queue.flush(),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const r of relays) if (r.idle) r.destroy();
        // Exchanges under way get a moment to finish, then their connections are ended.
        const grace = setTimeout(() => { for (const r of relays) r.destroy(); }, 1000);
        await stopped;
        clearTimeout(grace);
        await queue.flush();
      })();
      return closing;
    },
  };
}
