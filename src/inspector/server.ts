/**
 * startInspector(): listens on loopback, forwards every request to the target, and reads and
 * records each exchange after it is over. Used by `carrier inspect`, the extension and the tests.
 */
import * as net from 'node:net';
import { ByteBudget, type Capture } from './capture';
import { Relay, type Timeouts } from './relay';
import { readCapture, SessionSecrets, type ReadContext } from './readCapture';
import { nextNumber, RecordingWriter } from './recordings';
import { IdleQueue } from './scheduler';
import { ExchangeStore } from './store';
import { makeTarget } from './target';
import type { InspectorHandle, InspectorOptions, RecordedExchange } from './types';
import { withWireFacts } from './wireFacts';

const MiB = 1024 * 1024;
export const DEFAULT_MAX_BODY_BYTES = 16 * MiB;
const DEFAULT_KEEP = 500;
/** Recorded exchanges kept in memory: a few of the largest bodies, or hundreds of ordinary calls. */
export const DEFAULT_KEEP_BYTES = 64 * MiB;
/** Body copies of exchanges under way or waiting to be read: both bodies of one exchange at the default cap. */
export const DEFAULT_CAPTURE_BYTES = 32 * MiB;
/**
 * A minute between requests (clients that keep connections longer open a new one, as they do when
 * a server closes first), 30 s for a request head, two minutes of silence inside an exchange.
 */
export const DEFAULT_TIMEOUTS: Timeouts = { idleMs: 60_000, headersMs: 30_000, bodyMs: 120_000 };

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
  if (!isLoopback(host))
    throw new InspectorHostError(`${host} is not a loopback address: the inspector listens on this machine only (127.0.0.1, ::1 or localhost)`);
  const target = makeTarget(options.target, options.tls);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeouts: Timeouts = {
    idleMs: options.idleTimeoutMs ?? DEFAULT_TIMEOUTS.idleMs,
    headersMs: options.headersTimeoutMs ?? DEFAULT_TIMEOUTS.headersMs,
    bodyMs: options.bodyTimeoutMs ?? DEFAULT_TIMEOUTS.bodyMs,
  };
  const writer = options.recordDir ? new RecordingWriter(options.recordDir, options.recordEnvironment) : undefined;
  let seq = options.recordDir ? nextNumber(options.recordDir) - 1 : 0;
  const secrets = new SessionSecrets(options.secrets ?? []);
  // A log line may quote what a client or target sent: it is masked like everything else.
  const log = options.log ? (line: string) => options.log!(secrets.redactor().text(line)) : () => undefined;
  const ctx: ReadContext = {
    namespaces: options.namespaces,
    ...(options.environment ? { environment: options.environment } : {}),
    target: target.display,
    secrets,
    maxBodyBytes,
    recording: writer !== undefined,
  };
  const kept = new ExchangeStore(options.keep ?? DEFAULT_KEEP, options.keepBytes ?? DEFAULT_KEEP_BYTES);
  const budget = new ByteBudget(options.captureBytes ?? DEFAULT_CAPTURE_BYTES);
  const listeners = new Set<(r: RecordedExchange) => void>();

  const record = async (capture: Capture): Promise<void> => {
    try {
      const common = await readCapture(capture, ctx);
      const read = { ...common, exchange: withWireFacts(common.exchange, capture, secrets.redactor()) };
      // The copies are read: their bytes go back to the budget before the (slower) writing.
      capture.requestBody.release();
      capture.replyBody.release();
      let files;
      if (writer) {
        try {
          files = await writer.write(read, secrets.byValue());
        } catch (e) {
          log(`could not write exchange ${read.seq} to ${writer.dir}: ${(e as Error).message}`);
        }
      }
      const recorded: RecordedExchange = {
        seq: read.seq,
        exchange: read.exchange,
        recognition: read.recognition,
        ...(read.decoded ? { decoded: read.decoded } : {}),
        ...(files ? { files } : {}),
      };
      kept.add(recorded);
      for (const l of listeners) {
        try {
          l(recorded);
        } catch (e) {
          log(`an exchange listener failed: ${(e as Error).message}`);
        }
      }
    } catch (e) {
      log(`could not read exchange ${capture.seq}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    } finally {
      capture.requestBody.release();
      capture.replyBody.release();
    }
  };
  // Under load, reading goes on once half the budget waits, so bodies arriving meanwhile still get copies.
  const queue = new IdleQueue<Capture>(record, (c) => c.requestBody.kept + c.replyBody.kept + 2048, undefined, undefined, budget.limit / 2);

  const relays = new Set<Relay>();
  // Half-open connections stay usable: a client that ends its side still gets its replies.
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    const relay = new Relay(socket, {
      target,
      maxBodyBytes,
      budget,
      nextSeq: () => ++seq,
      note: log,
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
  // One look at every connection now and then: no timer per connection or per chunk on the hot path.
  const sweepEvery = Math.max(10, Math.min(1000, Math.floor(Math.min(timeouts.idleMs, timeouts.headersMs, timeouts.bodyMs) / 4)));
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const r of relays) r.sweep(now, timeouts);
  }, sweepEvery);
  sweeper.unref();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    target: target.display,
    onExchange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    exchanges: () => kept.list(),
    flush: () => queue.flush(),
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const r of relays) if (r.idle) r.destroy();
        // Exchanges under way get a moment to finish, then their connections are ended.
        const grace = setTimeout(() => {
          for (const r of relays) r.destroy();
        }, 1000);
        await stopped;
        clearTimeout(grace);
        await queue.flush();
      })();
      return closing;
    },
  };
}
