/**
 * The transport against real local servers on OS-assigned loopback ports: bytes kept as
 * received, timing phases, timeouts, cancellation at any point (body included), connection
 * refused and reset, the reply size limit, redirects reported and never followed, TLS with a
 * certificate made at test time (custom CA, client certificate, rejectUnauthorized false), and a
 * CONNECT proxy.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as path from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { HttpRequestSpec } from '../../src/core/exchange';
import type { TransportSettings } from '../../src/core/context';
import { sendHttp, TlsFileError, type HttpSendOptions, type Phase } from '../../src/core/transport';
import { NodeDispatchers } from '../../src/host';
import { startServer, tmpDir, track, type TestServer } from './transport-support';

const post = (url: string, body = '<x/>'): HttpRequestSpec => ({
  method: 'POST',
  url,
  headers: [
    ['Content-Type', 'text/xml; charset=utf-8'],
    ['SOAPAction', '"urn:x/Op"'],
  ],
  body,
});
const get = (url: string): HttpRequestSpec => ({ method: 'GET', url, headers: [], body: '' });

/** One suite's pooled dispatchers (closed in its after()), and the send options that use them, socket timings included. */
function suiteTransport(): { dispatchers: NodeDispatchers; options: (extra?: Partial<HttpSendOptions>) => HttpSendOptions } {
  const dispatchers = new NodeDispatchers();
  const options = (extra: Partial<HttpSendOptions> = {}): HttpSendOptions => ({
    dispatcher: dispatchers.dispatcherFor({ connectTimeoutMs: 5000 }),
    expectSocket: (waiter) => dispatchers.expectSocket(waiter),
    timeoutMs: 5000,
    connectTimeoutMs: 5000,
    maxReplyBytes: 1 << 20,
    ...extra,
  });
  return { dispatchers, options };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('transport: local HTTP', () => {
  const { dispatchers, options } = suiteTransport();
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  after(() => dispatchers.close());

  it('sends the exact request and keeps the reply bytes and header names as received', async () => {
    const latin1 = Buffer.from([0x3c, 0x61, 0x3e, 0xe9, 0xff, 0x00, 0x3c, 0x2f, 0x61, 0x3e]);
    server = await startServer((_req, res) => {
      res.writeHead(200, 'All Good', { 'Content-Type': 'text/xml; charset=iso-8859-1', 'X-Mixed-Case': 'yes' });
      res.end(latin1);
    });
    const spec = post(`${server.url}/1.0.2/TerminalInformationService.asmx?a=b`, '<é/>');
    const out = await sendHttp(spec, options());
    assert.equal(out.error, undefined);
    assert.equal(out.status, 200);
    assert.equal(out.statusText, 'All Good');
    assert.ok(out.body!.equals(latin1));
    assert.equal(out.complete, true);
    assert.deepEqual(
      out.headers!.filter(([n]) => n.startsWith('X-') || n === 'Content-Type'),
      [
        ['Content-Type', 'text/xml; charset=iso-8859-1'],
        ['X-Mixed-Case', 'yes'],
      ],
    );
    const [got] = server.received;
    assert.equal(got.method, 'POST');
    assert.equal(got.url, '/1.0.2/TerminalInformationService.asmx?a=b');
    assert.equal(got.headers['content-type'], 'text/xml; charset=utf-8');
    assert.equal(got.headers.soapaction, '"urn:x/Op"');
    assert.deepEqual(
      got.rawHeaderNames.filter((n) => n === 'Content-Type' || n === 'SOAPAction'),
      ['Content-Type', 'SOAPAction'],
    );
    assert.equal(got.body.toString('utf8'), '<é/>');
    assert.equal(out.requestBytes, Buffer.byteLength('<é/>'));
  });

  it('measures connect, first byte and download; a reused connection has no connect phase', async () => {
    server = await startServer(async (_req, res) => {
      await sleep(120);
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.write('<a>');
      await sleep(120);
      res.end('</a>');
    });
    const phases: Phase[] = [];
    const first = await sendHttp(post(`${server.url}/t`), options({ onPhase: (p) => phases.push(p) }));
    assert.deepEqual(phases, ['connecting', 'waiting', 'receiving']);
    assert.equal(typeof first.timing.connectMs, 'number');
    assert.equal(first.timing.tlsMs, undefined);
    assert.ok(first.timing.firstByteMs! >= 100, `first byte ${first.timing.firstByteMs}`);
    assert.ok(first.timing.downloadMs! >= 100, `download ${first.timing.downloadMs}`);
    assert.ok(first.timing.totalMs >= first.timing.firstByteMs! + first.timing.downloadMs!);
    // undici may open a second connection for the request right after; by the third it reuses one.
    await sendHttp(post(`${server.url}/t`), options());
    const third = await sendHttp(post(`${server.url}/t`), options());
    assert.equal(third.timing.connectMs, undefined);
    assert.ok(third.timing.firstByteMs! >= 100);
  });

  it('times out when no reply comes, naming the URL', async () => {
    server = await startServer(() => undefined);
    // The server never answers: only the 300 ms timeout can end this send, and its kind says it did.
    const out = await sendHttp(post(`${server.url}/slow`), options({ timeoutMs: 300 }));
    assert.equal(out.error?.kind, 'timeout');
    assert.match(out.error!.message, new RegExp(`${server.url}/slow`));
    assert.equal(out.status, undefined);
  });

  it('times out when the body stalls, keeping what came', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml', 'Content-Length': '100' });
      res.write('<partial>');
    });
    const out = await sendHttp(post(`${server.url}/stall`), options({ timeoutMs: 5000, bodyTimeoutMs: 300 }));
    assert.equal(out.error?.kind, 'timeout');
    assert.equal(out.error?.code, 'UND_ERR_BODY_TIMEOUT');
    assert.equal(out.status, 200);
    assert.equal(out.complete, false);
    assert.equal(out.body!.toString(), '<partial>');
  });

  it('cancels mid-body: stops reading, keeps what came, and the server sees the connection close', async () => {
    let closedEarly = false;
    server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.on('close', () => {
        closedEarly = !res.writableFinished;
      });
      for (let i = 0; i < 50 && !res.destroyed; i++) {
        res.write(`<chunk${i}/>`);
        await sleep(40);
      }
      res.end();
    });
    const controller = new AbortController();
    const out = await sendHttp(
      post(`${server.url}/long`),
      options({
        signal: controller.signal,
        onPhase: (p) => {
          if (p === 'receiving') setTimeout(() => controller.abort(), 150);
        },
      }),
    );
    assert.equal(out.error?.kind, 'cancelled');
    assert.match(out.error!.message, /Cancelled/);
    assert.equal(out.complete, false);
    assert.match(out.body!.toString(), /^<chunk0\/>/);
    await sleep(100);
    assert.ok(closedEarly, 'the server saw the client go before the body was done');
  });

  it('cancels before sending: nothing reaches the server', async () => {
    server = await startServer((_req, res) => {
      res.end('<a/>');
    });
    const controller = new AbortController();
    controller.abort();
    const out = await sendHttp(post(`${server.url}/never`), options({ signal: controller.signal }));
    assert.equal(out.error?.kind, 'cancelled');
    await sleep(50);
    assert.deepEqual(server.received, []);
  });

  it('reports connection refused with the URL', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const out = await sendHttp(get(`${closed.url}/x`), options());
    assert.equal(out.error?.kind, 'connect');
    assert.equal(out.error?.code, 'ECONNREFUSED');
    assert.match(out.error!.message, new RegExp(`Connection refused by 127\\.0\\.0\\.1:${closed.port} \\(${closed.url}/x\\)`));
  });

  it('reports a connection reset before and during the reply', async () => {
    server = await startServer((req, res) => {
      if (req.url === '/before') req.socket.destroy();
      else {
        res.writeHead(200, { 'Content-Length': '1000' });
        res.write('0123456789', () => setTimeout(() => req.socket.destroy(), 50));
      }
    });
    const before = await sendHttp(post(`${server.url}/before`), options());
    assert.equal(before.error?.kind, 'reset');
    assert.match(before.error!.message, /closed before the reply was complete/);
    const during = await sendHttp(post(`${server.url}/during`), options());
    assert.equal(during.error?.kind, 'reset');
    assert.equal(during.status, 200);
    assert.equal(during.body!.toString(), '0123456789');
  });

  it('refuses a reply whose Content-Length is over the limit without reading it', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': String(5000) });
      res.end('x'.repeat(5000));
    });
    const out = await sendHttp(get(`${server.url}/big`), options({ maxReplyBytes: 4096 }));
    assert.equal(out.error?.kind, 'too-large');
    assert.match(out.error!.message, /is 5000 bytes, more than the limit of 4096 bytes \(maxReplyBytes\); nothing of it was read/);
    assert.equal(out.body!.length, 0);
  });

  it('stops reading a chunked reply at the limit and does not buffer past it', async () => {
    let written = 0;
    server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      for (let i = 0; i < 40 && !res.destroyed; i++) {
        res.write('y'.repeat(1024));
        written++;
        await sleep(10);
      }
      res.end();
    });
    const out = await sendHttp(get(`${server.url}/chunked`), options({ maxReplyBytes: 2500 }));
    assert.equal(out.error?.kind, 'too-large');
    assert.match(out.error!.message, /larger than the limit of 2500 bytes \(maxReplyBytes\); reading stopped there/);
    assert.equal(out.body!.length, 2500);
    await sleep(100);
    assert.ok(written < 40, `the server stopped after ${written} chunks`);
  });

  it('reports a redirect with its Location and never follows it', async () => {
    const elsewhere = await startServer((_req, res) => {
      res.end('<followed/>');
    });
    try {
      server = await startServer((_req, res) => {
        res.writeHead(302, 'Found', { Location: `${elsewhere.url}/moved` });
        res.end('<html>moved</html>');
      });
      const out = await sendHttp(post(`${server.url}/old`), options());
      assert.equal(out.error?.kind, 'redirect');
      assert.equal(out.status, 302);
      assert.equal(
        out.error!.message,
        `${server.url}/old answered 302 Found redirecting to ${elsewhere.url}/moved; redirects are never followed — check the environment's baseUrl`,
      );
      assert.equal(out.body!.toString(), '<html>moved</html>');
      await sleep(50);
      assert.deepEqual(elsewhere.received, []);
    } finally {
      await elsewhere.close();
    }
  });

  it('names the URL it is given for display (redacted), not the one it sends to', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const out = await sendHttp(get(`${closed.url}/x?APIKey=s3cret`), options({ displayUrl: `${closed.url}/x?APIKey=••••` }));
    assert.ok(out.error!.message.includes('APIKey=••••'));
    assert.ok(!out.error!.message.includes('s3cret'));
  });
});

