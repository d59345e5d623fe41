/**
 * What the load tests share: a local server on 127.0.0.1 in front of the embedded sandbox that
 * holds each reply for a delay it chooses and records, so latencies are checked against the
 * delays the server itself injected, never against the test's clock; and a folder with a request
 * file and an environment that points at that server.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIo } from '../../src/cli/command';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';

export const ROOT = path.resolve(__dirname, '../..');
export const RATE_QUOTE = path.join(ROOT, 'examples/rate-quote/get-rate-quote-1.0.0.carrier.json');

export interface DelayServer {
  readonly url: string;
  /** The delay held before each reply, in the order requests came. */
  readonly delays: number[];
  /** Called as each request comes, with how many have come. */
  onRequest?: (count: number) => void;
  close(): Promise<void>;
}

/**
 * `delayFor(n)`: the milliseconds the n-th request (from 0) is held. `cache`: the first reply to
 * a body is kept and given again for the same body (a fast server: the sandbox is asked once).
 */
export async function delayServer(delayFor: (n: number) => number, options: { cache?: boolean } = {}): Promise<DelayServer> {
  const sandbox: SandboxHandle = await startSandbox({ port: 0, host: '127.0.0.1' });
  const cache = new Map<string, { status: number; type: string; body: Buffer }>();
  const delays: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = delays.length;
      const delay = delayFor(n);
      delays.push(delay);
      state.onRequest?.(delays.length);
      const body = Buffer.concat(chunks);
      const key = `${req.method} ${req.url} ${body.toString('utf8')}`;
      const answer = async () => {
        let reply = options.cache ? cache.get(key) : undefined;
        if (!reply) {
          const headers: Record<string, string> = {};
          for (const h of ['content-type', 'soapaction']) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
          const r = await fetch(`${sandbox.url.replace(/\/+$/, '')}${req.url}`, { method: req.method, headers, ...(body.length ? { body } : {}) });
          reply = { status: r.status, type: r.headers.get('content-type') ?? 'text/xml', body: Buffer.from(await r.arrayBuffer()) };
          if (options.cache) cache.set(key, reply);
        }
        return reply;
      };
      const held = new Promise((resolve) => setTimeout(resolve, delay));
      Promise.all([answer(), held]).then(
        ([reply]) => {
          res.writeHead(reply.status, { 'content-type': reply.type, 'content-length': reply.body.length });
          res.end(reply.body);
        },
        (e: Error) => {
          res.writeHead(502);
          res.end(e.message);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const state: DelayServer = {
    url: `http://127.0.0.1:${port}`,
    delays,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox.close();
    },
  };
  return state;
}

/** A folder with the rate quote request file and an environment `local` at `url`. */
export function loadFolder(url: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-load-'));
  fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl: url } }));
  fs.mkdirSync(path.join(dir, 'quotes'));
  fs.copyFileSync(RATE_QUOTE, path.join(dir, 'quotes', 'get-rate-quote.carrier.json'));
  return dir;
}

export interface Captured {
  readonly io: CliIo;
  readonly out: () => string;
  readonly err: () => string;
}

export function captureIo(cwd: string): Captured {
  let out = '';
  let err = '';
  return {
    io: { stdout: (t) => void (out += t), stderr: (t) => void (err += t), cwd, env: { CARRIER_API_KEY_LOCAL: 'load-test-key' } },
    out: () => out,
    err: () => err,
  };
}
