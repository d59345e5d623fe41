/**
 * Every decoder of reply bytes has a budget in decoded bytes (docs/wire.md#budgets), tried the
 * way an attacker controlling a "carrier service" would: a hostile local server sends a bill of
 * lading PDF whose object stream inflates to a gigabyte, a base64 field past its budget and a
 * gzip body that inflates to a gigabyte. The bombs are built from flushed deflate blocks of one
 * MiB of zeros, repeated, so this test never holds more than a few MB of them itself.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import type { Exchange } from '../../src/core/exchange';
import { DOCUMENT_BUDGET } from '../../src/core/reply/documents';
import { inspectPdfPages, PDF_INFLATE_BUDGET, PDF_STREAM_BUDGET } from '../../src/core/reply/pdfPages';
import { judgeSentFile } from '../../src/core/runner/judge';
import { rawReplyBytes, send } from '../../src/core/send';
import { classifyExchange } from '../../src/core/verdict';
import { nodeContext } from '../../src/host';
import { runCli } from '../../src/cli/dispatch';
import type { CliIo } from '../../src/cli/command';
import { gzipZeros, inflatedSize, pdfWithObjectStreams, zlibZeros } from './decode-bombs';
import { environmentAt, makePdf, startServer, tmpDir, type TestServer } from './transport-support';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const KEY = 'Budget-Test-Key-0123456789abcdefghijklmnopqrstuvwxyz';
const NS = DEFAULT_NAMESPACES;
const BOL = { operation: 'GetBillOfLadingPdf', params: { billOfLadingId: 7 } };

const bolReply = (base64: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<BillOfLadingPDFReply xmlns="${NS.service}"><PdfDocument>${base64}</PdfDocument></BillOfLadingPDFReply>`;

/** The process's peak resident set so far, in bytes (Linux reports kilobytes). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

/** Runs `f`, and how much the resident set and its peak grew meanwhile. */
async function measured<T>(f: () => Promise<T>): Promise<{ value: T; rssGrowth: number; peakGrowth: number }> {
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const peak0 = peakRss();
  const value = await f();
  return { value, rssGrowth: process.memoryUsage().rss - rss0, peakGrowth: peakRss() - peak0 };
}

const MEMORY_BOUND = 300 * MiB;

