/**
 * What the relay saw, as the console line, --show and the recording give it (issue 18, items 4–6
 * leftovers): request headers as they went to the target; a target that is down answered by the
 * inspector with a 502 that says it is the inspector's; an upload phase, so upload, first byte and
 * download add up to the total; interim (1xx) replies and chunk trailers relayed and recorded; a
 * CONNECT refused with a console line that says how to point a client at the inspector.
 * Raw sockets on both ends, so every byte is the test's own.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { runCli } from '../../src/cli/dispatch';
import { exchangeLine } from '../../src/cli/commands/inspect';
import { startInspector, type InspectorHandle, type RecordedExchange } from '../../src/inspector';
import { tmpDir } from './inspect-kit';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RawTarget {
  readonly url: string;
  /** What the target received on each request, as latin1 text: head and body. */
  readonly received: string[];
  close(): Promise<void>;
}

/** A target that reads one request at a time (Content-Length or chunked) and hands the socket to `answer`. */
function rawTarget(answer: (socket: net.Socket, request: string) => void | Promise<void>): Promise<RawTarget> {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let buffered = '';
    socket.on('data', (d) => {
      buffered += d.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.slice(0, end + 4);
      const chunked = /transfer-encoding: chunked/i.test(head);
      const bodyEnd = chunked
        ? buffered.indexOf('\r\n\r\n', buffered.indexOf('\r\n0\r\n', end) + 1) + 4
        : end + 4 + Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if ((chunked && bodyEnd < 4) || buffered.length < bodyEnd) return;
      const request = buffered.slice(0, bodyEnd);
      buffered = buffered.slice(bodyEnd);
      received.push(request);
      void answer(socket, request);
    });
    socket.on('error', () => undefined);
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

/** Sends `pieces` with `gapMs` between them; resolves with every byte received once `until` holds or the connection closes. */
function rawClient(url: string, pieces: string[], until: (got: string) => boolean, gapMs = 0): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete reply; got ${JSON.stringify(got)}`));
    }, 10_000);
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
      for (const [i, p] of pieces.entries()) {
        if (i && gapMs) await sleep(gapMs);
        socket.write(Buffer.from(p, 'latin1'));
      }
    })();
  });
}

/** Header lines of a raw head as name/value pairs. */
function headerPairs(head: string): Array<[string, string]> {
  return head
    .split('\r\n\r\n')[0]
    .split('\r\n')
    .slice(1)
    .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]);
}

async function nextExchange(inspector: InspectorHandle, before: number): Promise<RecordedExchange> {
  for (let i = 0; i < 200 && inspector.exchanges().length <= before; i++) {
    await inspector.flush();
    if (inspector.exchanges().length <= before) await sleep(20);
  }
  const x = inspector.exchanges()[before];
  assert.ok(x, 'the exchange was recorded');
  return x;
}

async function show(r: RecordedExchange, dir: string): Promise<string> {
  let out = '';
  const code = await runCli(['inspect', '--show', path.join(dir, r.files!.exchange)], {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      out += t;
    },
    cwd: dir,
    env: {},
  });
  assert.equal(code, 0, out);
  return out;
}

const recordedFile = (dir: string, r: RecordedExchange) =>
  JSON.parse(fs.readFileSync(path.join(dir, r.files!.exchange), 'utf8')) as { exchange: RecordedExchange['exchange'] };

describe('inspector: what the relay saw, in the line, --show and the recording', function () {
  this.timeout(30_000);
  const dir = tmpDir('carrier-inspect-relay-facts-');
  const logged: string[] = [];
  let target: RawTarget;
  let inspector: InspectorHandle;

  before(async () => {
    target = await rawTarget(async (socket, request) => {
      const p = /^\S+ (\S+)/.exec(request)![1];
      if (p.endsWith('/slow-answer')) await sleep(50);
      if (p.endsWith('/processing')) {
        socket.write('HTTP/1.1 102 Processing\r\nX-Progress: 1\r\n\r\n');
        await sleep(30);
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum, X-Api-Key\r\n\r\n5\r\nhello\r\n0\r\nX-Checksum: sha256=abc123\r\nX-Api-Key: trailer-secret-123\r\n\r\n',
        );
        return;
      }
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok`);
    });
    inspector = await startInspector({ target: target.url, namespaces: DEFAULT_NAMESPACES, recordDir: dir, log: (l) => logged.push(l) });
  });
  after(async () => {
    await inspector.close();
    await target.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records and shows the request headers as they went to the target: Host naming it, hop-by-hop headers left out', async () => {
    const before = inspector.exchanges().length;
    const own = new URL(inspector.url).host;
    const request = `POST /1.0.3/RateQuoteService.asmx HTTP/1.1\r\nHost: ${own}\r\nConnection: keep-alive, X-Hop\r\nKeep-Alive: timeout=5\r\nX-Hop: 1\r\nProxy-Connection: keep-alive\r\nContent-Type: text/xml; charset=utf-8\r\nSOAPAction: "urn:x"\r\nContent-Length: 8\r\n\r\n<a>1</a>`;
    await rawClient(inspector.url, [request], (g) => g.endsWith('ok'));
    const r = await nextExchange(inspector, before);
    const sent = headerPairs(target.received.at(-1)!);
    assert.deepEqual(sent, [
      ['Host', new URL(target.url).host],
      ['Content-Type', 'text/xml; charset=utf-8'],
      ['SOAPAction', '"urn:x"'],
      ['Content-Length', '8'],
    ]);
    assert.deepEqual(r.exchange.request.headers, sent);
    assert.deepEqual(recordedFile(dir, r).exchange.request.headers, sent);
    const shown = (await show(r, dir)).split('\n');
    const at = shown.indexOf(`POST ${target.url}/1.0.3/RateQuoteService.asmx`);
    assert.ok(at > 0, shown.join('\n'));
    assert.deepEqual(shown.slice(at + 1, at + 1 + sent.length + 1), [...sent.map(([n, v]) => `${n}: ${v}`), '']);
  });

  it("a down target: the 502 says it is the inspector's, in a header, its body, the line, --show and the recording", async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const down = await startInspector({ target: `http://127.0.0.1:${port}`, namespaces: DEFAULT_NAMESPACES, recordDir: path.join(dir, 'down') });
    try {
      const got = await rawClient(down.url, ['POST /1.0.3/RateQuoteService.asmx HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi'], () => false);
      assert.match(got, /^HTTP\/1\.1 502 Bad Gateway\r\n/);
      assert.match(got, /\r\nX-Carrier-Inspect: target-unreachable\r\n/);
      assert.match(
        got,
        new RegExp(
          `\r\n\r\nCarrier inspector: this 502 Bad Gateway is the inspector's reply, not the target's: Could not connect to http://127\\.0\\.0\\.1:${port}: connect ECONNREFUSED`,
        ),
      );
      const r = await nextExchange(down, 0);
      assert.deepEqual(r.exchange.wire?.answered, { status: 502, statusText: 'Bad Gateway' });
      assert.equal(r.exchange.error?.kind, 'connect');
      assert.match(
        exchangeLine(r),
        new RegExp(
          `#\\d+ POST /1\\.0\\.3/RateQuoteService\\.asmx {2}unknown \\(No Content-Type on a SOAP endpoint.*\\) → 502 from the inspector, not the target \\(connect: Could not connect to http://127\\.0\\.0\\.1:${port}: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\) `,
        ),
      );
      assert.deepEqual(recordedFile(path.join(dir, 'down'), r).exchange.wire?.answered, { status: 502, statusText: 'Bad Gateway' });
      const shown = await show(r, path.join(dir, 'down'));
      assert.match(shown, /\nNo reply from the target: the inspector answered 502 Bad Gateway itself · /);
      assert.match(shown, /\nError \(connect\): Could not connect to .* ECONNREFUSED/);
    } finally {
      await down.close();
    }
  });

  it('times the upload: a request sent slowly shows upload, first byte and download adding up to the total', async () => {
    const before = inspector.exchanges().length;
    const body = 'a'.repeat(40);
    const head = `POST /slow-answer HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`;
    // Five pieces 150 ms apart: 600 ms of upload, then the target waits 50 ms before it answers.
    await rawClient(inspector.url, [head.slice(0, 10), head.slice(10), body.slice(0, 10), body.slice(10, 20), body.slice(20)], (g) => g.endsWith('ok'), 150);
    const r = await nextExchange(inspector, before);
    const t = r.exchange.timing!;
    // Most of the 600 ms, whatever the scheduling of a loaded machine does to the first and last piece.
    assert.ok(t.uploadMs! >= 450, `upload ${t.uploadMs} ms`);
    assert.ok(t.firstByteMs! >= 45, `first byte ${t.firstByteMs} ms`);
    assert.ok(Math.abs(t.uploadMs! + t.firstByteMs! + t.downloadMs! - t.totalMs) <= 0.03, JSON.stringify(t));
    assert.deepEqual(recordedFile(dir, r).exchange.timing, t);
    const shown = await show(r, dir);
    assert.ok(
      shown.includes(`HTTP 200 OK · ${t.totalMs} ms (upload ${t.uploadMs} ms, first byte ${t.firstByteMs} ms, download ${t.downloadMs} ms; connect `),
      shown,
    );
  });

  it('relays and records a 102 Processing and the trailers of chunked bodies both ways', async () => {
    const before = inspector.exchanges().length;
    const request =
      'POST /processing HTTP/1.1\r\nHost: x\r\nTE: trailers\r\nConnection: TE\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Request-Sum: 9\r\n\r\n';
    const got = await rawClient(inspector.url, [request], (g) => g.endsWith('\r\n0\r\nX-Checksum: sha256=abc123\r\nX-Api-Key: trailer-secret-123\r\n\r\n'));
    assert.ok(got.startsWith('HTTP/1.1 102 Processing\r\nX-Progress: 1\r\n\r\nHTTP/1.1 200 OK\r\n'), got);
    // The client accepts trailers, and so does the inspector on its own hop, which relays them.
    assert.ok(target.received.at(-1)!.endsWith('\r\nTE: trailers\r\nConnection: TE\r\n\r\n3\r\nabc\r\n0\r\nX-Request-Sum: 9\r\n\r\n'), target.received.at(-1));
    const r = await nextExchange(inspector, before);
    const wire = {
      interim: [{ status: 102, statusText: 'Processing', headers: [['X-Progress', '1']] }],
      requestTrailers: [['X-Request-Sum', '9']],
      replyTrailers: [
        ['X-Checksum', 'sha256=abc123'],
        ['X-Api-Key', '••••'],
      ],
    };
    assert.deepEqual(r.exchange.wire, wire);
    assert.equal(r.exchange.reply?.bodyText, 'hello');
    assert.match(exchangeLine(r), / → 200 \(after 102 Processing\) /);
    const file = recordedFile(dir, r);
    assert.deepEqual(file.exchange.wire, wire);
    assert.ok(!fs.readFileSync(path.join(dir, r.files!.exchange), 'utf8').includes('trailer-secret-123'));
    const shown = await show(r, dir);
    assert.ok(shown.includes('\nHTTP 102 Processing (interim, relayed to the client)\nX-Progress: 1\n\nHTTP 200 OK · '), shown);
    assert.ok(shown.includes('\nabc\n\nTrailers:\nX-Request-Sum: 9\n'), shown);
    assert.ok(shown.includes('\nhello\n\nTrailers:\nX-Checksum: sha256=abc123\nX-Api-Key: ••••\n'), shown);
  });

  it('a CONNECT (the inspector taken for an HTTPS proxy) gets a 501 and a console line saying how to point the client at it', async () => {
    const got = await rawClient(inspector.url, ['CONNECT api.carrier.example:443 HTTP/1.1\r\nHost: api.carrier.example:443\r\n\r\n'], () => false);
    assert.match(got, /^HTTP\/1\.1 501 Not Implemented\r\n/);
    assert.match(got, /\r\nX-Carrier-Inspect: refused\r\n/);
    const line = logged.find((l) => l.startsWith('refused CONNECT'));
    assert.ok(line, logged.join('\n'));
    assert.equal(
      line,
      `refused CONNECT api.carrier.example:443 from ${line.match(/from (\S+)/)![1]} with 501: the inspector is not an HTTPS proxy: set the client's endpoint to ${inspector.url} plus the service path (${inspector.url}/1.0.3/RateQuoteService.asmx), with the service as --target, instead of a proxy setting`,
    );
    assert.match(line, /from 127\.0\.0\.1:\d+ with 501/);
  });
});
