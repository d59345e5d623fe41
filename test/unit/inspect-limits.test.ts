/**
 * The inspector holds and forgets by bytes, and holds a connection only while it is used:
 * recorded exchanges kept within a byte budget (oldest dropped), bodies over the cap kept cut and
 * marked while the relay passes them whole, body copies of exchanges under way within a shared
 * budget; idle, head and body timeouts; `Connection: close` from either side; a request with
 * both Content-Length and Transfer-Encoding refused. Behaviour only: the timeouts are set short
 * and the tests wait for what must happen, never measure how long it took. Memory figures come
 * from `npx tsx bench/inspector-memory.ts`.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { startInspector, type InspectorHandle, type InspectorOptions } from '../../src/inspector';
import { ExchangeStore, exchangeWeight } from '../../src/inspector/store';
import type { RecordedExchange } from '../../src/inspector/types';
import { closeClientAgent, plainRequest } from './inspect-kit';

const KB = 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Target {
  readonly url: string;
  /** Request heads (latin1) as the target received them, per connection. */
  readonly received: string[];
  /** How many connections the target has open now. */
  open(): number;
  close(): Promise<void>;
}

/** A raw target: `answer` gets each connection's bytes so far and may write to the socket. */
function rawTarget(answer: (got: string, socket: net.Socket) => void): Promise<Target> {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const i = received.push('') - 1;
    socket.on('data', (d) => {
      received[i] += d.toString('latin1');
      answer(received[i], socket);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
        received,
        open: () => sockets.size,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

/** Answers every complete request head (no body) with a small reply. */
const okTarget = () =>
  rawTarget((got, socket) => {
    const heads = got.split('\r\n\r\n').length - 1;
    const answered = (socket as net.Socket & { answered?: number }).answered ?? 0;
    for (let n = answered; n < heads; n++) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    (socket as net.Socket & { answered?: number }).answered = heads;
  });

interface Client {
  readonly socket: net.Socket;
  /** Everything received so far, as latin1. */
  got(): string;
  /** Resolves when the inspector closed the connection (end or reset). */
  readonly closed: Promise<void>;
}

function connect(url: string): Promise<Client> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname, () => resolve({ socket, got: () => got, closed }));
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('latin1');
    });
    socket.on('error', reject);
    const closed = new Promise<void>((done) => {
      socket.on('end', done);
      socket.on('close', () => done());
    });
  });
}

