/**
 * The results panel never hands pdf.js a document core did not inspect (past a decoding budget,
 * docs/wire.md#budgets): the Documents tab says "not previewed" with the reason, and still offers
 * Save for the bytes as received. An ordinary PDF still gets the viewer.
 */
import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { send } from '../../src/core/send';
import { nodeContext } from '../../src/host';
import { pdfWithObjectStreams, zlibZeros } from '../unit/decode-bombs';
import { environmentAt, makePdf, startServer, type TestServer } from '../unit/transport-support';
import { launchChromium } from './browser-kit';
import { openPanelPage, posted, render, TEST_KEY } from './panel-kit';

const reply = (pdf: Buffer) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<BillOfLadingPDFReply xmlns="${DEFAULT_NAMESPACES.service}"><PdfDocument>${pdf.toString('base64')}</PdfDocument></BillOfLadingPDFReply>`;

describe('results panel in Chromium: a document past a decoding budget', function () {
  this.timeout(120_000);
  const context = nodeContext();
  let browser: Browser;
  let server: TestServer;
  let body = '';

  before(async () => {
    browser = await launchChromium();
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
      res.end(body);
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await context.http.close();
  });

  const sendBol = () =>
    send({
      context,
      request: { operation: 'GetBillOfLadingPdf', params: { billOfLadingId: 7 } },
      environment: environmentAt(server.url),
      apiKey: TEST_KEY,
      binding: 'get',
    });

  it('is not previewed: the reason is shown, pdf.js never sees it, and Save is offered', async () => {
    // One object stream that inflates to 64 MiB: past the page count's budget per stream.
    body = reply(pdfWithObjectStreams([zlibZeros(64)]));
    const exchange = await sendBol();
    const [doc] = exchange.documents;
    assert.equal(doc?.inspected, false);
    const page = await openPanelPage(browser);
    try {
      const report = await render(page, { exchange }, 'documents');
      assert.deepEqual(
        report.documents.map((d) => [d.pagesRendered, d.error]),
        [[0, `not previewed: ${doc.notInspected}`]],
      );
      assert.equal(await page.locator('#panel-documents .pdf-viewer').count(), 0, 'no viewer, so pdf.js was never handed it');
      assert.equal(await page.locator('#panel-documents canvas').count(), 0);
      assert.match(await page.innerText('#panel-documents'), new RegExp(`not previewed: ${doc.notInspected!.replace(/[()]/g, '\\$&')}`));
      await page.locator('#panel-documents').getByRole('button', { name: 'Save…' }).click();
      assert.deepEqual(
        (await posted(page)).filter((m) => m.type === 'saveDocument'),
        [{ type: 'saveDocument', exchangeId: exchange.id, index: 0 }],
      );
    } finally {
      await page.close();
    }
  });

  it('an ordinary PDF still gets the viewer', async () => {
    body = reply(makePdf(2));
    const exchange = await sendBol();
    assert.equal(exchange.documents[0]?.inspected, undefined);
    const page = await openPanelPage(browser);
    try {
      // This page has no pdf.js worker (panel-kit.ts), so drawing may fail; what counts is that the viewer was made and pdf.js asked.
      const report = await render(page, { exchange }, 'documents');
      assert.equal(report.documents.length, 1);
      assert.doesNotMatch(report.documents[0].error ?? '', /not previewed/);
      assert.equal(await page.locator('#panel-documents .pdf-viewer').count(), 1);
    } finally {
      await page.close();
    }
  });
});