describe('transport: TLS with certificates made at test time', function () {
  this.timeout(30_000);
  const { dispatchers, options } = suiteTransport();
  let dir: string;
  let server: TestServer;
  let mtls: TestServer;
  let clientSeen: string | undefined;

  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

  before(async () => {
    dir = tmpDir('carrier-tls-');
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
    openssl('req', '-x509', ...ec, '-keyout', 'server.key', '-out', 'server.crt', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1');
    openssl('req', '-x509', ...ec, '-keyout', 'client.key', '-out', 'client.crt', '-subj', '/CN=carrier-client');
    const read = (f: string) => fs.readFileSync(path.join(dir, f));
    server = await startServer(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/xml' });
        res.end('<secure/>');
      },
      https.createServer({ key: read('server.key'), cert: read('server.crt') }),
    );
    mtls = await startServer(
      (req, res) => {
        clientSeen = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN);
        res.end('<mutual/>');
      },
      https.createServer({ key: read('server.key'), cert: read('server.crt'), requestCert: true, rejectUnauthorized: true, ca: read('client.crt') }),
    );
  });

  after(async () => {
    await server.close();
    await mtls.close();
    await dispatchers.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const tlsOptions = (tls: TransportSettings['tls']) => options({ dispatcher: dispatchers.dispatcherFor({ connectTimeoutMs: 5000, tls }) });

  it('refuses a self-signed certificate by default, with a hint', async () => {
    const out = await sendHttp(get(`${server.url}/`), options());
    assert.equal(out.error?.kind, 'tls');
    assert.equal(out.error?.code, 'DEPTH_ZERO_SELF_SIGNED_CERT');
    assert.match(out.error!.message, /TLS with 127\.0\.0\.1:\d+ failed .*tls\.ca.*rejectUnauthorized/);
  });

  it('trusts it through tls.ca, and measures the handshake', async () => {
    const out = await sendHttp(get(`${server.url}/`), tlsOptions({ caPath: path.join(dir, 'server.crt'), rejectUnauthorized: true }));
    assert.equal(out.error, undefined);
    assert.equal(out.body!.toString(), '<secure/>');
    assert.equal(typeof out.timing.connectMs, 'number');
    assert.ok(out.timing.tlsMs! > 0, `TLS ${out.timing.tlsMs} ms`);
  });

  it('accepts it with rejectUnauthorized false', async () => {
    const out = await sendHttp(get(`${server.url}/`), tlsOptions({ rejectUnauthorized: false }));
    assert.equal(out.status, 200);
  });

  it('presents a client certificate when the server asks for one', async () => {
    const without = await sendHttp(get(`${mtls.url}/`), tlsOptions({ caPath: path.join(dir, 'server.crt'), rejectUnauthorized: true }));
    assert.ok(without.error && ['tls', 'reset'].includes(without.error.kind), JSON.stringify(without.error));
    const withCert = await sendHttp(
      get(`${mtls.url}/`),
      tlsOptions({
        caPath: path.join(dir, 'server.crt'),
        certPath: path.join(dir, 'client.crt'),
        keyPath: path.join(dir, 'client.key'),
        rejectUnauthorized: true,
      }),
    );
    assert.equal(withCert.error, undefined);
    assert.equal(withCert.body!.toString(), '<mutual/>');
    assert.equal(clientSeen, 'carrier-client');
  });

  it('says which TLS file it cannot read', () => {
    assert.throws(
      () => dispatchers.dispatcherFor({ connectTimeoutMs: 1000, tls: { caPath: path.join(dir, 'missing.pem'), rejectUnauthorized: true } }),
      (e: TlsFileError) => e instanceof TlsFileError && /cannot read tls\.ca file .*missing\.pem: no such file/.test(e.message),
    );
  });
});

describe('transport: through a CONNECT proxy', () => {
  const { dispatchers, options } = suiteTransport();
  after(() => dispatchers.close());

  it("tunnels the request through the environment's proxy", async () => {
    const target = await startServer((_req, res) => {
      res.end('<via-proxy/>');
    });
    const tunnels: string[] = [];
    const proxy = http.createServer((_req, res) => {
      res.writeHead(405);
      res.end();
    });
    proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    const closeProxy = track(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    try {
      const out = await sendHttp(
        post(`${target.url}/1.0.2/X.asmx`),
        options({ dispatcher: dispatchers.dispatcherFor({ connectTimeoutMs: 5000, proxy: proxyUrl }) }),
      );
      assert.equal(out.error, undefined);
      assert.equal(out.body!.toString(), '<via-proxy/>');
      assert.deepEqual(tunnels, [`127.0.0.1:${target.port}`]);
      assert.equal(target.received[0].url, '/1.0.2/X.asmx');
    } finally {
      await dispatchers.close();
      await closeProxy();
      await target.close();
    }
  });
});
