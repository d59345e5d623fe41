/**
 * The inspector's HTTP/1.1 framing on raw bytes: heads split anywhere, chunked bodies fed a byte
 * at a time, request heads rewritten (Host, prefix, hop-by-hop headers, TE: trailers said again on the inspector's hop) and nothing else; then,
 * through a real relay with raw sockets on both ends, the message shapes real traffic has —
 * pipelined requests, chunked both ways, 100 Continue, HEAD, 204, a reply ended by the close.
 */
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { startInspector, type InspectorHandle } from '../../src/inspector';
import { bodyFramer } from '../../src/inspector/wire/body';
import { framingOf, FramingError, HeadReader, HeadTooLarge, MAX_HEAD_BYTES, parseHead } from '../../src/inspector/wire/head';
import { forwardedHead, parseRequestLine, parseStatusLine, RequestLineError } from '../../src/inspector/wire/rewrite';

/** Feeds `bytes` to a body framer in pieces of `step`; returns the payload and where the message ended. */
function frame(framing: Parameters<typeof bodyFramer>[0], bytes: Buffer, step: number): { payload: string; end: number; done: boolean } {
  const f = bodyFramer(framing);
  const parts: Buffer[] = [];
  let end = -1;
  for (let at = 0; at < bytes.length && end < 0; at += step) {
    const piece = bytes.subarray(at, at + step);
    const used = f.feed(piece, 0, (p) => parts.push(Buffer.from(p)));
    if (f.done) end = at + used;
  }
  return { payload: Buffer.concat(parts).toString('latin1'), end, done: f.done };
}

