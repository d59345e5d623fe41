/**
 * The lean dispatcher (src/host/leanDispatcher.ts) against hostile and broken servers: raw `net`
 * servers on OS-assigned loopback ports write exact bytes, and each reply goes through sendHttp
 * over undici and over the lean dispatcher, on a fresh server per side. The outcomes must be the
 * same — status, headers, body, completeness, error kind, message and code — and so must the
 * sockets the server still holds open afterwards (none leaked, none dropped that undici keeps).
 * Parity is the bar: where undici (llhttp, strict) refuses a reply, so does the lean side, with
 * the same error. The last block holds the head read in one pass (src/host/strictParser.ts,
 * readHead) to the line-by-line reading of the same bytes, cut into reads every way.
 */
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { gzipSync } from 'node:zlib';
import { HTTPParser } from 'http-parser-js';
import type { HttpRequestSpec } from '../../src/core/exchange';
import { sendHttp, type HttpOutcome, type HttpSendOptions } from '../../src/core/transport';
import { StrictParser, type ParserInfo } from '../../src/host/strictParser';
import { rawServer, SIDES, transports, type Side, type Script } from './lean-sides';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const post = (url: string, body = '<x/>'): HttpRequestSpec => ({ method: 'POST', url, headers: [['Content-Type', 'text/xml; charset=utf-8']], body });

/** A request's bytes arrived (head and announced body): the server's turn. */
/** `x` with the servers' ports out of it: each side has a server of its own. */
const hostless = (x: unknown): unknown => JSON.parse(JSON.stringify(x).replace(/127\.0\.0\.1:\d+/g, 'HOST')) as unknown;

/** An outcome without its times; its error with kind, message and code. */
function comparable(o: HttpOutcome) {
  const { timing: _timing, error, body, ...rest } = o;
  return { ...rest, body: body?.toString('latin1'), error: error && { kind: error.kind, message: error.message, code: error.code } };
}

interface Case {
  /** The bytes written for each request (or a script). */
  readonly reply?: string | Script;
  /** Takes each connection itself instead. */
  readonly onConnection?: (socket: net.Socket) => void;
  readonly options?: Partial<HttpSendOptions>;
  readonly body?: string;
}

