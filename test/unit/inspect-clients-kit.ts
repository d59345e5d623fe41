/**
 * For the independent-client tests of the inspector: a front for the sandbox that speaks gzip the
 * way an IIS server with dynamic compression does (a reply gzipped when the request's
 * Accept-Encoding asks for it, a gzip request body taken), since the sandbox itself does neither;
 * it counts what reaches it, so a test can tell a replay went there. And the clients' processes:
 * zeep and PHP's SoapClient run their fixture script once per session (start-up is slow), each
 * printing a JSON line per call.
 */
import { execFile, spawnSync } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { collect, pairs } from './inspect-kit';

export interface FrontSeen {
  readonly method: string;
  readonly url: string;
  /** The request's Content-Encoding, as it came. */
  readonly requestEncoding?: string;
  /** The reply went out gzipped. */
  gzipped?: boolean;
}

export interface GzipFront {
  readonly url: string;
  readonly seen: FrontSeen[];
  close(): Promise<void>;
}

const HOP = /^(connection|keep-alive|transfer-encoding|content-length)$/i;

/** A front for `target` that takes gzip request bodies and gzips replies for clients that ask. */
export async function startGzipFront(target: string): Promise<GzipFront> {
  const seen: FrontSeen[] = [];
  const t = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer(async (req, res) => {
    const requestEncoding = req.headers['content-encoding'];
    const entry: FrontSeen = { method: req.method ?? '', url: req.url ?? '', ...(requestEncoding ? { requestEncoding } : {}) };
    seen.push(entry);
    const raw = await collect(req);
    let body: Buffer;
    try {
      body = requestEncoding === 'gzip' ? zlib.gunzipSync(raw) : raw;
    } catch (e) {
      res.writeHead(400, { 'Content-Type': 'text/plain' });
      res.end(`the gzip request body does not decode: ${(e as Error).message}`);
      return;
    }
    // Host goes on as it came, so the WSDL the target writes names this front, as a server behind IIS would.
    const headers = pairs(req.rawHeaders).filter(([n]) => !HOP.test(n) && !/^content-encoding$/i.test(n));
    // A pooled connection the target closed while idle (its keep-alive timeout) resets the first
    // request put on it; as Node's docs advise, that request is sent again on a new connection.
    // On a busy machine the race is common, and a 502 from this harness is no finding of the test.
    const forward = (retry: boolean): void => {
      const up = http.request(
        {
          host: t.hostname,
          port: t.port,
          method: entry.method,
          path: entry.url,
          headers: [...headers, ['Content-Length', String(body.length)]].flat(),
          agent: retry ? agent : false,
        },
        async (reply) => {
          let replyBody = await collect(reply);
          const back = pairs(reply.rawHeaders).filter(([n]) => !HOP.test(n));
          entry.gzipped = /\bgzip\b/i.test(req.headers['accept-encoding'] ?? '') && replyBody.length > 0;
          if (entry.gzipped) {
            replyBody = zlib.gzipSync(replyBody);
            back.push(['Content-Encoding', 'gzip'], ['Vary', 'Accept-Encoding']);
          }
          res.writeHead(reply.statusCode ?? 502, reply.statusMessage, [...back, ['Content-Length', String(replyBody.length)]].flat());
          res.end(replyBody);
        },
      );
      up.on('error', (e: NodeJS.ErrnoException) => {
        if (retry && up.reusedSocket && e.code === 'ECONNRESET') return forward(false);
        res.writeHead(502);
        res.end(String(e));
      });
      up.end(body);
    };
    forward(true);
  });
  const url = await new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)),
  );
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'clients');

/** A client program and how to run its fixture script. */
export interface ClientProgram {
  readonly name: string;
  readonly command: string;
  readonly script: string;
  /** Why it cannot run here, or undefined when it can (asked when a test needs it, not when the suite loads). */
  missing(): string | undefined;
}

function client(name: string, command: string, script: string, probe: string[], packages: string): ClientProgram {
  let answer: { why?: string } | undefined;
  return {
    name,
    command,
    script: path.join(FIXTURES, script),
    missing() {
      answer ??=
        spawnSync(command, probe, { stdio: 'ignore' }).status === 0
          ? {}
          : { why: `${command} cannot run it (${packages}; node scripts/ensure-soap-clients.js installs them)` };
      return answer.why;
    },
  };
}

/** Debian's Python: its zeep is not seen by a pyenv python3 earlier on the PATH. */
export const ZEEP = client('zeep', '/usr/bin/python3', 'zeep_client.py', ['-c', 'import zeep'], 'Debian python3-zeep');
export const PHP = client('PHP SoapClient', 'php', 'php_client.php', ['-r', 'exit(class_exists("SoapClient") ? 0 : 1);'], 'Debian php8.2-cli and php8.2-soap');

export interface ClientLine {
  readonly operation: string;
  readonly result?: unknown;
  readonly fault?: string;
}

/** Runs one client session of `plan`; its lines, one per call. */
export function runClient(client: ClientProgram, plan: unknown): Promise<ClientLine[]> {
  return new Promise((resolve, reject) => {
    execFile(client.command, [client.script, JSON.stringify(plan)], { timeout: 30_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${client.name} failed: ${err.message}\n${stderr}\n${stdout}`));
      resolve(
        stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as ClientLine),
      );
    });
  });
}