async function until(what: string, test: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function recorded(inspector: InspectorHandle, n: number): Promise<readonly RecordedExchange[]> {
  await until(`${n} exchanges recorded`, () => inspector.exchanges().length >= n);
  await inspector.flush();
  return inspector.exchanges();
}

describe('traffic inspector: memory held by bytes', function () {
  this.timeout(60_000);
  afterEach(() => closeClientAgent());

  it('keeps recorded exchanges within a byte budget (oldest dropped) and bodies over the cap cut and marked, while the client gets every byte', async () => {
    const size = 200 * KB;
    const body = Buffer.alloc(size);
    for (let i = 0; i < size; i++) body[i] = 0x41 + (i % 26);
    const target = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(size), 'X-N': String(req.url) });
      res.end(body);
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    const inspector = await startInspector({
      target: `http://127.0.0.1:${(target.address() as net.AddressInfo).port}`,
      namespaces: DEFAULT_NAMESPACES,
      maxBodyBytes: 32 * KB,
      keepBytes: 160 * KB,
    });
    try {
      for (let i = 1; i <= 12; i++) {
        const got = await plainRequest(`${inspector.url}/big/${i}`, 'GET', []);
        assert.ok(got.body.equals(body), `reply ${i} reached the client whole`);
      }
      await until('the last exchange', () => inspector.exchanges().some((r) => r.exchange.request.url.endsWith('/big/12')));
      await inspector.flush();
      const kept = inspector.exchanges();
      assert.ok(kept.length >= 2 && kept.length < 12, `${kept.length} of 12 kept`);
      assert.deepEqual(
        kept.map((r) => r.seq),
        kept.map((_, i) => 12 - kept.length + 1 + i),
        'the newest are kept, oldest first',
      );
      assert.ok(kept.reduce((n, r) => n + exchangeWeight(r), 0) <= 160 * KB, 'within the budget');
      for (const r of kept) {
        assert.equal(r.exchange.reply?.bodyText.length, 32 * KB, 'the reply body cut at the cap');
        assert.equal(r.exchange.reply?.size, size);
        assert.equal(r.exchange.recorded?.replyBodyTruncated, true, 'and marked');
        assert.ok(
          r.exchange.findings.some((f) => f.message === `The reply body is ${size} bytes; the first ${32 * KB} were kept and not read along the catalog`),
        );
      }
    } finally {
      await inspector.close();
      target.closeAllConnections();
      target.close();
    }
  });

  it('shares one budget for the copies of bodies under way: past it, bodies pass whole without a copy, and it is said so', async () => {
    const size = 64 * KB;
    const body = Buffer.alloc(size, 0x42);
    let waiting: Array<() => void> = [];
    const target = http.createServer((req, res) => {
      req.resume();
      // Hold every reply until all requests are in, so all bodies are under way at once.
      waiting.push(() => {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(size) });
        res.end(body);
      });
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    const inspector = await startInspector({
      target: `http://127.0.0.1:${(target.address() as net.AddressInfo).port}`,
      namespaces: DEFAULT_NAMESPACES,
      maxBodyBytes: 64 * KB,
      captureBytes: 160 * KB,
    });
    try {
      const agent = new http.Agent({ keepAlive: false });
      const calls = Array.from(
        { length: 6 },
        (_, i) =>
          new Promise<Buffer>((resolve, reject) => {
            const req = http.request(
              `${inspector.url}/up/${i}`,
              { method: 'POST', agent, headers: { 'Content-Type': 'text/plain', 'Content-Length': String(size) } },
              (res) => {
                const parts: Buffer[] = [];
                res.on('data', (c: Buffer) => parts.push(c));
                res.on('end', () => resolve(Buffer.concat(parts)));
              },
            );
            req.on('error', reject);
            req.end(body);
          }),
      );
      await until('every request at the target', () => waiting.length === 6);
      for (const w of waiting) w();
      waiting = [];
      for (const got of await Promise.all(calls)) assert.ok(got.equals(body), 'every reply whole');
      const xs = await recorded(inspector, 6);
      const keptBytes = xs.reduce((n, r) => n + r.exchange.request.body.length + (r.exchange.reply?.bodyText.length ?? 0), 0);
      assert.ok(keptBytes <= 160 * KB, `${keptBytes} bytes of copies kept`);
      assert.ok(
        xs.some((r) => r.exchange.findings.some((f) => /memory for bodies under way was full/.test(f.message))),
        'the bodies that got no copy say why',
      );
      assert.deepEqual(
        xs.map((r) => [r.exchange.sizes?.requestBytes, r.exchange.reply?.size, r.exchange.error?.message]),
        xs.map(() => [size, size, undefined]),
        'sizes are the real ones',
      );
      agent.destroy();
    } finally {
      await inspector.close();
      target.closeAllConnections();
      target.close();
    }
  });

  it('a store keeps at most its count and its bytes, oldest going first; an exchange over the budget alone is kept by itself', () => {
    const fake = (seq: number, bytes: number) =>
      ({
        seq,
        recognition: { kind: 'unknown', code: 'path', reason: '' },
        exchange: { request: { method: 'GET', url: '/', headers: [], body: 'x'.repeat(bytes) }, documents: [], findings: [] },
      }) as unknown as RecordedExchange;
    const store = new ExchangeStore(3, 50_000);
    for (let i = 1; i <= 5; i++) store.add(fake(i, 100));
    assert.deepEqual(
      store.list().map((r) => r.seq),
      [3, 4, 5],
    );
    store.add(fake(6, 20_000));
    store.add(fake(7, 20_000));
    assert.deepEqual(
      store.list().map((r) => r.seq),
      [6, 7],
    );
    store.add(fake(8, 90_000));
    assert.deepEqual(
      store.list().map((r) => r.seq),
      [8],
    );
    assert.ok(exchangeWeight(fake(9, 1000)) < exchangeWeight(fake(9, 2000)));
    assert.equal(
      exchangeWeight({
        ...fake(9, 0),
        exchange: { ...fake(9, 0).exchange, request: { method: 'GET', url: '/', headers: [], body: '••' } },
      } as RecordedExchange) - exchangeWeight(fake(9, 0)),
      4,
      'a string with the mask counts two bytes a character',
    );
    // carrier inspect keeps none: it prints each exchange as it is read.
    const none = new ExchangeStore(0, 50_000);
    for (let i = 1; i <= 3; i++) none.add(fake(i, 100));
    assert.equal(none.size, 0);
  });
});

