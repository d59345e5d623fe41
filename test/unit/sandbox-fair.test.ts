/**
 * The sandbox as a fair server (issue 17, item 2): what one client sends cannot take the server
 * from the others. Bodies over a binding's limit get 413 (from Content-Length before a byte is
 * read; chunked, as soon as the limit is passed) and a clean close; forms and query strings with
 * too many fields get 400 and are parsed in linear time below that; too many headers get 431; a
 * client dripping its headers or body is cut off (408) while others are served; every reply
 * header is valid whatever the request held; log lines are bounded and hold no key.
 *
 * Timings here are loose behaviour checks with short test limits; the figures under load are
 * bench/sandbox-hostile.ts's.
 */
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { sendableHeaders, headerList } from '../../src/sandbox/http/headers';
import { MAX_LOG_LINE, safeLogLine } from '../../src/sandbox/log';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/server';
import { actionOf, el, envelope, http, KEY, NS_DISTINCT, soapHeaders, soapResult, withSandbox } from './sandbox-kit';
import { rate103 } from './sandbox-requests';

const HAZMAT = '/sandbox/BillOfLadingService.asmx/GetHazmatDescription';
const RATE = '/1.0.3/RateQuoteService.asmx';

interface RawExchange {
  /** Everything the server sent. */
  readonly text: string;
  /** How the connection ended: the server's FIN, a reset, or still open when the test gave up. */
  readonly closed: 'end' | 'reset' | 'open';
  /** Bytes the client had written when the answer began. */
  readonly sentBeforeAnswer: number;
}

/**
 * A client on a raw socket: `talk` writes what it likes (and may keep writing until `answered()`
 * says the server has begun to answer); resolves when the server closes or after `giveUpMs`.
 */
