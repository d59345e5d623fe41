/**
 * The lean HTTP/1.1 dispatcher of `carrier run` and `carrier load` (src/host/leanDispatcher.ts) against real servers on
 * OS-assigned loopback ports: each reply framing (Content-Length, chunked, the connection's end),
 * 1xx and 204, gzip bytes left as they came, resets, refusals, timeouts, cancellation and the
 * size limit give the very outcome undici gives (sendHttp through both, side by side); keep-alive
 * sockets are reused and counted, a socket the server closed while idle is never written on, a
 * request the server drops is not sent again; the sandbox's GetRateQuote reply is judged the same;
 * and `carrier load` sends over it, never through undici.
 */
import { strict as assert } from 'node:assert';
import * as diagnostics from 'node:diagnostics_channel';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sampleRequest } from '../../bench/fixtures/rateQuote';
import { runLoadCommand } from '../../src/cli/commands/load';
import type { CliIo } from '../../src/cli/command';
import type { CoreContext } from '../../src/core/context';
import type { HttpRequestSpec } from '../../src/core/exchange';
import { prepareRequest } from '../../src/core/envelope/prepare';
import { send } from '../../src/core/send';
import { sendHttp, type HttpOutcome, type HttpSendOptions } from '../../src/core/transport';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { nodeContext, NodeDispatchers } from '../../src/host';
import { LeanDispatcher } from '../../src/host/leanDispatcher';
import { rawServer, SIDES, transports, type Side } from './lean-sides';
import { environmentAt, soapReply, SOAP11_TYPE, startServer, type Handler, type TestServer } from './transport-support';

