/**
 * The inspector's wire behaviour: bodies stream through in both directions (a 50 MB reply sent
 * slowly reaches the client before the target has finished; a slow upload reaches the target
 * before the client has finished), only a capped copy is kept, and a target that is down or
 * breaks off, or a client that gives up, is forwarded as such and recorded with the reason.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { startInspector, type InspectorHandle } from '../../src/inspector';
import { closeClientAgent, plainRequest, tmpDir } from './inspect-kit';

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The inspector records an exchange once both sides are over, which the client may notice first. */
async function recordedCount(inspector: InspectorHandle, n: number): Promise<void> {
  for (let i = 0; i < 100 && inspector.exchanges().length < n; i++) {
    await inspector.flush();
    if (inspector.exchanges().length < n) await sleep(20);
  }
  assert.equal(inspector.exchanges().length, n, 'exchanges recorded');
}

interface TargetServer {
  readonly url: string;
  readonly server: http.Server;
  close(): Promise<void>;
}

function startTarget(handler: http.RequestListener): Promise<TargetServer> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

describe('traffic inspector: streaming', function () {
  this.timeout(60_000);
  let target: TargetServer;
  let inspector: InspectorHandle;
  let dir: string;
  /** What each side had sent when the other first had bytes: streaming is an order of events, not a time. */
  const progress: { written: number; uploadSentAtFirstByte?: number; uploadBytes?: number } = { written: 0 };
  let uploadSent = 0;
  const TOTAL = 50 * MB;
  const CHUNK = 64 * 1024;

  before(async () => {
    target = await startTarget((req, res) => {
      if (req.method === 'POST') {
        let bytes = 0;
        req.on('data', (c: Buffer) => {
          progress.uploadSentAtFirstByte ??= uploadSent;
          bytes += c.length;
        });
        req.on('end', () => {
          progress.uploadBytes = bytes;
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end('ok');
        });
        return;
      }
      // 50 MB in 64 KB chunks, pausing every 2 MB: about a second and a half in all.
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(TOTAL) });
      const chunk = Buffer.alloc(CHUNK, 0x41);
      let sent = 0;
      progress.written = 0;
      const pump = async () => {
        while (sent < TOTAL) {
          const flowing = res.write(chunk);
          sent += CHUNK;
          progress.written = sent;
          if (!flowing) await new Promise((r) => res.once('drain', r));
          if (sent % (2 * MB) === 0) await sleep(60);
        }
        res.end();
      };
      void pump();
    });
    dir = tmpDir('carrier-inspect-stream-');
    inspector = await startInspector({ target: target.url, namespaces: DEFAULT_NAMESPACES, recordDir: dir, maxBodyBytes: 1 * MB });
  });
  after(async () => {
    await inspector.close();
    await target.close();
    closeClientAgent();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('passes a 50 MB reply on as it comes: the client has the first bytes long before the target has sent the last', async () => {
    let writtenAtFirstByte: number | undefined;
    let received = 0;
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${inspector.url}/large/reply.bin`, (res) => {
          res.on('data', (c: Buffer) => {
            writtenAtFirstByte ??= progress.written;
            received += c.length;
          });
          res.on('end', resolve);
          res.on('error', reject);
        })
        .on('error', reject);
    });
    assert.equal(received, TOTAL);
    assert.ok(writtenAtFirstByte !== undefined);
    assert.ok(
      writtenAtFirstByte < TOTAL / 2,
      `the client had its first bytes when the target had written ${writtenAtFirstByte} of ${TOTAL} bytes (want less than half)`,
    );

    await inspector.flush();
    const recorded = inspector.exchanges().at(-1)!;
    assert.equal(recorded.exchange.reply?.size, TOTAL);
    assert.equal(recorded.exchange.sizes?.replyBytes, TOTAL);
    assert.equal(recorded.exchange.recorded?.replyBodyTruncated, true);
    assert.ok(recorded.exchange.reply!.bodyText.length <= 1 * MB, 'only the capped copy is kept in memory');
    assert.equal(fs.statSync(path.join(dir, recorded.files!.replyBody!)).size, 1 * MB, 'only the capped copy is written');
    assert.ok(recorded.exchange.findings.some((f) => /52428800 bytes; the first 1048576 were kept/.test(f.message)));
    assert.ok((recorded.exchange.timing?.downloadMs ?? 0) > 500, 'download time measured');
  });

  it('passes a slow upload on as it comes: the target has the first bytes before the client has sent the last', async () => {
    const u = new URL(inspector.url);
    uploadSent = 0;
    progress.uploadSentAtFirstByte = undefined;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: u.hostname, port: u.port, method: 'POST', path: '/upload', headers: { 'Content-Type': 'application/octet-stream' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      void (async () => {
        for (let i = 0; i < 40; i++) {
          req.write(Buffer.alloc(CHUNK, 0x42));
          uploadSent += CHUNK;
          await sleep(20);
        }
        req.end();
      })();
    });
    assert.equal(status, 200);
    assert.equal(progress.uploadBytes, 40 * CHUNK);
    assert.ok(
      progress.uploadSentAtFirstByte !== undefined && progress.uploadSentAtFirstByte < 20 * CHUNK,
      `the target had its first bytes when the client had sent ${progress.uploadSentAtFirstByte} of ${40 * CHUNK} bytes (want less than half)`,
    );
    await inspector.flush();
    const recorded = inspector.exchanges().at(-1)!;
    assert.equal(recorded.exchange.sizes?.requestBytes, 40 * CHUNK);
    assert.equal(recorded.exchange.recorded?.requestBodyTruncated, true);
    assert.equal(recorded.exchange.request.body.length, 1 * MB);
  });
});

describe('traffic inspector: failures on either side', function () {
  this.timeout(30_000);
  afterEach(() => closeClientAgent());

  it('answers 502 when the target is down, and records why', async () => {
    const gone = await startTarget((_req, res) => res.end());
    const url = gone.url;
    await gone.close();
    const inspector = await startInspector({ target: url, namespaces: DEFAULT_NAMESPACES });
    try {
      const got = await plainRequest(`${inspector.url}/1.0.3/RateQuoteService.asmx?WSDL`, 'GET', []);
      assert.equal(got.status, 502);
      assert.match(got.body.toString(), /Could not connect to http:\/\/127\.0\.0\.1:\d+/);
      await recordedCount(inspector, 1);
      const x = inspector.exchanges()[0].exchange;
      assert.equal(x.error?.kind, 'connect');
      assert.equal(x.reply, undefined);
      assert.equal(x.findings[0].kind, 'transport');
    } finally {
      await inspector.close();
    }
  });

  it("breaks the client's reply off where the target broke off, and records a reset", async () => {
    const breaking = await startTarget((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml', 'Content-Length': '1000' });
      res.write('<soap:Envelope');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const inspector = await startInspector({ target: breaking.url, namespaces: DEFAULT_NAMESPACES });
    try {
      const outcome = await new Promise<string>((resolve) => {
        http
          .get(`${inspector.url}/1.0.3/RateQuoteService.asmx`, (res) => {
            res.on('data', () => undefined);
            res.on('end', () => resolve('ended'));
            res.on('error', () => resolve('broken'));
            res.on('aborted', () => resolve('broken'));
          })
          .on('error', () => resolve('broken'));
      });
      assert.equal(outcome, 'broken', 'the client sees the reply broken off, not a complete one');
      await recordedCount(inspector, 1);
      const x = inspector.exchanges()[0].exchange;
      assert.equal(x.error?.kind, 'reset');
      assert.equal(x.reply?.status, 200);
      assert.equal(x.reply?.bodyText, '<soap:Envelope');
    } finally {
      await inspector.close();
      await breaking.close();
    }
  });

  it('stops forwarding when the client gives up, and records that', async () => {
    let targetSawClose = false;
    const slow = await startTarget((req, res) => {
      res.on('close', () => {
        targetSawClose = true;
      });
      setTimeout(() => res.end('late'), 5_000);
      req.resume();
    });
    const inspector = await startInspector({ target: slow.url, namespaces: DEFAULT_NAMESPACES });
    try {
      const req = http.get(`${inspector.url}/slow`);
      req.on('error', () => undefined);
      await sleep(200);
      req.destroy();
      await recordedCount(inspector, 1);
      const x = inspector.exchanges()[0].exchange;
      assert.equal(x.error?.kind, 'client-aborted');
      assert.ok(targetSawClose, 'the request to the target was cancelled too');
    } finally {
      await inspector.close();
      await slow.close();
    }
  });

  it('speaks TLS to an https target, trusting the CA it is given, and says so when it cannot', async () => {
    const dir = tmpDir('carrier-inspect-tls-');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        'server.key',
        '-out',
        'server.crt',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    const cert = fs.readFileSync(path.join(dir, 'server.crt'));
    const server = https.createServer({ key: fs.readFileSync(path.join(dir, 'server.key')), cert }, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`secure ${req.headers.host}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    const trusting = await startInspector({ target: url, namespaces: DEFAULT_NAMESPACES, tls: { ca: cert } });
    const doubting = await startInspector({ target: url, namespaces: DEFAULT_NAMESPACES });
    try {
      const ok = await plainRequest(`${trusting.url}/x`, 'GET', []);
      assert.equal(ok.status, 200);
      assert.equal(ok.body.toString(), `secure ${new URL(url).host}`, 'Host names the target');
      const refused = await plainRequest(`${doubting.url}/x`, 'GET', []);
      assert.equal(refused.status, 502);
      await recordedCount(doubting, 1);
      assert.equal(doubting.exchanges()[0].exchange.error?.kind, 'tls');
    } finally {
      await trusting.close();
      await doubting.close();
      server.closeAllConnections();
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('listens on loopback only', async () => {
    await assert.rejects(startInspector({ target: 'http://127.0.0.1:9', namespaces: DEFAULT_NAMESPACES, host: '0.0.0.0' }), /not a loopback address/);
  });

  it('refuses a target that is no http(s) base URL', async () => {
    await assert.rejects(startInspector({ target: 'ftp://example.test', namespaces: DEFAULT_NAMESPACES }), /only http and https/);
    await assert.rejects(startInspector({ target: 'sandbox', namespaces: DEFAULT_NAMESPACES }), /is not a URL/);
  });
});
