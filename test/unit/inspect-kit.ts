/**
 * Test kit for the traffic inspector: a tap between the inspector and its target that keeps the
 * exact bytes and headers the target received and sent, a plain HTTP client that keeps the exact
 * bytes it sent and received, and a scan of a folder for a secret in every spelling.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

export interface Seen {
  readonly method: string;
  readonly url: string;
  /** Headers as received, in order. */
  readonly headers: Array<[string, string]>;
  readonly body: Buffer;
  status?: number;
  replyHeaders?: Array<[string, string]>;
  replyBody?: Buffer;
}

export interface Tap {
  readonly url: string;
  /** Every request the target received through the tap, in order of arrival. */
  readonly seen: Seen[];
  close(): Promise<void>;
}

export const pairs = (raw: readonly string[]): Array<[string, string]> => {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
};

/** A stream's bytes, whole. */
export function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

/** A transparent relay to `target` that writes down what passes, byte for byte. */
export async function startTap(target: string): Promise<Tap> {
  const seen: Seen[] = [];
  const agent = new http.Agent({ keepAlive: true });
  const t = new URL(target);
  const server = http.createServer(async (req, res) => {
    const entry: Seen = { method: req.method ?? '', url: req.url ?? '', headers: pairs(req.rawHeaders), body: await collect(req) };
    seen.push(entry);
    const forwarded = entry.headers.filter(([n]) => !/^(host|connection|keep-alive|transfer-encoding)$/i.test(n)).flat();
    const up = http.request(
      { host: t.hostname, port: t.port, method: entry.method, path: entry.url, headers: ['Host', t.host, ...forwarded], agent },
      async (reply) => {
        entry.status = reply.statusCode;
        entry.replyHeaders = pairs(reply.rawHeaders);
        entry.replyBody = await collect(reply);
        const back = entry.replyHeaders.filter(([n]) => !/^(connection|keep-alive|transfer-encoding|content-length)$/i.test(n)).flat();
        res.writeHead(reply.statusCode ?? 502, reply.statusMessage, [...back, 'Content-Length', String(entry.replyBody.length)]);
        res.end(entry.replyBody);
      },
    );
    up.on('error', (e) => {
      res.writeHead(502);
      res.end(String(e));
    });
    up.end(entry.body);
  });
  const url = await listen(server);
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

export interface Sent {
  readonly status: number;
  readonly headers: Array<[string, string]>;
  /** The reply bytes exactly as the client received them. */
  readonly body: Buffer;
}

const clientAgent = new http.Agent({ keepAlive: true });

/** A plain HTTP request with exactly these headers (in this order, after Host) and body. */
export function plainRequest(url: string, method: string, headers: Array<[string, string]>, body?: Buffer): Promise<Sent> {
  const u = new URL(url);
  // Headers given as a list go out as they are: Host too must be in it.
  const all = headers.some(([n]) => n.toLowerCase() === 'host') ? headers : [['Host', u.host] as [string, string], ...headers];
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method, path: `${u.pathname}${u.search}`, headers: all.flat(), agent: clientAgent },
      async (res) => {
        resolve({ status: res.statusCode ?? 0, headers: pairs(res.rawHeaders), body: await collect(res) });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function tmpDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** A secret as it may appear in text: raw, XML-escaped, URL- and form-encoded (any case of hex), JSON-escaped. */
export function spellings(secret: string): string[] {
  const xml = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const xmlAll = xml.replace(/"/g, '&quot;').replace(/'/g, '&apos;');
  const uri = encodeURIComponent(secret);
  const form = new URLSearchParams([['k', secret]]).toString().slice(2);
  return [
    ...new Set([secret, xml, xmlAll, uri, uri.toLowerCase(), uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), form, JSON.stringify(secret).slice(1, -1)]),
  ];
}

/** The files of `dir` that hold `secret` in any spelling, with the spelling found. */
export function filesHolding(dir: string, secret: string): string[] {
  const forms = spellings(secret).map((s) => Buffer.from(s, 'utf8'));
  return filesUnder(dir).flatMap((f) => {
    const bytes = fs.readFileSync(f);
    const hit = forms.find((s) => bytes.includes(s));
    return hit ? [`${path.basename(f)} (${hit.toString()})`] : [];
  });
}

export function closeClientAgent(): void {
  clientAgent.destroy();
}

/** Polls `read()` (a child's output so far) until `pattern` matches; the output goes into the timeout's message. */
export function waitForOutput(read: () => string, pattern: RegExp, what: string, timeoutMs = 20_000): Promise<RegExpMatchArray> {
  const until = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      const m = read().match(pattern);
      if (m) return resolve(m);
      if (Date.now() > until) return reject(new Error(`timed out waiting for ${what}; output so far:\n${read()}`));
      setTimeout(poll, 50);
    };
    poll();
  });
}