async function carrier(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
    env: { NO_COLOR: '1', CARRIER_API_KEY: KEY },
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

function notInspectedIn(x: Exchange) {
  assert.equal(x.documents.length, 1);
  const doc = x.documents[0];
  assert.equal(doc.inspected, false, 'the document is marked not inspected');
  assert.equal(doc.pages, undefined, 'a document past a budget has no page count');
  const finding = x.findings.find((f) => f.kind === 'document' && f.path === 'PdfDocument');
  assert.ok(finding, 'a document finding names the path');
  // What was not read is not called fine: an error, so the exchange is no success (src/core/reply/documents.ts).
  assert.equal(finding.severity, 'error');
  assert.equal(classifyExchange(x).ok, false, 'the verdict does not call the document fine');
  assert.ok(doc.notInspected && finding.message.includes(doc.notInspected), finding.message);
  return doc;
}

describe('decode budgets: a hostile service', function () {
  // Building and checking a gigabyte bomb by streaming takes a few seconds of CPU; nothing here asserts time.
  this.timeout(120_000);
  const context = nodeContext();
  let server: TestServer | undefined;
  let cwd: string | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
    cwd = undefined;
  });
  after(() => context.http.close());

  describe('a PDF whose object stream inflates to a gigabyte', () => {
    const bomb = zlibZeros(1024);
    const pdf = pdfWithObjectStreams([bomb]);
    const base64 = pdf.toString('base64');

    it('is a real bomb: a few MB that inflate to a gigabyte', async () => {
      assert.ok(pdf.length < 4 * MiB, `${pdf.length} bytes`);
      assert.equal(await inflatedSize(bomb), GiB);
    });

    it('send() returns with the document not inspected, the reason given, the raw bytes kept, and memory small', async () => {
      server = await startServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
        res.end(bolReply(base64));
      });
      const {
        value: x,
        rssGrowth,
        peakGrowth,
      } = await measured(() => send({ context, request: BOL, environment: environmentAt(server!.url), apiKey: KEY, binding: 'get' }));
      assert.equal(x.error, undefined);
      const doc = notInspectedIn(x);
      assert.match(doc.notInspected!, new RegExp(`more than ${PDF_STREAM_BUDGET / MiB} MiB \\(the page count's budget per stream\\)`));
      assert.equal(doc.mediaType, 'application/pdf');
      assert.equal(doc.size, pdf.length);
      assert.ok(Buffer.from(doc.base64, 'base64').equals(pdf), 'the raw bytes are kept');
      assert.ok(rssGrowth < MEMORY_BOUND, `rss grew by ${rssGrowth} bytes`);
      assert.ok(peakGrowth < MEMORY_BOUND, `peak rss grew by ${peakGrowth} bytes`);
      // Nothing calls it fine: expect.documents.pages fails on it.
      const judged = judgeSentFile(x, {
        fileName: 'bol.carrier.json',
        text: JSON.stringify({ ...BOL, expect: { documents: { pages: 1 } } }),
        variables: {},
        secrets: [],
      });
      const expectations = judged.judgement?.expectations;
      assert.ok(expectations, 'the expect was judged');
      assert.equal(expectations.passed, false);
      assert.ok(
        expectations.failures.some((f) => /PdfDocument: expected pages = 1, got no page count/.test(f.message)),
        JSON.stringify(expectations.failures),
      );
    });

    it('carrier send exits as the verdict says and prints the not-inspected reason', async () => {
      server = await startServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
        res.end(bolReply(base64));
      });
      cwd = tmpDir('carrier-budgets-');
      fs.writeFileSync(path.join(cwd, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl: server.url } }));
      fs.writeFileSync(path.join(cwd, 'bol.carrier.json'), JSON.stringify({ ...BOL, binding: 'get', environment: 'local' }));
      const { value: r, peakGrowth } = await measured(() => carrier(['send', 'bol.carrier.json'], cwd!));
      assert.ok(peakGrowth < MEMORY_BOUND, `peak rss grew by ${peakGrowth} bytes`);
      const json = await carrier(['send', 'bol.carrier.json', '--json'], cwd);
      const summary = JSON.parse(json.stdout) as { ok: boolean };
      assert.equal(summary.ok, false, 'a document not inspected is no success');
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout, /✓ succeeded/);
      assert.equal(json.code, r.code);
      assert.match(
        r.stdout,
        /PdfDocument is not inspected: a compressed stream inflates to more than 16 MiB \(the page count's budget per stream\); it is kept as received/,
      );
      assert.doesNotMatch(r.stdout, /\d+ pages?\b/);
    });
  });

  describe('the page count budgets, one document', () => {
    it('streams each within the per-stream budget but past the per-document budget together: not inspected', async () => {
      const each = PDF_STREAM_BUDGET / MiB - 4;
      const count = Math.ceil(PDF_INFLATE_BUDGET / MiB / each) + 1;
      const r = await inspectPdfPages(pdfWithObjectStreams(Array.from({ length: count }, () => zlibZeros(each))));
      assert.equal(r.pages, undefined);
      assert.match(r.notInspected ?? '', new RegExp(`more than ${PDF_INFLATE_BUDGET / MiB} MiB in all \\(the page count's budget per document\\)`));
    });

    it('an object stream pdf-lib would decode with LZW (no limit of its own): not inspected, pdf-lib never asked', async () => {
      const r = await inspectPdfPages(pdfWithObjectStreams([Buffer.from('80', 'hex')], '/LZWDecode'));
      assert.equal(r.pages, undefined);
      assert.match(r.notInspected ?? '', /LZW or run-length filter/);
    });

    it('ordinary PDFs are still counted: plain, in a Flate object stream, and by pdf-lib behind a hex object stream', async () => {
      assert.deepEqual(await inspectPdfPages(makePdf(3)), { pages: 3 });
      assert.deepEqual(await inspectPdfPages(makePdf(4, 0, 'flate')), { pages: 4 });
      assert.deepEqual(await inspectPdfPages(makePdf(2, 0, 'hex')), { pages: 2 });
    });
  });

  it('a base64 document field past its budget: sized, not decoded whole, not inspected, its text kept', async () => {
    // A PDF header and then zeros, one byte past the budget: 44.7 million base64 characters.
    const pdf = makePdf(1);
    const head = pdf.subarray(0, pdf.length - (pdf.length % 3));
    const size = head.length + 3 * Math.ceil((DOCUMENT_BUDGET + 1 - head.length) / 3);
    const base64 = head.toString('base64') + 'A'.repeat(((size - head.length) / 3) * 4);
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
      res.end(bolReply(base64));
    });
    const x = await send({ context, request: BOL, environment: environmentAt(server.url), apiKey: KEY, binding: 'get' });
    assert.equal(x.error, undefined);
    const doc = notInspectedIn(x);
    assert.equal(doc.size, size);
    assert.equal(doc.mediaType, 'application/pdf', 'sniffed from its start');
    assert.match(doc.notInspected!, new RegExp(`decodes to ${size} bytes, more than ${DOCUMENT_BUDGET / MiB} MiB \\(the decoding budget per document\\)`));
    assert.equal(doc.base64, base64, 'the field is kept as it came');
  });

  it('a gzip body that inflates to a gigabyte: core keeps it as received and never inflates it; --out stops at maxReplyBytes', async () => {
    const body = gzipZeros(1024);
    assert.ok(body.length < 4 * MiB);
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Encoding': 'gzip' });
      res.end(body);
    });
    const { value: x, peakGrowth } = await measured(() =>
      send({ context, request: BOL, environment: environmentAt(server!.url), apiKey: KEY, binding: 'get' }),
    );
    assert.ok(peakGrowth < MEMORY_BOUND, `peak rss grew by ${peakGrowth} bytes`);
    assert.equal(x.sizes?.replyBytes, body.length, 'counted as received against maxReplyBytes');
    assert.ok(rawReplyBytes(x)?.equals(body), 'kept exactly as received');
    assert.equal(classifyExchange(x).ok, false, "not read as the service's answer");

    // carrier send --out writes the reply decoded, and decoding stops at the environment's maxReplyBytes.
    cwd = tmpDir('carrier-budgets-');
    const maxReplyBytes = 8 * MiB;
    fs.writeFileSync(path.join(cwd, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl: server.url, maxReplyBytes } }));
    fs.writeFileSync(path.join(cwd, 'bol.carrier.json'), JSON.stringify({ ...BOL, binding: 'get', environment: 'local' }));
    const out = path.join(cwd, 'out');
    const { value: r, peakGrowth: cliPeak } = await measured(() => carrier(['send', 'bol.carrier.json', '--out', out], cwd!));
    assert.ok(cliPeak < MEMORY_BOUND, `peak rss grew by ${cliPeak} bytes`);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const written = fs.readdirSync(out).filter((f) => f.startsWith('reply'));
    assert.equal(written.length, 1, written.join(', '));
    assert.ok(fs.statSync(path.join(out, written[0])).size <= maxReplyBytes, `${written[0]} is ${fs.statSync(path.join(out, written[0])).size} bytes`);
  });
});