function rawClient(
  sb: SandboxHandle,
  talk: (s: net.Socket, answered: () => boolean) => Promise<void> | void,
  giveUpMs = 10_000,
): Promise<RawExchange & { sent: () => number }> {
  const { hostname, port } = new URL(sb.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let text = '';
    let answered = false;
    let sent = 0;
    let sentBeforeAnswer = -1;
    let closed: RawExchange['closed'] = 'open';
    const write = socket.write.bind(socket);
    socket.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      sent += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      return write(chunk, ...rest);
    }) as typeof socket.write;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed, sentBeforeAnswer, sent: () => sent });
    };
    const timer = setTimeout(done, giveUpMs);
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      if (!answered) {
        answered = true;
        sentBeforeAnswer = sent;
      }
      text += d;
    });
    socket.on('end', () => {
      if (closed === 'open') closed = 'end';
      done();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (closed === 'open') closed = e.code === 'ECONNRESET' ? 'reset' : 'end';
      done();
    });
    socket.on('close', done);
    socket.on('connect', () => {
      void Promise.resolve(talk(socket, () => answered)).catch(() => undefined);
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

/** Writes `chunk` again and again until the server answers (or `max` bytes went out). */
async function writeUntilAnswered(s: net.Socket, answered: () => boolean, chunk: Buffer, max: number, frame?: (c: Buffer) => Buffer): Promise<void> {
  let n = 0;
  while (!answered() && n < max && !s.destroyed) {
    const ok = s.write(frame ? frame(chunk) : chunk);
    n += chunk.length;
    if (!ok)
      await new Promise((r) => {
        s.once('drain', r);
        setTimeout(r, 50);
      });
    else await sleep(0);
  }
}

const chunked = (c: Buffer) => Buffer.concat([Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]);

function soapHead(path: string, extra: string): string {
  return `POST ${path} HTTP/1.1\r\nHost: sandbox.test\r\nContent-Type: text/xml; charset=utf-8\r\nSOAPAction: "${actionOf(NS_DISTINCT, 'GetRateQuote')}"\r\n${extra}\r\n`;
}

describe('sandbox: a fair server', function () {
  this.timeout(30_000);

  describe('bodies over the limit', () => {
    it('a declared Content-Length over the SOAP limit gets 413 before a byte is read, then a clean close', async () => {
      await withSandbox({}, async (sb) => {
        const r = await rawClient(sb, async (s, answered) => {
          s.write(soapHead(RATE, 'Content-Length: 20000000\r\n'));
          // A client that does not wait for the answer: it starts sending its 20 MB at once…
          await writeUntilAnswered(s, answered, Buffer.alloc(64 * 1024, 0x20), 20_000_000);
          // …and stops once it sees the refusal.
          s.end();
        });
        assert.equal(statusOf(r.text), 413, r.text.slice(0, 200));
        assert.match(r.text, /\r\nConnection: close\r\n/i);
        assert.match(r.text, /larger than 8 MiB/);
        assert.equal(r.closed, 'end', 'the server closes with a FIN after the reply, not a reset');
      });
    });

    it('a chunked body gets 413 as soon as it passes the limit, not at its end', async () => {
      await withSandbox({ limits: { soapBodyBytes: 64 * 1024 } }, async (sb) => {
        const r = await rawClient(sb, async (s, answered) => {
          s.write(soapHead(RATE, 'Transfer-Encoding: chunked\r\n'));
          await writeUntilAnswered(s, answered, Buffer.alloc(8 * 1024, 0x20), 50_000_000, chunked);
          s.end();
        });
        assert.equal(statusOf(r.text), 413, r.text.slice(0, 200));
        assert.match(r.text, /larger than 64 KiB/);
        assert.ok(r.sentBeforeAnswer < 8 * 1024 * 1024, `answered after ${r.sentBeforeAnswer} bytes of a 50 MB body`);
        assert.equal(r.closed, 'end');
      });
    });

    it('Expect: 100-continue with a too-large Content-Length gets 413 and never the invitation to send', async () => {
      await withSandbox({}, async (sb) => {
        const refused = await rawClient(
          sb,
          (s) => {
            s.write(soapHead(RATE, 'Content-Length: 20000000\r\nExpect: 100-continue\r\n'));
          },
          3_000,
        );
        assert.equal(statusOf(refused.text), 413, refused.text.slice(0, 100));
        assert.ok(!refused.text.includes('100 Continue'));
        // An ordinary one is invited, and answered.
        const body = envelope('1.1', el('GetRateQuote', [el('APIKey', KEY), rate103()]), NS_DISTINCT, 'default-xmlns');
        const ok = await rawClient(sb, async (s) => {
          s.write(soapHead(RATE, `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n`));
          await new Promise<void>((r) => s.once('data', () => r()));
          s.write(body);
        });
        assert.match(ok.text, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
      });
    });

    it('the HTTP POST binding reads at most 1 MiB, the SOAP bindings 8 MiB', async () => {
      await withSandbox({}, async (sb) => {
        const form = await http(sb.url + HAZMAT, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `APIKey=${KEY}&UNNANumber=${'1'.repeat(1024 * 1024)}`,
        });
        assert.equal(form.status, 413);
        assert.match(form.text, /larger than 1 MiB/);
        const soap = await http(sb.url + RATE, {
          method: 'POST',
          headers: soapHeaders('1.1', actionOf(NS_DISTINCT, 'GetRateQuote'), 'quoted'),
          body: `<x>${' '.repeat(2 * 1024 * 1024)}</x>`,
        });
        assert.equal(soap.status, 500, 'a 2 MB envelope is read (and is not a SOAP envelope)');
      });
    });
  });

  describe('forms and query strings', () => {
    const fields = (n: number, name = (i: number) => `f${i}`) => Array.from({ length: n }, (_, i) => `${name(i)}=v`).join('&');

    it("more than 1,000 fields (ASP.NET's limit) is a 400, in a form body or a query string; 1,000 are read", async () => {
      await withSandbox({}, async (sb) => {
        const post = (body: string) => http(sb.url + HAZMAT, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
        const over = await post(`APIKey=${KEY}&UNNANumber=1203&${fields(999)}`);
        assert.equal(over.status, 400);
        assert.match(over.text, /more than 1,000 form fields/);
        const atLimit = await post(`APIKey=${KEY}&UNNANumber=1203&${fields(998)}`);
        assert.equal(atLimit.status, 500, 'read, then refused as ASMX refuses an unknown parameter');
        assert.match(atLimit.text, /Unknown parameter: f0\./);
        const query = await http(`${sb.url}${HAZMAT}?APIKey=${KEY}&UNNANumber=1203&${fields(999)}`);
        assert.equal(query.status, 400);
        assert.match(query.text, /more than 1,000 query string fields/);
        const wsdl = await http(`${sb.url}/1.0.2/ShipmentTracingService.asmx?WSDL&${fields(1000)}`);
        assert.equal(wsdl.status, 400, 'every route counts its query first');
      });
    });

    it('a form of 200,000 fields is read when the limits allow it (unknown names, and one name repeated)', async () => {
      // Raised limits, to see the parse itself; it used to look each field up in the whole form (minutes).
      await withSandbox({ limits: { formBodyBytes: 16 * 1024 * 1024, parameters: 1_000_000 } }, async (sb) => {
        const post = (body: string) => http(sb.url + HAZMAT, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
        const unknown = await post(`APIKey=${KEY}&UNNANumber=1203&${fields(200_000)}`);
        assert.equal(unknown.status, 500);
        assert.match(unknown.text, /Unknown parameter: f0\./);
        const repeated = await post(`UNNANumber=1203&${fields(200_000, () => 'APIKey').replace(/=v/g, `=${KEY}`)}`);
        assert.equal(repeated.status, 200, repeated.text.slice(0, 200));
        // No time is asserted (a busy machine is no failure): the quadratic read took minutes, past this test's timeout.
      });
    });

    it('a form body is refused with 400 as soon as its field count passes the limit, before the rest arrives', async () => {
      await withSandbox({}, async (sb) => {
        const r = await rawClient(sb, async (s, answered) => {
          s.write(`POST ${HAZMAT} HTTP/1.1\r\nHost: sandbox.test\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`);
          await writeUntilAnswered(s, answered, Buffer.from('a=1&'.repeat(2048)), 40_000_000, chunked);
          s.end();
        });
        assert.equal(statusOf(r.text), 400);
        assert.ok(r.sentBeforeAnswer < 1024 * 1024, `answered after ${r.sentBeforeAnswer} bytes`);
        assert.equal(r.closed, 'end');
      });
    });
  });

  describe('headers', () => {
    it('more than 100 header lines get 431; 10,000 (more than 16 KB of them) too, and the connection is closed', async () => {
      await withSandbox({}, async (sb) => {
        const lines = (n: number) => Array.from({ length: n }, (_, i) => `X-H${i}: v\r\n`).join('');
        const some = await rawClient(sb, (s) => {
          s.write(`GET ${HAZMAT}?APIKey=${KEY}&UNNANumber=1203 HTTP/1.1\r\nHost: x\r\n${lines(101)}\r\n`);
        });
        assert.equal(statusOf(some.text), 431, some.text.slice(0, 100));
        const fine = await rawClient(sb, (s) => {
          s.write(`GET ${HAZMAT}?APIKey=${KEY}&UNNANumber=1203 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${lines(90)}\r\n`);
        });
        assert.equal(statusOf(fine.text), 200);
        const many = await rawClient(sb, (s) => {
          s.write(`GET ${HAZMAT} HTTP/1.1\r\nHost: x\r\n${lines(10_000)}\r\n`);
        });
        assert.equal(statusOf(many.text), 431, many.text.slice(0, 100));
        assert.notEqual(many.closed, 'open');
      });
    });

    it('every reply header is valid for any element name: non-ASCII names percent-encoded, a long list cut between names', async () => {
      await withSandbox({}, async (sb) => {
        const post = (extra: ReturnType<typeof el>[]) =>
          http(sb.url + RATE, {
            method: 'POST',
            headers: soapHeaders('1.1', actionOf(NS_DISTINCT, 'GetRateQuote'), 'quoted'),
            body: envelope(
              '1.1',
              el('GetRateQuote', [el('APIKey', KEY), { ...rate103(), children: [...rate103().children!, ...extra] }]),
              NS_DISTINCT,
              'default-xmlns',
            ),
          });
        const one = await post([el('Gewicht_ä', '1'), el('重量', '2')]);
        assert.equal(one.status, 200, one.text.slice(0, 300));
        const header = one.headers.get('x-carrier-sandbox-ignored') ?? '';
        assert.ok(header.includes('request.Gewicht_%C3%A4') && header.includes('request.%E9%87%8D%E9%87%8F'), header);
        assert.equal(decodeURIComponent(header), 'request.Gewicht_ä, request.重量');
        soapResult(one.text, 'GetRateQuote');

        const many = await post(Array.from({ length: 300 }, (_, i) => el(`Ünknown${i}`, 'x')));
        assert.equal(many.status, 200);
        const cut = many.headers.get('x-carrier-sandbox-ignored') ?? '';
        assert.ok(cut.length <= 920, `${cut.length} characters`);
        assert.match(cut, /\.\.\. \(\d+ more\)$/);
        assert.match(cut, /^[\x20-\x7e]+$/);
      });
    });

    it('sendableHeaders: invalid names dropped, values made printable ASCII (never a thrown 500)', () => {
      assert.deepEqual(sendableHeaders({ 'X-Ok': 'plain', 'X-Cut': 'a…b', 'Bad Name': 'x', 'X-Ctl': 'a\r\nb', 'X-Lone': 'x\ud800y' }), {
        'X-Ok': 'plain',
        'X-Cut': 'a%E2%80%A6b',
        'X-Ctl': 'a%0D%0Ab',
        'X-Lone': 'x%EF%BF%BDy',
      });
      assert.equal(headerList(['a', 'b', 'c'], 4), 'a, b, ... (1 more)');
      assert.equal(headerList(['%'], 10), '%25');
    });
  });

  describe('timeouts', () => {
    const short: SandboxOptions = { limits: { headersTimeoutMs: 600, bodyTimeoutMs: 600, lingerMs: 200 } };

    it('a body dripped one byte at a time is cut off with 408, while other clients are served at once', async () => {
      await withSandbox(short, async (sb) => {
        let dripAnswered = (): boolean => false;
        const drip = rawClient(sb, async (s, answered) => {
          dripAnswered = answered;
          s.write(soapHead(RATE, 'Content-Length: 1000\r\n'));
          for (let i = 0; i < 1000 && !s.destroyed; i++) {
            s.write('<');
            await sleep(100);
          }
        });
        // Fairness is an order, not a time: others are answered while the drip is still held.
        let servedWhileHeld = 0;
        for (let i = 0; i < 10; i++) {
          const r = await http(`${sb.url}${HAZMAT}?APIKey=${KEY}&UNNANumber=1203`);
          assert.equal(r.status, 200);
          if (!dripAnswered()) servedWhileHeld++;
          await sleep(50);
        }
        const r = await drip;
        // 408 is the body timeout's answer (the drip alone would take 100 s); a request beside it was
        // answered before the drip was, which a server busy with the drip would not do. No clock bound: a busy machine is no failure.
        assert.equal(statusOf(r.text), 408, r.text.slice(0, 200));
        assert.notEqual(r.closed, 'open');
        assert.ok(servedWhileHeld >= 1, `${servedWhileHeld} of 10 other requests were answered while the drip was held`);
      });
    });

    it('headers dripped one byte at a time are cut off with 408', async () => {
      await withSandbox(short, async (sb) => {
        const r = await rawClient(sb, async (s) => {
          s.write('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
          for (let i = 0; i < 100 && !s.destroyed; i++) {
            s.write('a');
            await sleep(100);
          }
        });
        // 408 is the headers timeout's answer: the drip alone would take 10 s.
        assert.equal(statusOf(r.text), 408, r.text.slice(0, 200));
      });
    });

    it('a connection that never sends a byte is closed too', async () => {
      await withSandbox(short, async (sb) => {
        const r = await rawClient(sb, () => undefined, 8_000);
        assert.notEqual(r.closed, 'open', 'an idle connection is not held forever');
      });
    });
  });

  describe('the log', () => {
    it('holds no key, whether in a query string (any spelling of the name), a form body, an envelope or a header', async () => {
      const lines: string[] = [];
      const keys = Array.from({ length: 6 }, (_, i) => `Key${i}x${KEY.slice(0, 20)}`);
      await withSandbox({ log: (l) => lines.push(l) }, async (sb) => {
        await http(`${sb.url}${HAZMAT}?APIKey=${keys[0]}&UNNANumber=1203`);
        await http(`${sb.url}${HAZMAT}?%41PIKey=${keys[1]}&UNNANumber=1203`);
        await http(`${sb.url}${HAZMAT}?apikey=${encodeURIComponent(keys[2]!)}&UNNANumber=1203`);
        await http(sb.url + HAZMAT, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `APIKey=${keys[3]}&UNNANumber=1203`,
        });
        // The key again as the name of an element the service ignores: masked by value in "ignored:".
        await http(sb.url + RATE, {
          method: 'POST',
          headers: { ...soapHeaders('1.1', actionOf(NS_DISTINCT, 'GetRateQuote'), 'quoted'), 'X-Api-Key': keys[5]! },
          body: envelope(
            '1.1',
            el('GetRateQuote', [el('APIKey', keys[4]), { ...rate103(), children: [...rate103().children!, el(keys[4]!, 'x'), el(`${keys[5]}`, 'y')] }]),
            NS_DISTINCT,
            'default-xmlns',
          ),
        });
      });
      const all = lines.join('\n');
      assert.ok(
        lines.some((l) => l.startsWith('  ignored: request.••••')),
        all,
      );
      for (const k of keys) assert.ok(!all.includes(k) && !all.includes(encodeURIComponent(k)), `${k} in the log:\n${all}`);
    });

    it('keeps each line short, on one line, however long the URL or the error', async () => {
      const lines: string[] = [];
      await withSandbox({ log: (l) => lines.push(l) }, async (sb) => {
        await http(`${sb.url}${HAZMAT}?UNNANumber=${'9'.repeat(12_000)}&APIKey=${KEY}`);
      });
      const line = lines.find((l) => l.startsWith('GET '))!;
      assert.ok(line.length <= MAX_LOG_LINE + 40, `${line.length} characters`);
      assert.match(line, /… \([\d,]+ more characters\)$/);
      const safe = safeLogLine(`internal error: Error: boom\n    at a (x.ts:1)\n\u001b[31mred <APIKey>${KEY}</APIKey> "apiKey": "${KEY}" api_key=${KEY}`, []);
      assert.ok(!safe.includes('\n') && !safe.includes('\u001b') && !safe.includes(KEY), safe);
    });

    it('masks the accepted keys by value wherever they appear', () => {
      const line = safeLogLine(`GET /x/${KEY}/y → 404`, [KEY]);
      assert.equal(line, 'GET /x/••••/y → 404');
    });
  });
});