const post = (url: string, body = '<x/>'): HttpRequestSpec => ({
  method: 'POST',
  url,
  headers: [
    ['Content-Type', 'text/xml; charset=utf-8'],
    ['SOAPAction', '"urn:x/Op"'],
  ],
  body,
});
const get = (url: string): HttpRequestSpec => ({ method: 'GET', url, headers: [['Accept', 'text/xml']], body: '' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An outcome without its times and the server's Date, and its error without the code (the lean side may name the socket's own where undici wraps it). */
function comparable(o: HttpOutcome) {
  const { timing: _timing, error, headers, ...rest } = o;
  return { ...rest, headers: headers?.filter(([n]) => n !== 'Date'), error: error && { kind: error.kind, message: error.message } };
}

describe('lean dispatcher: the outcomes undici gives', () => {
  const t = transports();
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  after(() => t.close());

  /** Sends `spec` through each side to a server answering with `handler`; the lean outcome, checked equal to undici's. */
  async function same(handler: Handler, spec: (url: string) => HttpRequestSpec, extra: Partial<HttpSendOptions> = {}) {
    server = await startServer(handler);
    const out: Record<Side, HttpOutcome> = {} as never;
    for (const side of SIDES) out[side] = await sendHttp(spec(server.url), t.options(side, extra));
    assert.deepEqual(comparable(out.lean), comparable(out.undici));
    // And the server saw the same request, header names and order included.
    const [a, b] = server.received;
    assert.deepEqual({ ...b, headers: { ...b.headers, 'x-side': undefined } }, { ...a, headers: { ...a.headers, 'x-side': undefined } });
    return out;
  }

  it('a Content-Length reply: status text, header names and bytes as received, the head as written', async () => {
    const latin1 = Buffer.from([0x3c, 0x61, 0x3e, 0xe9, 0xff, 0x00, 0x3c, 0x2f, 0x61, 0x3e]);
    const out = await same(
      (_req, res) => {
        res.writeHead(200, 'All Good', {
          'Content-Type': 'text/xml; charset=iso-8859-1',
          'X-Mixed-Case': 'yes',
          'X-Latin': Buffer.from([0xe9]).toString('latin1'),
        });
        res.end(latin1);
      },
      (url) => post(`${url}/1.0.2/TerminalInformationService.asmx?a=b`, '<é/>'),
    );
    assert.ok(out.lean.body!.equals(latin1));
    assert.equal(out.lean.statusText, 'All Good');
    assert.ok(out.lean.headers!.some(([n, v]) => n === 'X-Latin' && v === 'é'));
    // Every header that went, in undici's order: host, connection, the request's own, content-length.
    assert.deepEqual(
      out.lean.sentHeaders.map(([n]) => n),
      ['host', 'connection', 'Content-Type', 'SOAPAction', 'content-length'],
    );
  });

  it('times the connect of a fresh socket only', async () => {
    server = await startServer((_req, res) => void res.end('<ok/>'));
    const fresh = new NodeDispatchers();
    try {
      const options: HttpSendOptions = {
        ...t.options('lean'),
        dispatcher: fresh.dispatcherFor({ connectTimeoutMs: 5000 }),
        expectSocket: (w) => fresh.expectSocket(w),
      };
      const first = await sendHttp(post(server.url), options);
      const second = await sendHttp(post(server.url), options);
      assert.ok(first.timing.connectMs !== undefined && first.timing.firstByteMs !== undefined);
      assert.equal(second.timing.connectMs, undefined, 'a reused socket has no connect phase');
      assert.ok(second.timing.firstByteMs !== undefined);
    } finally {
      await fresh.close();
    }
  });

  it('a chunked reply, in several writes', async () => {
    const out = await same(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/xml' });
        res.write('<a>');
        setTimeout(() => {
          res.write('<b/>'.repeat(5000));
          res.end('</a>');
        }, 20);
      },
      (url) => post(url),
    );
    assert.equal(out.lean.body!.toString(), `<a>${'<b/>'.repeat(5000)}</a>`);
  });

  it('a GET without a body: no content-length, as undici writes it', async () => {
    const out = await same(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/xml' });
        res.end('<ok/>');
      },
      (url) => get(`${url}/x?y=1`),
    );
    assert.equal(server!.received[1].headers['content-length'], undefined);
    assert.equal(out.lean.requestBytes, 0);
  });

  it('an empty POST says content-length: 0', async () => {
    await same(
      (_req, res) => void res.end('<ok/>'),
      (url) => post(url, ''),
    );
    assert.equal(server!.received[1].headers['content-length'], '0');
  });

  it('1xx before the reply is read past; a 204 has no body; a gzip reply stays its bytes', async () => {
    await same(
      (_req, res) => {
        res.writeEarlyHints({ link: '</x>; rel=preload' });
        res.writeHead(200, { 'Content-Type': 'text/xml' });
        res.end('<after-hints/>');
      },
      (url) => post(url),
    );
    await server!.close();
    await same(
      (_req, res) => {
        res.writeHead(204);
        res.end();
      },
      (url) => post(url),
    );
    await server!.close();
    const zipped = gzipSync(Buffer.from(soapReply('1.1', '<x/>')));
    const out = await same(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': SOAP11_TYPE, 'Content-Encoding': 'gzip' });
        res.end(zipped);
      },
      (url) => post(url),
    );
    assert.ok(out.lean.body!.equals(zipped), 'neither dispatcher decodes');
  });

  it('redirects are reported, with their Location', async () => {
    const out = await same(
      (_req, res) => {
        res.writeHead(302, { Location: 'http://elsewhere.example/' });
        res.end();
      },
      (url) => post(url),
    );
    assert.equal(out.lean.error?.kind, 'redirect');
  });

  it('judged only: the Content-Type alone, and no sent-header lines', async () => {
    const out = await same(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': SOAP11_TYPE, 'X-Other': '1' });
        res.end('<ok/>');
      },
      (url) => post(url),
      { judgedOnly: true },
    );
    assert.deepEqual(out.lean.headers, [['Content-Type', SOAP11_TYPE]]);
    assert.deepEqual(out.lean.sentHeaders, []);
  });

  it('a Content-Length over the limit is refused unread; a chunked one is cut at the limit', async () => {
    const big = 'x'.repeat(5000);
    const out = await same(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/xml', 'Content-Length': big.length });
        res.end(big);
      },
      (url) => post(url),
      { maxReplyBytes: 1000 },
    );
    assert.equal(out.lean.error?.kind, 'too-large');
    await server!.close();
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.write(big);
      res.end(big);
    });
    for (const side of SIDES) {
      const o = await sendHttp(post(server.url), t.options(side, { maxReplyBytes: 1000 }));
      assert.equal(o.error?.kind, 'too-large', side);
      assert.equal(o.body!.length, 1000, side);
    }
  });
});

