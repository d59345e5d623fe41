import * as assert from 'node:assert/strict';
import { pdfExchange, largeExchange } from './fixtures/exchanges';
import { carrierApi } from './support/extension';
import { screenshot } from './support/control';
import { nextEvent } from './support/wait';

describe('results panel', () => {
  it('renders an exchange with a PDF: tree rows and a painted first page', async () => {
    const api = await carrierApi();
    const exchange = await pdfExchange();
    const rendered = nextEvent(api.onDidRenderResults, (r) => r.exchangeId === exchange.id, 'the panel to render the PDF exchange');
    await api.showExchange(exchange);
    const report = await rendered;

    assert.equal(report.summary.title, 'GetBillOfLadingPdf sandbox');
    assert.equal(report.tab, 'documents', 'a reply with documents opens on them');
    assert.ok(report.tree.renderedNodes >= 5, `tree rows built: ${report.tree.renderedNodes}`);
    assert.equal(report.tree.totalNodes, 9);
    assert.equal(report.documents.length, 1);
    const [doc] = report.documents;
    assert.equal(doc.error, undefined, `PDF error: ${doc.error}`);
    assert.equal(doc.pages, 2);
    assert.equal(doc.pagesRendered, 1, 'pages are drawn one at a time');
    assert.equal(doc.nonBlank, true, 'the canvas has ink on it');
    assert.ok(api.historyIds().includes(exchange.id), 'the exchange is in history');

    await screenshot('panel-pdf');
  });

  it('stays lazy on a multi-megabyte reply', async function () {
    this.timeout(120_000);
    const api = await carrierApi();
    const exchange = largeExchange(30_000);
    assert.ok(exchange.reply!.bodyText.length > 3_000_000, 'the fixture is large');
    const started = Date.now();
    const rendered = nextEvent(api.onDidRenderResults, (r) => r.exchangeId === exchange.id, 'the panel to render the large exchange', 60_000);
    await api.showExchange(exchange);
    const report = await rendered;
    const elapsed = Date.now() - started;

    assert.equal(report.tab, 'summary', 'an in-body error opens the summary');
    assert.ok(report.tree.totalNodes > 300_000, `counted ${report.tree.totalNodes} nodes`);
    assert.ok(report.tree.renderedNodes < 1_000, `only visible rows are built (${report.tree.renderedNodes})`);
    assert.ok(report.rawBodyChars <= 1_048_576, `the raw body sent to the webview is capped (${report.rawBodyChars})`);
    assert.ok(elapsed < 20_000, `rendered in ${elapsed} ms`);

    await screenshot('panel-large');
  });
});