describe('lean dispatcher: a hostile server gets the outcome undici gives', function () {
  this.timeout(20_000);
  const { options, close } = transports(3000);
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  before(() => {
    process.on('unhandledRejection', onUnhandled);
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await close();
  });
  afterEach(() => assert.deepEqual(unhandled.splice(0), [], 'no unhandled rejection'));

  /** The case through each side, on a fresh server each: the outcomes and the sockets left open, checked equal; the lean outcome. */
  async function same(c: Case): Promise<HttpOutcome> {
    const got = {} as Record<Side, { outcome: HttpOutcome; open: number }>;
    for (const side of SIDES) {
      const reply = c.reply ?? (() => undefined);
      const server = await rawServer(typeof reply === 'string' ? (socket) => socket.write(Buffer.from(reply, 'latin1')) : reply, c.onConnection);
      try {
        const outcome = await sendHttp(post(server.url, c.body), options(side, c.options));
        // Long enough for a socket closed on either end to be seen closed on the other.
        await sleep(30);
        got[side] = { outcome, open: server.open() };
      } finally {
        await server.close();
      }
    }
    const strip = (side: Side) => hostless({ ...comparable(got[side].outcome), open: got[side].open });
    assert.deepEqual(strip('lean'), strip('undici'));
    return got.lean.outcome;
  }

  const refused = (o: HttpOutcome, reason: string) => {
    assert.equal(o.error?.kind, 'network');
    assert.ok(o.error.message.endsWith(`Response does not match the HTTP/1.1 protocol (${reason})`), o.error.message);
    assert.equal(o.complete, false);
  };
  const mismatch = (o: HttpOutcome) => {
    assert.equal(o.error?.kind, 'reset');
    assert.equal(o.error.code, 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH');
    assert.equal(o.complete, false);
  };
  const whole = (o: HttpOutcome, body: string, status = 200) => {
    assert.equal(o.error, undefined);
    assert.equal(o.status, status);
    assert.equal(o.complete, true);
    assert.equal(o.body!.toString('latin1'), body);
  };

  describe('Content-Length and Transfer-Encoding', () => {
    it('two different Content-Lengths: the length mismatch undici reports', async () => {
      mismatch(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\n<ok>x' }));
      mismatch(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 4\r\n\r\n<ok>' }));
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n' }), 'Duplicate Content-Length');
    });

    it('Content-Length with Transfer-Encoding: chunked, in either order', async () => {
      mismatch(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n' }));
      refused(
        await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n' }),
        "Content-Length can't be present with Transfer-Encoding",
      );
      refused(
        await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nTransfer-Encoding: gzip\r\n\r\n' }),
        "Transfer-Encoding can't be present with Content-Length",
      );
    });

    it('a negative, non-numeric, empty or overflowing Content-Length', async () => {
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n<ok>' }), 'Invalid character in Content-Length');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n<ok>' }), 'Invalid character in Content-Length');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n<ok>' }), 'Empty Content-Length');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 0 x\r\n\r\n' }), 'Invalid character in Content-Length');
      mismatch(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 4 4\r\n\r\n<ok>' }));
      mismatch(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n<ok>' }));
      // Leading zeros, a trailing space and no space at all are read.
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 0004 \r\n\r\n<ok>' }), '<ok>');
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length:4\r\n\r\n<ok>' }), '<ok>');
    });

    it('chunked when the last coding says so: `gzip, chunked` is, `chunked, gzip` runs to the close', async () => {
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n' }), '<ok>');
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n' }), '<ok>');
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: CHUNKED\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n' }), '<ok>');
      whole(await same({ reply: (s) => s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n') }), '4\r\n<ok>\r\n0\r\n\r\n');
    });
  });

  describe('chunked framing', () => {
    it('a bad chunk size: refused after the head, nothing of the body', async () => {
      const o = await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n<ok>\r\n0\r\n\r\n' });
      refused(o, 'Invalid character in chunk size');
      assert.equal(o.status, 200);
      assert.equal(o.body!.length, 0);
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n<ok>\r\n0\r\n\r\n' }), 'Invalid character in chunk size');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4 \r\n<ok>\r\n0\r\n\r\n' }), 'Invalid character in chunk size');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n<ok>' }), 'Chunk size overflow');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\n<ok>\r\n0\r\n\r\n' }), 'Missing expected CR after chunk size');
    });

    it('chunk data not followed by CRLF', async () => {
      const o = await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>XX0\r\n\r\n' });
      refused(o, 'Expected LF after chunk data');
      assert.equal(o.body!.toString(), '<ok>');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>\n0\r\n\r\n' }), 'Missing expected CR after chunk data');
    });

    it('a chunked body that ends without its last chunk, then closes: a reset, with what came', async () => {
      const o = await same({ reply: (s) => s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>\r\n') });
      assert.equal(o.error?.kind, 'reset');
      assert.equal(o.complete, false);
      assert.equal(o.body!.toString(), '<ok>');
    });

    it('chunk extensions are read past; bad ones refused', async () => {
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;name=val\r\n<ok>\r\n0;last\r\n\r\n' }), '<ok>');
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;a="b c"\r\n<ok>\r\n0\r\n\r\n' }), '<ok>');
      refused(
        await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;a b\r\n<ok>\r\n0\r\n\r\n' }),
        'Invalid character in chunk extensions name',
      );
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;\r\n<ok>\r\n0\r\n\r\n' }), 'Invalid character in chunk extensions');
    });

    it('trailers are read (and the socket kept); a bad trailer line is refused', async () => {
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-T\r\n\r\n4\r\n<ok>\r\n0\r\nX-T: 1\r\n\r\n' }), '<ok>');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>\r\n0\r\nX T: 1\r\n\r\n' }), 'Invalid header token');
      refused(
        await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>\r\n0\r\nX-T: 1\r\n 2\r\n\r\n' }),
        'Unexpected whitespace after header value',
      );
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>\r\n0\r\n\n' }), 'Invalid header field char');
    });
  });

  describe('header lines', () => {
    // The bad line before the Content-Length: undici names the fault; after it, the length mismatch.
    for (const [what, line, reason] of [
      ['a line without a colon', 'NoColonHere', 'Invalid header token'],
      ['a name with a space', 'Bad Name: x', 'Invalid header token'],
      ['a space before the colon', 'BadName : x', 'Invalid header token'],
      ['an empty name', ': x', 'Invalid header token'],
      ['a name with a latin1 byte', 'X-\xe9: a', 'Invalid header token'],
      ['a bare CR in a value', 'X-A: a\rb', 'Missing expected LF after header value'],
      ['a NUL in a value', 'X-A: a\0b', 'Invalid header value char'],
      ['a control byte in a value', 'X-A: a\x01b', 'Invalid header value char'],
      ['a DEL in a value', 'X-A: a\x7fb', 'Invalid header value char'],
    ] as const) {
      it(`${what}: refused`, async () => {
        refused(await same({ reply: `HTTP/1.1 200 OK\r\n${line}\r\nContent-Length: 4\r\n\r\n<ok>` }), reason);
        mismatch(await same({ reply: `HTTP/1.1 200 OK\r\nContent-Length: 4\r\n${line}\r\n\r\n<ok>` }));
      });
    }

    it('an obs-fold (a continuation line) and whitespace before the first name', async () => {
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nX-A: a\r\n  b\r\nContent-Length: 4\r\n\r\n<ok>' }), 'Unexpected whitespace after header value');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nX-A: a\r\n\tb\r\n\r\n' }), 'Unexpected whitespace after header value');
      mismatch(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-A: a\r\n  b\r\n\r\n<ok>' }));
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\n X-A: a\r\nContent-Length: 4\r\n\r\n<ok>' }), 'Unexpected space after start line');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\n\tX-A: a\r\nContent-Length: 4\r\n\r\n<ok>' }), 'Invalid header token');
    });

    it('bare LF line ends', async () => {
      refused(await same({ reply: 'HTTP/1.1 200 OK\nContent-Length: 4\n\n<ok>' }), 'Missing expected CR after response line');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nX-A: 4\n\r\n<ok>' }), 'Missing expected CR after header value');
      refused(await same({ reply: 'HTTP/1.1 200 OK\r\nX-A: 4\r\n\n<ok>' }), 'Invalid header field char');
      mismatch(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\n<ok>' }));
    });

    it('values as sent: latin1 bytes, tabs, trailing spaces kept, leading ones dropped, empty ones', async () => {
      const o = await same({ reply: 'HTTP/1.1 200 OK\r\nX-A: a\xe9b\r\nX-B: a\tb\r\nX-C: a  \r\nX-D:\t a\r\nX-E:\r\nContent-Length: 4\r\n\r\n<ok>' });
      whole(o, '<ok>');
      assert.deepEqual(o.headers, [
        ['X-A', 'a\xe9b'],
        ['X-B', 'a\tb'],
        ['X-C', 'a  '],
        ['X-D', 'a'],
        ['X-E', ''],
        ['Content-Length', '4'],
      ]);
    });

    it('headers beyond 16 KiB are an overflow; up to it, and a thousand small ones, are read', async () => {
      const o = await same({ reply: `HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n<ok>` });
      assert.equal(o.error?.code, 'UND_ERR_HEADERS_OVERFLOW');
      assert.equal(o.error.kind, 'network');
      assert.equal(o.status, undefined);
      // Names and values count (as undici counts them): 14 + 1 + 5 + value, the limit 16384 exclusive.
      whole(await same({ reply: `HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Big: ${'a'.repeat(16384 - 21)}\r\n\r\n<ok>` }), '<ok>');
      assert.equal(
        (await same({ reply: `HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Big: ${'a'.repeat(16384 - 20)}\r\n\r\n<ok>` })).error?.code,
        'UND_ERR_HEADERS_OVERFLOW',
      );
      const many = Array.from({ length: 1000 }, (_, i) => `X-${i}: v\r\n`).join('');
      const m = await same({ reply: `HTTP/1.1 200 OK\r\nContent-Length: 4\r\n${many}\r\n<ok>` });
      whole(m, '<ok>');
      assert.equal(m.headers!.length, 1001);
    });

    it('headers that overflow as they drip in, never ending: refused without waiting for the end', async () => {
      const o = await same({
        options: { timeoutMs: 5000 },
        onConnection: (socket) =>
          socket.once('data', () => {
            socket.write('HTTP/1.1 200 OK\r\nX-Endless: ');
            const timer = setInterval(() => !socket.destroyed && socket.write('a'.repeat(2048)), 5);
            socket.on('close', () => clearInterval(timer));
          }),
      });
      assert.equal(o.error?.code, 'UND_ERR_HEADERS_OVERFLOW');
    });
  });

  describe('status lines', () => {
    it('HTTP/1.0 without keep-alive runs to the close; with it the socket is kept', async () => {
      whole(await same({ reply: (s) => s.end('HTTP/1.0 200 OK\r\nContent-Type: text/xml\r\n\r\n<ok/>') }), '<ok/>');
      whole(await same({ reply: 'HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\n<ok>' }), '<ok>');
      whole(await same({ reply: 'HTTP/1.0 200 OK\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\n<ok>' }), '<ok>');
    });

    it('no reason phrase, an odd status, a leading empty line', async () => {
      const o = await same({ reply: 'HTTP/1.1 200\r\nContent-Length: 4\r\n\r\n<ok>' });
      whole(o, '<ok>');
      assert.equal(o.statusText, '');
      whole(await same({ reply: 'HTTP/1.1 200 \r\nContent-Length: 4\r\n\r\n<ok>' }), '<ok>');
      const odd = await same({ reply: 'HTTP/1.1 999 Odd\r\nContent-Length: 4\r\n\r\n<ok>' });
      whole(odd, '<ok>', 999);
      assert.equal(odd.statusText, 'Odd');
      whole(await same({ reply: '\r\nHTTP/1.1 200 O\x01K\r\nContent-Length: 4\r\n\r\n<ok>' }), '<ok>');
    });

    it('a status line that is not HTTP, closed or left open', async () => {
      refused(await same({ reply: (s) => s.end('garbage\r\n') }), 'Expected HTTP/, RTSP/ or ICE/');
      refused(await same({ reply: 'garbage\r\n' }), 'Expected HTTP/, RTSP/ or ICE/');
      // No line end ever comes: refused on its first bytes, not after a timeout.
      refused(await same({ reply: 'SSH-2.0-OpenSSH', options: { timeoutMs: 1000 } }), 'Expected HTTP/, RTSP/ or ICE/');
      refused(await same({ reply: 'http/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>' }), 'Expected HTTP/, RTSP/ or ICE/');
    });

    it('bad versions and status codes', async () => {
      for (const [line, reason] of [
        ['HTTP/1.2 200 OK', 'Invalid HTTP version'],
        ['HTTP/3.0 200 OK', 'Invalid HTTP version'],
        ['HTTP/x.1 200 OK', 'Invalid major version'],
        ['HTTP/11 200 OK', 'Expected dot'],
        ['HTTP/1.x 200 OK', 'Invalid minor version'],
        ['HTTP/1.1200 OK', 'Expected space after version'],
        ['HTTP/1.1  200 OK', 'Invalid status code'],
        ['HTTP/1.1 20 OK', 'Invalid status code'],
        ['HTTP/1.1 abc OK', 'Invalid status code'],
        ['HTTP/1.1 2000 OK', 'Invalid response status'],
        ['HTTP/1.1 200 OK\rX', 'Expected LF after CR'],
      ])
        refused(await same({ reply: `${line}\r\nContent-Length: 4\r\n\r\n<ok>` }), reason);
    });

    it('1xx: a 100 is a bad response, another is handed on and read past', async () => {
      const c = await same({ reply: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>' });
      assert.equal(c.error?.kind, 'reset');
      const hints = await same({ reply: 'HTTP/1.1 103 Hints\r\nContent-Length: 4\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>' });
      whole(hints, '<ok>');
      const late = await same({ reply: 'HTTP/1.1 103 Hints\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n' });
      assert.equal(late.status, 103, 'the 1xx handed on before the failure');
      assert.equal(late.error?.kind, 'reset');
      // A 1xx and then nothing: the close ends it.
      assert.equal((await same({ reply: (s) => s.end('HTTP/1.1 102 Processing\r\n\r\n') })).error?.kind, 'reset');
    });
  });

  describe('replies out of turn', () => {
    it('a reply before the request body is written (the server answers on the first bytes and closes)', async () => {
      const body = 'x'.repeat(4 << 20);
      for (const reply of [
        'HTTP/1.1 413 Too Large\r\nContent-Length: 4\r\nConnection: close\r\n\r\n<no>',
        'HTTP/1.1 413 Too Large\r\nContent-Length: 4\r\n\r\n<no>',
      ]) {
        const o = await same({ body, onConnection: (socket) => socket.once('data', () => socket.end(reply)) });
        whole(o, '<no>', 413);
      }
      const reset = await same({
        body,
        onConnection: (socket) =>
          socket.once('data', () => {
            socket.write('HTTP/1.1 413 Too Large\r\nContent-Length: 4\r\n\r\n<no>');
            setTimeout(() => socket.resetAndDestroy(), 5);
          }),
      });
      whole(reset, '<no>', 413);
    });

    it('extra bytes after a complete reply, in the same packet or later, and two replies for one request', async () => {
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>EXTRA BYTES' }), '<ok>');
      whole(
        await same({
          reply: (s) => {
            s.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>');
            setTimeout(() => !s.destroyed && s.write('MORE'), 10);
          },
        }),
        '<ok>',
      );
      whole(await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<no>' }), '<ok>');
    });

    it('a 304 or 204 with a Content-Length and a body: the length mismatch, no body', async () => {
      for (const head of ['HTTP/1.1 304 Not Modified', 'HTTP/1.1 204 No Content']) {
        const o = await same({ reply: `${head}\r\nContent-Length: 4\r\n\r\n<ok>` });
        mismatch(o);
        assert.equal(o.body!.length, 0);
      }
      whole(await same({ reply: 'HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n' }), '', 204);
      // No body whatever the framing says: nothing is waited for.
      whole(await same({ reply: 'HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n' }), '', 204);
    });

    it('an empty reply to a POST that announced Content-Length: 10, then a close', async () => {
      const o = await same({ reply: (s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n') });
      assert.equal(o.error?.kind, 'reset');
      assert.equal(o.complete, false);
      assert.equal(o.body!.length, 0);
    });
  });

  describe('timeouts', () => {
    it('headers that drip one byte per 50 ms until the headers timeout', async () => {
      const o = await same({
        options: { headersTimeoutMs: 300, timeoutMs: 3000 },
        onConnection: (socket) =>
          socket.once('data', () => {
            const head = `HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Slow: ${'a'.repeat(200)}`;
            let i = 0;
            const timer = setInterval(() => (socket.destroyed || i >= head.length ? clearInterval(timer) : socket.write(head[i++])), 50);
            socket.on('close', () => clearInterval(timer));
          }),
      });
      assert.equal(o.error?.code, 'UND_ERR_HEADERS_TIMEOUT');
      assert.equal(o.status, undefined);
    });

    it('a body that stops half way: the body timeout, with what came', async () => {
      const o = await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n<ok', options: { bodyTimeoutMs: 150, timeoutMs: 3000 } });
      assert.equal(o.error?.code, 'UND_ERR_BODY_TIMEOUT');
      assert.equal(o.body!.toString(), '<ok');
    });

    it('a body that trickles past the total timeout', async () => {
      const o = await same({
        options: { timeoutMs: 300 },
        reply: (s) => {
          s.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n');
          const timer = setInterval(() => !s.destroyed && s.write('x'), 100);
          s.on('close', () => clearInterval(timer));
        },
      });
      assert.equal(o.error?.kind, 'timeout');
      assert.equal(o.complete, false);
    });
  });

  describe('size limit and encodings', () => {
    it('maxReplyBytes crossed by a chunked body and by a close-delimited one', async () => {
      const chunked = await same({
        reply: `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7d0\r\n${'x'.repeat(2000)}\r\n7d0\r\n${'y'.repeat(2000)}\r\n0\r\n\r\n`,
        options: { maxReplyBytes: 1000 },
      });
      assert.equal(chunked.error?.kind, 'too-large');
      assert.equal(chunked.body!.length, 1000);
      const closed = await same({ reply: (s) => s.end(`HTTP/1.1 200 OK\r\n\r\n${'x'.repeat(5000)}`), options: { maxReplyBytes: 1000 } });
      assert.equal(closed.error?.kind, 'too-large');
      assert.equal(closed.body!.length, 1000);
      // An announced length over the limit, or past 2^53: refused unread.
      assert.equal((await same({ reply: 'HTTP/1.1 200 OK\r\nContent-Length: 9007199254740993\r\n\r\n<ok>' })).error?.kind, 'too-large');
    });

    it('a gzip reply: its bytes as they came, on both', async () => {
      const zipped = gzipSync('<ok/>');
      const o = await same({ reply: `HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${zipped.length}\r\n\r\n${zipped.toString('latin1')}` });
      assert.ok(o.body!.equals(zipped));
      const chunked = await same({
        reply: `HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n${zipped.length.toString(16)}\r\n${zipped.toString('latin1')}\r\n0\r\n\r\n`,
      });
      assert.ok(chunked.body!.equals(zipped));
    });
  });

  describe('header bytes of every value, against undici', () => {
    /**
     * Each reply for one request in turn, on one server per side: the outcomes checked equal. Not
     * the sockets left open: undici's pool opens a spare socket after a refused reply when the next
     * request follows at once (same() compares them, one reply per server).
     */
    async function sameEach(replies: readonly string[]): Promise<HttpOutcome[]> {
      const got = {} as Record<Side, HttpOutcome[]>;
      for (const side of SIDES) {
        const server = await rawServer((socket, _request, n) => socket.write(Buffer.from(replies[n], 'latin1')));
        try {
          got[side] = [];
          for (let i = 0; i < replies.length; i++) got[side].push(await sendHttp(post(server.url), options(side)));
        } finally {
          await server.close();
        }
      }
      const strip = (side: Side) => hostless(got[side].map((o, i) => ({ reply: replies[i], ...comparable(o) })));
      assert.deepEqual(strip('lean'), strip('undici'));
      return got.lean;
    }
    const everyByte = (line: (byte: string) => string) =>
      Array.from({ length: 256 }, (_, b) => `${line(String.fromCharCode(b))}\r\nContent-Length: 4\r\n\r\n<ok>`);

    it('in a header name', async () => {
      const outcomes = await sameEach(everyByte((b) => `HTTP/1.1 200 OK\r\nX-${b}A: v`));
      assert.equal(outcomes[0x41].status, 200);
    });

    it('in a header value, and where it starts', async () => {
      assert.equal((await sameEach(everyByte((b) => `HTTP/1.1 200 OK\r\nX-A: a${b}b`)))[0xe9].complete, true);
      await sameEach(everyByte((b) => `HTTP/1.1 200 OK\r\nX-A:${b}b`));
    });

    it('in the reason phrase, read as UTF-8 (as undici reads it)', async () => {
      const outcomes = await sameEach(everyByte((b) => `HTTP/1.1 200 O${b}K`));
      assert.equal(outcomes[0x20].statusText, 'O K');
      assert.equal(outcomes[0xe9].statusText, 'O\ufffdK');
      const utf8 = await same({ reply: `HTTP/1.1 200 ${Buffer.from('Café', 'utf8').toString('latin1')}\r\nContent-Length: 4\r\n\r\n<ok>` });
      assert.equal(utf8.statusText, 'Café');
    });
  });

  describe('kept sockets the server drops', () => {
    /** Two requests on each side: the second after `between`, the server having reset the kept socket at `resetAfterMs`. */
    async function reuse(resetAfterMs: number, between: () => Promise<void>) {
      const got = {} as Record<Side, { first: HttpOutcome; second: HttpOutcome; connections: number }>;
      for (const side of SIDES) {
        const server = await rawServer((socket) => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>');
          setTimeout(() => !socket.destroyed && socket.resetAndDestroy(), resetAfterMs);
        });
        try {
          const first = await sendHttp(post(server.url), options(side));
          await between();
          const second = await sendHttp(post(server.url), options(side));
          got[side] = { first, second, connections: server.connections() };
        } finally {
          await server.close();
        }
      }
      const strip = (side: Side) => hostless({ first: comparable(got[side].first), second: comparable(got[side].second), connections: got[side].connections });
      assert.deepEqual(strip('lean'), strip('undici'));
      return got.lean;
    }

    it('reset while idle: the next request goes on a fresh socket', async () => {
      const lean = await reuse(20, async () => void (await sleep(100)));
      assert.equal(lean.second.status, 200);
      assert.equal(lean.connections, 2);
    });

    it('reset just before reuse, the loop held while it arrives: still a fresh socket', async () => {
      const lean = await reuse(20, async () => {
        // The event loop held for 100 ms (the thread blocked, no clock read): the reset waits in the kernel.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      });
      assert.equal(lean.second.status, 200);
      assert.equal(lean.connections, 2);
    });

    it('reset as the next request arrives on it: a reset, not sent again', async () => {
      const got = {} as Record<Side, { outcome: HttpOutcome; seen: number }>;
      for (const side of SIDES) {
        let seen = 0;
        const server = await rawServer((socket, _request, n) => {
          seen++;
          if (n === 0) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>');
          else socket.resetAndDestroy();
        });
        try {
          assert.equal((await sendHttp(post(server.url), options(side))).status, 200);
          await sleep(10);
          got[side] = { outcome: await sendHttp(post(server.url), options(side)), seen };
        } finally {
          await server.close();
        }
      }
      assert.deepEqual(
        hostless({ ...comparable(got.lean.outcome), seen: got.lean.seen }),
        hostless({ ...comparable(got.undici.outcome), seen: got.undici.seen }),
      );
      assert.equal(got.lean.outcome.error?.kind, 'reset');
      assert.equal(got.lean.seen, 2);
    });
  });
});

/**
 * The head read in one pass (StrictParser.readHead) against the line-by-line reading of the same
 * bytes, which the cases above hold to undici: whatever the reply and however its bytes are cut
 * into reads, the same heads, bodies, trailers and error.
 */
describe('lean dispatcher: the head read in one pass reads as the line-by-line reading does', () => {
  /** What a parser hands on for `chunks`: heads, body text, trailers, message ends, the error; and whether the one-pass reading took a head. */
  function read(chunks: readonly Buffer[], onePass: boolean) {
    const parser = new StrictParser();
    const own = parser as unknown as { readHead(): boolean };
    const readHead = own.readHead;
    let heads = 0;
    own.readHead = onePass
      ? function (this: unknown) {
          const took = readHead.call(this);
          if (took) heads++;
          return took;
        }
      : () => false;
    const events: unknown[] = [];
    parser[HTTPParser.kOnHeadersComplete] = (info: ParserInfo) => {
      const { versionMajor, versionMinor } = info as ParserInfo & { versionMajor: number; versionMinor: number };
      const { statusCode, statusMessage, shouldKeepAlive, upgrade } = info;
      events.push({ versionMajor, versionMinor, statusCode, statusMessage, shouldKeepAlive, upgrade, headers: [...info.headers] });
      return 0;
    };
    parser[HTTPParser.kOnBody] = (chunk: Buffer) => {
      parser.bytesRead += chunk.length;
      // Body text in one piece however it came.
      const last = events.length - 1;
      if (typeof events[last] === 'string') events[last] += chunk.toString('latin1');
      else events.push(chunk.toString('latin1'));
    };
    parser[HTTPParser.kOnHeaders] = (trailers: string[]) => events.push({ trailers: [...trailers] });
    parser[HTTPParser.kOnMessageComplete] = () => events.push({ end: true });
    for (const chunk of chunks) {
      const result = parser.execute(chunk);
      if (result instanceof Error) {
        events.push({ error: result.name, message: result.message, code: (result as Error & { code?: string }).code });
        break;
      }
    }
    return { events, heads };
  }

  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  /** `reply` in one read and cut at every byte, read in one pass where it can: each as the line-by-line reading of it in one read. */
  function sameRead(reply: string): number {
    const bytes = latin1(reply);
    const lineByLine = read([bytes], false).events;
    const whole = read([bytes], true);
    assert.deepEqual(whole.events, lineByLine, JSON.stringify(reply));
    for (let at = 1; at < bytes.length; at++)
      assert.deepEqual(read([bytes.subarray(0, at), bytes.subarray(at)], true).events, lineByLine, `${JSON.stringify(reply)} cut at ${at}`);
    return whole.heads;
  }

  const sandboxLike =
    'HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 4\r\nCache-Control: private\r\n' +
    'Date: Sun, 29 Nov 2026 10:17:41 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n<ok>';

  it('the common replies are read in one pass, and read the same', () => {
    assert.equal(sameRead(sandboxLike), 1);
    assert.equal(sameRead(sandboxLike + sandboxLike), 2, 'two replies in one read');
    assert.equal(sameRead('HTTP/1.1 103 Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>'), 2);
    for (const reply of [
      'HTTP/1.1 200\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 200 \r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 999 Odd\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.0 200 OK\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\n<ok>',
      'HTTP/1.0 200 OK\r\nContent-Type: text/xml\r\n\r\n<ok/>',
      'HTTP/1.1 200 OK\r\nX-A: a\xe9b\r\nX-B: a\tb\r\nX-C: a  \r\nX-D:\t a\r\nX-E:\r\nContent-Length: 0004 \r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nTrailer: X-T\r\n\r\n4;a="b c"\r\n<ok>\r\n0\r\nX-T: 1\r\n\r\n',
      'HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n',
      'HTTP/1.1 101 Switching\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n',
      `HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Big: ${'a'.repeat(300)}\r\n\r\n<ok>`,
      `HTTP/1.1 200 OK\r\nContent-Length:4\r\n${Array.from({ length: 63 }, (_, i) => `X-${i}: v\r\n`).join('')}\r\n<ok>`,
    ])
      assert.equal(sameRead(reply), 1, JSON.stringify(reply));
  });

  it('broken heads are refused with the same error, read in one pass or not', () => {
    for (const reply of [
      'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\n<ok>x',
      'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nTransfer-Encoding: gzip\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: 4 4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: 000000000000000000004\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551616\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nX-A: a\r\n  b\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\n X-A: a\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\n\tX-A: a\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\nContent-Length: 4\n\n<ok>',
      'HTTP/1.1 200 OK\r\nX-A: 4\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nX-A: 4\r\n\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-A: a\rb\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-A: a\r\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\r\n<ok>',
      'HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\n: x\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nNoColon\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\rX\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 2000 OK\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 20 OK\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.2 200 OK\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/2.0 200 OK\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 304 Not Modified\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n<ok>\r\n0\r\n\r\n',
      '\r\nHTTP/1.1 200 O\x01K\r\nContent-Length: 4\r\n\r\n<ok>',
      'http/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>',
      'garbage\r\n',
      `HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n<ok>`,
      `HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Big: ${'a'.repeat(16384 - 21)}\r\n\r\n<ok>`,
      `HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Big: ${'a'.repeat(16384 - 20)}\r\n\r\n<ok>`,
      `HTTP/1.1 200 OK\r\nContent-Length: 4\r\n${Array.from({ length: 1000 }, (_, i) => `X-${i}: v\r\n`).join('')}\r\n<ok>`,
    ]) {
      const bytes = latin1(reply);
      assert.deepEqual(read([bytes], true).events, read([bytes], false).events, JSON.stringify(reply.slice(0, 80)));
    }
  });

  it('a head cut at every byte, broken or not, reads as it does in one read', () => {
    for (const reply of [
      sandboxLike,
      'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-A: a\rb\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nX-A: a\r\n\tb\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 4 x\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nX-\xe9: a\r\nContent-Length: 4\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-A: a\x7fb\r\n\r\n<ok>',
      'HTTP/1.1 200 OK\r\nX-A: 4\n\r\n<ok>',
    ])
      sameRead(reply);
  });

  it('every byte in a header name, a value, where a value starts and in the reason phrase', () => {
    let onePass = 0;
    for (let b = 0; b < 256; b++) {
      const c = String.fromCharCode(b);
      for (const head of [`HTTP/1.1 200 OK\r\nX-${c}A: v`, `HTTP/1.1 200 OK\r\nX-A: a${c}b`, `HTTP/1.1 200 OK\r\nX-A:${c}b`, `HTTP/1.1 200 O${c}K`]) {
        const bytes = latin1(`${head}\r\nContent-Length: 4\r\n\r\n<ok>`);
        const whole = read([bytes], true);
        assert.deepEqual(whole.events, read([bytes], false).events, JSON.stringify(head));
        onePass += whole.heads;
      }
    }
    // Token bytes in the name (77, and a colon, which ends it), value bytes in the value (HT, 0x20-0x7e, 0x80-0xff: 224, and where it
    // starts too), any but CR and LF in the reason (254).
    assert.equal(onePass, 78 + 224 + 224 + 254);
  });
});