describe('lean dispatcher: framing and failures on the wire', () => {
  const t = transports();
  const closers: Array<() => Promise<void>> = [];
  let server: TestServer | undefined;
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
    await server?.close();
    server = undefined;
  });
  after(() => t.close());

  async function raw(onData: Parameters<typeof rawServer>[0]) {
    const s = await rawServer(onData);
    closers.push(s.close);
    return s;
  }

  it('a reply that ends with the connection (no length, not chunked) is whole; that socket is not reused', async () => {
    const s = await raw((socket) => {
      socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n\r\n<whole>until the end</whole>');
    });
    for (const side of SIDES) {
      const a = await sendHttp(post(s.url), t.options(side));
      const b = await sendHttp(post(s.url), t.options(side));
      for (const o of [a, b]) {
        assert.equal(o.error, undefined, side);
        assert.equal(o.complete, true);
        assert.equal(o.body!.toString(), '<whole>until the end</whole>');
      }
    }
    assert.equal(s.connections(), 4);
  });

  it('Connection: close in the reply: the next request opens a fresh socket', async () => {
    const s = await raw((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\n<ok>');
    });
    const lean = t.options('lean');
    for (let i = 0; i < 3; i++) assert.equal((await sendHttp(post(s.url), lean)).body!.toString(), '<ok>');
    assert.equal(s.connections(), 3);
  });

  it('keep-alive: one socket for requests in turn, one per request in flight, reused', async () => {
    const s = await raw((socket) => {
      setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\nKeep-Alive: timeout=5\r\n\r\n<ok>'), 5);
    });
    const lean = t.options('lean');
    for (let i = 0; i < 20; i++) assert.equal((await sendHttp(post(s.url), lean)).status, 200);
    assert.equal(s.connections(), 1);
    for (let round = 0; round < 3; round++) {
      const all = await Promise.all(Array.from({ length: 8 }, () => sendHttp(post(s.url), lean)));
      assert.ok(all.every((o) => o.status === 200 && !o.error));
    }
    assert.equal(s.connections(), 8, 'the 8 in flight at once need 8 sockets, kept for the next rounds');
  });

  it('a socket the server closed while idle is never written on: the next request goes on a fresh one (as with undici)', async () => {
    for (const side of SIDES) {
      // Each reply keeps the connection alive; 40 ms later the server closes it anyway.
      const s = await raw((socket) => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>');
        setTimeout(() => socket.end(), 40);
      });
      const options = t.options(side);
      assert.equal((await sendHttp(post(s.url), options)).status, 200);
      await sleep(150);
      assert.equal((await sendHttp(post(s.url), options)).status, 200);
      // The loop held while the server's FIN arrives: the socket looks open until the loop reads it.
      const heldUntil = Date.now() + 150;
      while (Date.now() < heldUntil) {
        /* the event loop is held */
      }
      const third = await sendHttp(post(s.url), options);
      assert.equal(third.error, undefined, side);
      assert.equal(third.status, 200);
      assert.equal(s.connections(), 3, side);
    }
  });

  it("a server's Keep-Alive timeout of 2 s or less: the socket is not kept (as undici)", async () => {
    const s = await raw((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\nKeep-Alive: timeout=1\r\n\r\n<ok>'));
    const lean = t.options('lean');
    for (let i = 0; i < 3; i++) assert.equal((await sendHttp(post(s.url), lean)).status, 200);
    assert.equal(s.connections(), 3);
  });

  it('a request the server drops is reported as a reset, and not sent again (a POST is not idempotent)', async () => {
    let seen = 0;
    const s = await raw((socket, _request, n) => {
      seen++;
      if (n === 1) socket.destroy();
      else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>');
    });
    const lean = t.options('lean');
    assert.equal((await sendHttp(post(s.url), lean)).status, 200);
    const dropped = await sendHttp(post(s.url), lean);
    assert.equal(dropped.error?.kind, 'reset');
    assert.equal(seen, 2, 'the dropped request reached the server once');
    assert.equal((await sendHttp(post(s.url), lean)).status, 200);
  });

  it('a reset mid-reply keeps what came and says reset, as undici does', async () => {
    const s = await raw((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nContent-Type: text/xml\r\n\r\n<partial>');
      setTimeout(() => socket.resetAndDestroy(), 20);
    });
    for (const side of SIDES) {
      const o = await sendHttp(post(s.url), t.options(side));
      assert.equal(o.error?.kind, 'reset', side);
      assert.equal(o.status, 200);
      assert.equal(o.complete, false);
      assert.equal(o.body!.toString(), '<partial>');
    }
    const fin = await raw((socket) => {
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n<cut>');
    });
    for (const side of SIDES) {
      const o = await sendHttp(post(fin.url), t.options(side));
      assert.equal(o.error?.kind, 'reset', side);
      assert.equal(o.error?.code, 'UND_ERR_SOCKET');
      assert.equal(o.body!.toString(), '<cut>');
    }
  });

  it('a refused connection is ECONNREFUSED', async () => {
    const s = await raw(() => undefined);
    await s.close();
    closers.length = 0;
    for (const side of SIDES) {
      const o = await sendHttp(post(s.url), t.options(side));
      assert.equal(o.error?.kind, 'connect', side);
      assert.equal(o.error?.code, 'ECONNREFUSED', side);
      assert.equal(o.status, undefined);
    }
  });

  it('timeouts: the whole exchange, the headers, a stalled body', async () => {
    const silent = await raw(() => undefined);
    for (const side of SIDES) {
      const o = await sendHttp(post(silent.url), t.options(side, { timeoutMs: 150 }));
      assert.equal(o.error?.kind, 'timeout', side);
      assert.match(o.error!.message, /within 150 ms/);
      const h = await sendHttp(post(silent.url), t.options(side, { timeoutMs: 2000, headersTimeoutMs: 100 }));
      assert.equal(h.error?.code, 'UND_ERR_HEADERS_TIMEOUT', side);
    }
    const stalls = await raw((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n<start>'));
    for (const side of SIDES) {
      const o = await sendHttp(post(stalls.url), t.options(side, { timeoutMs: 2000, bodyTimeoutMs: 100 }));
      assert.equal(o.error?.code, 'UND_ERR_BODY_TIMEOUT', side);
      assert.equal(o.body!.toString(), '<start>');
    }
  });

  it('cancelled mid-body: keeps what came, and the server sees the socket close', async () => {
    let closed = 0;
    const s = await raw((socket) => {
      socket.on('close', () => closed++);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n<start>');
    });
    const controller = new AbortController();
    const pending = sendHttp(
      post(s.url),
      t.options('lean', {
        signal: controller.signal,
        onPhase: (p) => {
          if (p === 'receiving') setTimeout(() => controller.abort(), 20);
        },
      }),
    );
    const o = await pending;
    assert.equal(o.error?.kind, 'cancelled');
    assert.equal(o.body!.toString(), '<start>');
    await sleep(50);
    assert.equal(closed, 1);
  });

  it('cancelled before the connection is made: nothing reaches the server, the socket stays for the next', async () => {
    let seen = 0;
    const s = await raw((socket) => {
      seen++;
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>');
    });
    const controller = new AbortController();
    const pending = sendHttp(post(s.url), t.options('lean', { signal: controller.signal }));
    controller.abort();
    assert.equal((await pending).error?.kind, 'cancelled');
    await sleep(30);
    assert.equal(seen, 0);
    assert.equal((await sendHttp(post(s.url), t.options('lean'))).status, 200);
    assert.equal(s.connections(), 1);
  });

  it('takes only plain http: https, other methods, headers undici writes itself and old handlers go to undici', async () => {
    let given = 0;
    const fallback = {
      dispatch: () => {
        given++;
        return true;
      },
      destroy: async () => undefined,
    } as never;
    const lean = new LeanDispatcher({ connectTimeoutMs: 1000, fallback: () => fallback });
    const handler = { onRequestStart() {}, onResponseError() {} };
    const base = { origin: 'http://127.0.0.1:9', path: '/', method: 'POST' as const, headers: [] as string[] };
    lean.dispatch({ ...base, origin: 'https://127.0.0.1:9' }, handler);
    lean.dispatch({ ...base, method: 'PUT' }, handler);
    lean.dispatch({ ...base, headers: ['Host', 'elsewhere'] }, handler);
    lean.dispatch({ ...base, headers: ['Connection', 'close'] }, handler);
    lean.dispatch({ ...base, headers: ['X-Bad', 'a\r\nb'] }, handler);
    lean.dispatch(base, { onError() {} } as never);
    assert.equal(given, 6);
    await lean.destroy();
  });
});

describe('lean dispatcher: judged as with undici, and carrier load over it', () => {
  let sandbox: SandboxHandle;
  before(async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
  });
  after(() => sandbox.close());

  it("the sandbox's GetRateQuote reply: the same exchange, judged the same, full and judged only", async () => {
    const contexts: Record<Side, CoreContext> = { undici: { ...nodeContext(), http: new NodeDispatchers({ lean: false }) }, lean: nodeContext() };
    try {
      const environment = environmentAt(sandbox.url);
      const request = sampleRequest('GetRateQuote', '1.0.3');
      const prepared = prepareRequest({ request, environment, apiKey: 'lean-key' });
      const strip = (x: Awaited<ReturnType<typeof send>>) => {
        const { id: _id, startedAt: _s, timing: _t, ...rest } = x as unknown as Record<string, unknown>;
        const reply = rest.reply as Record<string, unknown> | undefined;
        // The sandbox stamps each reply with its date.
        return { ...rest, reply: reply && { ...reply, headers: (reply.headers as [string, string][]).filter(([n]) => n.toLowerCase() !== 'date') } };
      };
      for (const judgedOnly of [false, true]) {
        const got: Partial<Record<Side, ReturnType<typeof strip>>> = {};
        for (const side of SIDES) {
          const x = await send({ context: contexts[side], request, environment, apiKey: 'lean-key', prepared, judgedOnly });
          assert.equal(x.judgement?.verdict.kind, 'success', `${side}: ${JSON.stringify(x.error ?? x.findings)}`);
          got[side] = strip(x);
        }
        assert.deepEqual(got.lean, got.undici);
      }
    } finally {
      await Promise.all([contexts.undici.http.close(), contexts.lean.http.close()]);
    }
  });

  it('carrier load sends over the lean dispatcher: every exchange judged, none through undici', async function () {
    this.timeout(30_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lean-load-'));
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl: sandbox.url } }));
    const request = sampleRequest('GetRateQuote', '1.0.3');
    fs.writeFileSync(
      path.join(dir, 'quote.carrier.json'),
      JSON.stringify({ ...request, expect: { status: 200, fault: false, success: true, reply: { 'Result.ServiceLevels[0].NetCharge': { gt: 0 } } } }),
    );
    let undiciRequests = 0;
    const onUndici = () => undiciRequests++;
    diagnostics.subscribe('undici:client:sendHeaders', onUndici);
    const out: string[] = [];
    const io: CliIo = { cwd: dir, env: { CARRIER_API_KEY: 'lean-key' }, stdout: (s) => out.push(s), stderr: (s) => out.push(s), isTTY: false };
    try {
      const code = await runLoadCommand([dir, '--vus', '8', '--iterations', '200', '--env', 'local', '-r', 'json', '--out', path.join(dir, 'reports')], io);
      assert.equal(code, 0, out.join(''));
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', onUndici);
    }
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'reports', 'load-report.json'), 'utf8')) as { overall: { count: number; errors: number } };
    assert.equal(report.overall.count, 200);
    assert.equal(report.overall.errors, 0);
    assert.equal(undiciRequests, 0, 'no request went through undici');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