describe('inspector wire: heads and bodies', () => {
  it('finds the end of a head wherever the chunks split it, LF-only heads too', () => {
    const text = 'POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc';
    for (const step of [1, 2, 3, 7, text.length]) {
      const reader = new HeadReader();
      const bytes = Buffer.from(text, 'latin1');
      let rest = '';
      for (let at = 0; at < bytes.length; at += step) {
        const piece = bytes.subarray(at, at + step);
        const end = reader.push(piece, 0);
        if (end >= 0) {
          rest = Buffer.concat([piece.subarray(end), bytes.subarray(at + step)]).toString('latin1');
          break;
        }
      }
      assert.equal(rest, 'abc', `step ${step}`);
      assert.equal(reader.take(), 'POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n');
    }
    const lf = new HeadReader();
    assert.equal(lf.push(Buffer.from('GET / HTTP/1.1\nHost: x\n\nnext'), 0), 'GET / HTTP/1.1\nHost: x\n\n'.length);
  });

  it('refuses a head larger than the limit', () => {
    const reader = new HeadReader();
    assert.throws(() => {
      for (;;) reader.push(Buffer.alloc(8192, 0x61), 0);
    }, HeadTooLarge);
    assert.ok(MAX_HEAD_BYTES >= 32 * 1024);
  });

  it('reads header lines as sent, with obs-fold continuations joined', () => {
    const head = parseHead('HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nX-Long: one\r\n two\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n\r\n');
    assert.equal(head.startLine, 'HTTP/1.1 200 OK');
    assert.deepEqual(head.headers, [
      ['Content-Type', 'text/xml'],
      ['X-Long', 'one two'],
      ['Set-Cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
  });

  it('tells how a body is framed, and refuses a length that is not one', () => {
    const h = (lines: string) => parseHead(`POST / HTTP/1.1\r\n${lines}\r\n\r\n`);
    assert.deepEqual(framingOf(h('Content-Length: 12'), 'none'), { kind: 'length', length: 12 });
    assert.deepEqual(framingOf(h('Content-Length: 0'), 'none'), { kind: 'none' });
    assert.deepEqual(framingOf(h('Transfer-Encoding: gzip, chunked\r\nContent-Length: 5'), 'none'), { kind: 'chunked' });
    assert.deepEqual(framingOf(h('X: y'), 'none'), { kind: 'none' });
    assert.deepEqual(framingOf(h('X: y'), 'close'), { kind: 'close' });
    assert.deepEqual(framingOf(h('Content-Length: 7, 7'), 'none'), { kind: 'length', length: 7 });
    assert.throws(() => framingOf(h('Content-Length: 7, 8'), 'none'), FramingError);
    assert.throws(() => framingOf(h('Content-Length: -1'), 'none'), FramingError);
    assert.throws(() => framingOf(h('Transfer-Encoding: gzip'), 'none'), FramingError);
  });

  it('follows chunked coding fed a byte at a time: extensions, trailers, and where the next message starts', () => {
    const wire = Buffer.from('4;ext=1\r\nWiki\r\n6\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\nGET /next', 'latin1');
    for (const step of [1, 2, 5, wire.length]) {
      const r = frame({ kind: 'chunked' }, wire, step);
      assert.equal(r.payload, 'Wikipedia in \r\n\r\nchunks.', `step ${step}`);
      assert.equal(wire.subarray(r.end).toString(), 'GET /next', `step ${step}`);
    }
    assert.throws(() => frame({ kind: 'chunked' }, Buffer.from('zz\r\n'), 1), FramingError);
    assert.throws(() => frame({ kind: 'chunked' }, Buffer.from('2\r\nabX\r\n'), 1), FramingError);
  });

  it('takes exactly a fixed length, and everything until the close', () => {
    const r = frame({ kind: 'length', length: 5 }, Buffer.from('helloGET'), 3);
    assert.deepEqual([r.payload, r.end], ['hello', 5]);
    const c = frame({ kind: 'close' }, Buffer.from('all of it'), 4);
    assert.deepEqual([c.payload, c.done], ['all of it', false]);
  });

  it('rewrites a request head: origin form under the prefix, Host named for the target, hop-by-hop headers out, TE: trailers said again', () => {
    const head = parseHead(
      [
        'POST http://inspector.test:8080/1.0.3/RateQuoteService.asmx?x=1 HTTP/1.1',
        'host: inspector.test:8080',
        'Connection: keep-alive, X-Trace-Hop',
        'Keep-Alive: timeout=5',
        'X-Trace-Hop: 1',
        'Proxy-Authorization: Basic eA==',
        'Upgrade: h2c',
        'TE: trailers',
        'SOAPAction:  "urn:x/GetRateQuote"',
        'Transfer-Encoding: chunked',
        'Expect: 100-continue',
        '',
        '',
      ].join('\r\n'),
    );
    const line = parseRequestLine(head.startLine);
    assert.deepEqual(line, { method: 'POST', path: '/1.0.3/RateQuoteService.asmx?x=1', version: 'HTTP/1.1' });
    const forwarded = forwardedHead(head, line, '/ltl', 'service.test');
    assert.equal(
      forwarded.text,
      [
        'POST /ltl/1.0.3/RateQuoteService.asmx?x=1 HTTP/1.1',
        'host: service.test',
        'SOAPAction:  "urn:x/GetRateQuote"',
        'Transfer-Encoding: chunked',
        'Expect: 100-continue',
        'TE: trailers',
        'Connection: TE',
        '',
        '',
      ].join('\r\n'),
    );
    assert.deepEqual(forwarded.headers, [
      ['host', 'service.test'],
      ['SOAPAction', '"urn:x/GetRateQuote"'],
      ['Transfer-Encoding', 'chunked'],
      ['Expect', '100-continue'],
      ['TE', 'trailers'],
      ['Connection', 'TE'],
    ]);
    const closing = forwardedHead(head, line, '', 'h', true);
    assert.ok(closing.text.endsWith('\r\nTE: trailers\r\nConnection: close, TE\r\n\r\n'), closing.text);
    const noHost = parseHead('GET /x HTTP/1.0\r\nAccept: */*\r\n\r\n');
    assert.equal(forwardedHead(noHost, parseRequestLine(noHost.startLine), '', 'h:1').text, 'GET /x HTTP/1.0\r\nHost: h:1\r\nAccept: */*\r\n\r\n');
    assert.throws(() => parseRequestLine('HELLO'), RequestLineError);
    assert.throws(() => parseRequestLine('GET x HTTP/1.1'), RequestLineError);
    assert.deepEqual(parseStatusLine('HTTP/1.1 500 Internal Server Error'), { status: 500, statusText: 'Internal Server Error' });
    assert.deepEqual(parseStatusLine('HTTP/1.0 204'), { status: 204, statusText: '' });
    assert.equal(parseStatusLine('SSH-2.0-OpenSSH'), undefined);
  });
});

// ---- through a relay, raw sockets on both ends ----

interface RawTarget {
  readonly url: string;
  /** Every byte the target received, per connection, as latin1 text. */
  readonly received: string[];
  close(): Promise<void>;
}

/** A target that answers each complete request head with `answer(head text, connection index)`. */
function rawTarget(answer: (head: string, conn: number, socket: net.Socket) => string | undefined): Promise<RawTarget> {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const conn = received.length;
    received.push('');
    let buffered = '';
    socket.on('data', (d) => {
      received[conn] += d.toString('latin1');
      buffered += d.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end + 4);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        const chunked = /transfer-encoding: chunked/i.test(head);
        const bodyEnd = chunked ? buffered.indexOf('0\r\n\r\n', end + 4) + 5 : end + 4 + length;
        if (chunked && bodyEnd < 5) {
          // Waiting for the rest of a chunked body; but a client expecting 100 waits for us first.
          if (/expect: 100-continue/i.test(head) && !head.includes('[continued]')) {
            socket.write('HTTP/1.1 100 Continue\r\n\r\n');
            buffered = buffered.replace('\r\n\r\n', '\r\n[continued]: 1\r\n\r\n');
          }
          break;
        }
        if (buffered.length < bodyEnd) break;
        buffered = buffered.slice(bodyEnd);
        const reply = answer(head, conn, socket);
        if (reply !== undefined) socket.write(reply);
      }
    });
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
        received,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

/** Sends raw bytes (in the given pieces, a little apart) and collects the reply bytes until `until` matches or the socket closes. */
function rawClient(url: string, pieces: string[], until: (got: string) => boolean): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete reply; got ${JSON.stringify(got)}`));
    }, 5000);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(got);
    };
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (until(got)) finish();
    });
    socket.on('close', finish);
    socket.on('error', reject);
    void (async () => {
      for (const p of pieces) {
        socket.write(Buffer.from(p, 'latin1'));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
  });
}

describe('inspector wire: through the relay', function () {
  this.timeout(20_000);
  let target: RawTarget;
  let inspector: InspectorHandle;
  let host: string;

  before(async () => {
    target = await rawTarget((head, _conn, socket) => {
      const path = /^\S+ (\S+)/.exec(head)![1];
      if (head.startsWith('HEAD ')) return 'HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 999\r\n\r\n';
      if (path.endsWith('/no-content')) return 'HTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n';
      if (path.endsWith('/chunked'))
        return 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n';
      if (path.endsWith('/until-close')) {
        socket.end('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end');
        return undefined;
      }
      return `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${path.length}\r\n\r\n${path}`;
    });
    inspector = await startInspector({ target: `${target.url}/pre`, namespaces: DEFAULT_NAMESPACES });
    host = new URL(target.url).host;
  });
  after(async () => {
    await inspector.close();
    await target.close();
  });

  async function recorded(n: number) {
    for (let i = 0; i < 100 && inspector.exchanges().length < n; i++) {
      await inspector.flush();
      if (inspector.exchanges().length < n) await new Promise((r) => setTimeout(r, 20));
    }
    return inspector.exchanges();
  }

  it('relays pipelined requests in order, each head rewritten and each body passed as sent', async () => {
    const before = inspector.exchanges().length;
    const requests =
      'GET /one HTTP/1.1\r\nHost: me\r\n\r\nPOST /two HTTP/1.1\r\nHost: me\r\nContent-Length: 4\r\n\r\nbodyGET /three HTTP/1.1\r\nHost: me\r\n\r\n';
    // Split at awkward places: inside a head, inside a body, between messages.
    const got = await rawClient(inspector.url, [requests.slice(0, 9), requests.slice(9, 60), requests.slice(60, 70), requests.slice(70)], (g) =>
      g.includes('/pre/three'),
    );
    assert.equal(got.match(/HTTP\/1\.1 200 OK/g)?.length, 3);
    assert.ok(got.indexOf('/pre/one') < got.indexOf('/pre/two') && got.indexOf('/pre/two') < got.indexOf('/pre/three'));
    const sent = target.received.at(-1)!;
    assert.equal(
      sent,
      `GET /pre/one HTTP/1.1\r\nHost: ${host}\r\n\r\nPOST /pre/two HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 4\r\n\r\nbodyGET /pre/three HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    );
    const xs = (await recorded(before + 3)).slice(before);
    assert.deepEqual(
      xs.map((r) => [r.exchange.request.method, r.exchange.request.url.replace(target.url, ''), r.exchange.request.body, r.exchange.reply?.bodyText]),
      [
        ['GET', '/pre/one', '', '/pre/one'],
        ['POST', '/pre/two', 'body', '/pre/two'],
        ['GET', '/pre/three', '', '/pre/three'],
      ],
    );
  });

  it('relays a chunked request and a chunked reply byte for byte, and records the payloads', async () => {
    const before = inspector.exchanges().length;
    const request = 'POST /chunked HTTP/1.1\r\nHost: me\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n';
    const got = await rawClient(
      inspector.url,
      [...request].map((c) => c),
      (g) => g.endsWith('0\r\n\r\n'),
    );
    assert.equal(got.slice(got.indexOf('\r\n\r\n') + 4), '5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n');
    assert.ok(target.received.at(-1)!.endsWith('\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'));
    const [x] = (await recorded(before + 1)).slice(before);
    assert.equal(x.exchange.request.body, 'abcde');
    assert.equal(x.exchange.reply?.bodyText, 'hello world');
    assert.equal(x.exchange.sizes?.replyBytes, 11);
  });

  it('lets the service answer Expect: 100-continue, so the client sends its body without waiting', async () => {
    const before = inspector.exchanges().length;
    const u = new URL(inspector.url);
    const got = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(u.port), u.hostname);
      let text = '';
      socket.write('POST /chunked HTTP/1.1\r\nHost: me\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n');
      socket.on('data', (d) => {
        text += d.toString('latin1');
        if (text === 'HTTP/1.1 100 Continue\r\n\r\n') socket.write('4\r\nbody\r\n0\r\n\r\n');
        if (text.endsWith('0\r\n\r\n')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`stuck at ${JSON.stringify(text)}`)), 3000);
    });
    assert.match(got, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    const [x] = (await recorded(before + 1)).slice(before);
    assert.equal(x.exchange.reply?.status, 200, 'the final reply is recorded, not the interim one');
    assert.equal(x.exchange.request.body, 'body');
  });

  it('knows that HEAD and 204 replies have no body, and that an HTTP/1.0 reply may end with the connection', async () => {
    const before = inspector.exchanges().length;
    const head = await rawClient(
      inspector.url,
      ['HEAD /h HTTP/1.1\r\nHost: me\r\n\r\nGET /no-content HTTP/1.1\r\nHost: me\r\n\r\nGET /after HTTP/1.1\r\nHost: me\r\n\r\n'],
      (g) => g.includes('/pre/after'),
    );
    assert.match(head, /Content-Length: 999\r\n\r\nHTTP\/1\.1 204 No Content\r\nX-A: 1\r\n\r\nHTTP\/1\.1 200 OK/);
    const closing = await rawClient(inspector.url, ['GET /until-close HTTP/1.1\r\nHost: me\r\n\r\n'], () => false);
    assert.match(closing, /\r\n\r\nto the end$/);
    const xs = (await recorded(before + 4)).slice(before);
    assert.deepEqual(
      xs.map((r) => [r.exchange.request.method, r.exchange.reply?.status, r.exchange.reply?.size, r.exchange.error?.kind]),
      [
        ['HEAD', 200, 0, undefined],
        ['GET', 204, 0, undefined],
        ['GET', 200, 10, undefined],
        ['GET', 200, 10, undefined],
      ],
    );
  });

  it('answers 400 to bytes that are not HTTP, and records nothing for them', async () => {
    const before = inspector.exchanges().length;
    const got = await rawClient(inspector.url, ['SSH-2.0-OpenSSH_9.2\r\n\r\n'], () => false);
    assert.match(got, /^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*is not an HTTP request line/);
    const connect = await rawClient(inspector.url, ['CONNECT service.test:443 HTTP/1.1\r\nHost: service.test:443\r\n\r\n'], () => false);
    assert.match(connect, /^HTTP\/1\.1 501 Not Implemented/);
    await inspector.flush();
    assert.equal(inspector.exchanges().length, before);
  });
});