describe('traffic inspector: connections held only while used', function () {
  this.timeout(30_000);
  let target: Target;
  let inspector: InspectorHandle;
  const options: Partial<InspectorOptions> = { idleTimeoutMs: 300, headersTimeoutMs: 300, bodyTimeoutMs: 400 };

  beforeEach(async () => {
    target = await okTarget();
  });
  afterEach(async () => {
    await inspector?.close();
    await target.close();
  });

  const start = async (t: Target = target) => {
    inspector = await startInspector({ target: t.url, namespaces: DEFAULT_NAMESPACES, ...options });
  };

  it('closes a connection that sends nothing, and one that waits between requests; not one with an exchange under way', async () => {
    await start();
    const silent = await connect(inspector.url);
    await silent.closed;
    assert.equal(silent.got(), '', 'closed without a word');
    const between = await connect(inspector.url);
    between.socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n');
    await until('the reply', () => between.got().endsWith('ok'));
    await between.closed;
    assert.equal((await recorded(inspector, 1)).length, 1);
    // A reply the target takes longer than the idle timeout (but not the body timeout) to send is waited for.
    const slowTarget = await rawTarget((got, socket) => {
      if (got.endsWith('\r\n\r\n')) setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nslow'), 350);
    });
    await inspector.close();
    await start(slowTarget);
    const busy = await connect(inspector.url);
    busy.socket.write('GET /b HTTP/1.1\r\nHost: x\r\n\r\n');
    await until('the slow reply', () => busy.got().endsWith('slow'));
    await slowTarget.close();
  });

  it('answers 408 to a request head that does not end in time, and records nothing', async () => {
    await start();
    const c = await connect(inspector.url);
    c.socket.write('GET /drip HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => {
      if (!c.socket.destroyed) c.socket.write('X');
    }, 50);
    await c.closed;
    clearInterval(drip);
    assert.match(c.got(), /^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*request head was not complete/);
    await inspector.flush();
    assert.equal(inspector.exchanges().length, 0);
    assert.equal(target.received.join(''), '', 'nothing reached the target');
  });

  it('answers 408 to a request body that stalls and 504 for a target that does not answer, each recorded as a timeout', async () => {
    const mute = await rawTarget(() => undefined);
    await start(mute);
    const c = await connect(inspector.url);
    c.socket.write('POST /stall HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhalf');
    await c.closed;
    assert.match(c.got(), /^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*X-Carrier-Inspect: client-timeout\r\n[\s\S]*sent nothing of its request body/);
    const [stalled] = await recorded(inspector, 1);
    assert.equal(stalled.exchange.error?.kind, 'timeout');
    assert.deepEqual(stalled.exchange.wire?.answered, { status: 408, statusText: 'Request Timeout' });
    assert.equal(stalled.exchange.request.body, 'half');

    const d = await connect(inspector.url);
    d.socket.write('GET /mute HTTP/1.1\r\nHost: x\r\n\r\n');
    await d.closed;
    assert.match(
      d.got(),
      /^HTTP\/1\.1 504 Gateway Timeout\r\n[\s\S]*X-Carrier-Inspect: target-timeout\r\n[\s\S]*this 504 Gateway Timeout is the inspector's reply, not the target's: .* sent nothing for/,
    );
    const silent = (await recorded(inspector, 2))[1];
    assert.equal(silent.exchange.error?.kind, 'timeout');
    assert.deepEqual(silent.exchange.wire?.answered, { status: 504, statusText: 'Gateway Timeout' });
    await until('the target connection closed', () => mute.open() === 0);
    await mute.close();
  });

  it('honours Connection: close from the client: the reply comes, the connection ends, the target is asked to close, and nothing after it is relayed', async () => {
    await start();
    const c = await connect(inspector.url);
    c.socket.write('GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /never HTTP/1.1\r\nHost: x\r\n\r\n');
    await c.closed;
    assert.equal(c.got().match(/HTTP\/1\.1 200 OK/g)?.length, 1, 'one reply');
    assert.match(target.received.join(''), /^GET \/last HTTP\/1\.1\r\nHost: [^\r]+\r\nConnection: close\r\n\r\n$/);
    await until('the target connection closed', () => target.open() === 0);
    const xs = await recorded(inspector, 1);
    assert.deepEqual(
      xs.map((r) => r.exchange.request.url.replace(/^http:\/\/[^/]+/, '')),
      ['/last'],
    );
    // The last request's own body still goes on whole, however it is cut into writes.
    const post = await connect(inspector.url);
    post.socket.write('POST /body HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 10\r\n\r\n01234');
    await sleep(50);
    post.socket.write('56789');
    await post.closed;
    assert.ok(
      target.received.some((r) => r.endsWith('\r\n\r\n0123456789')),
      'the whole body reached the target',
    );
    // HTTP/1.0 closes unless it asks to keep alive.
    const old = await connect(inspector.url);
    old.socket.write('GET /old HTTP/1.0\r\n\r\n');
    await old.closed;
    assert.match(old.got(), /\r\n\r\nok$/);
  });

  it("honours Connection: close from the target: the client's connection ends after that reply; a request sent after it is recorded as not answered", async () => {
    const closing = await rawTarget((got, socket) => {
      if (got.endsWith('\r\n\r\n') && !socket.writableEnded) socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbye');
    });
    await start(closing);
    const c = await connect(inspector.url);
    c.socket.write('GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\n');
    await c.closed;
    assert.match(c.got(), /^HTTP\/1\.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbye$/);
    const xs = await recorded(inspector, 2);
    assert.equal(xs[0].exchange.reply?.status, 200);
    assert.equal(xs[0].exchange.error, undefined);
    assert.match(xs[1].exchange.error?.message ?? '', /closed the connection after the reply before this one/);
    await closing.close();
  });

  it('refuses with 400 a request with both Content-Length and Transfer-Encoding, or a header name with whitespace before its colon; the target never sees it', async () => {
    await start();
    for (const head of [
      'POST /smuggle HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\nHost: x\r\n\r\n',
      'POST /smuggle HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 4\r\n\r\nabcd',
    ]) {
      const c = await connect(inspector.url);
      c.socket.write(head);
      await c.closed;
      assert.match(c.got(), /^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*(request smuggling|not a token)/);
    }
    await inspector.flush();
    assert.equal(inspector.exchanges().length, 0);
    assert.equal(target.received.join(''), '');
  });
});
