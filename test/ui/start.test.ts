/**
 * `npm start` as a newcomer meets it: the script prints a loopback URL, the page there is the
 * workbench on examples/ with the extension loaded, a request sent from its CodeLens comes back
 * from the embedded sandbox into the results panel (PDF painted), and Ctrl+C ends it all.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { isPortFree, REPO_ROOT } from '../../scripts/vscode-host/code-server-process';
import { runStartScript, type StartedWorkbench } from './support/startProcess';
import { clickCodeLens, explorerRows, inkOnPdfCanvas, openBrowser, openWorkbench, quickOpen, resultsFrame, screenshot } from './support/workbench';

const EXAMPLES = path.join(REPO_ROOT, 'examples');

describe('npm start', function () {
  let scratch: string;
  let started: StartedWorkbench | undefined;
  let browser: Browser | undefined;
  let page: Page;

  before(async function () {
    // Its own settings and history, so a developer's .cache/start is neither used nor changed.
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-ui-start-'));
    started = await runStartScript(['--data-dir', scratch]);
    browser = await openBrowser();
  });

  afterEach(async function () {
    // What the screen showed is most of the diagnosis of a failure, in CI above all.
    if (this.currentTest?.state === 'failed' && page && !page.isClosed())
      await screenshot(page, `failed-start-${this.currentTest.title.slice(0, 40)}`).catch(() => undefined);
  });

  after(async function () {
    await browser?.close();
    if (started && started.child.exitCode === null && started.child.signalCode === null) {
      started.child.kill('SIGTERM');
      await started.exited;
    }
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('prints the URL of a workbench on 127.0.0.1 with the examples folder', () => {
    const url = new URL(started!.url);
    assert.equal(url.hostname, '127.0.0.1');
    assert.equal(url.searchParams.get('folder'), EXAMPLES);
  });

  it('opens the workbench on the examples, with the Carrier extension loaded', async () => {
    page = await openWorkbench(browser!, started!.url);
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'bill-of-lading' }).waitFor({ timeout: 30_000 });
    const rows = await explorerRows(page);
    for (const folder of ['bill-of-lading', 'collections', 'rate-quote', 'tracing']) assert.ok(rows.includes(folder), `${folder} in ${rows.join(', ')}`);
    await page.locator('.sidebar .pane-header', { hasText: /^examples$/i }).waitFor();
    // The extension's view container: the truck in the activity bar.
    await page.locator('.activitybar .action-label[aria-label^="Carrier"]').waitFor({ timeout: 30_000 });
    await screenshot(page, 'start-workbench');
  });

  it('sends the bill-of-lading PDF request from its Send SOAP 1.1 CodeLens and shows the parsed reply and the painted PDF', async () => {
    await quickOpen(page, 'bill-of-lading/get-bill-of-lading-pdf.carrier.json');
    await clickCodeLens(page, 'Send SOAP 1.1');
    const frame = await resultsFrame(page);
    const header = frame.locator('header.header');
    await header.waitFor({ timeout: 60_000 });
    const headerText = await header.innerText();
    assert.match(headerText, /200 OK/);
    assert.match(headerText, /GetBillOfLadingPdf/);
    // The operation's path segment is also "sandbox": the header names the environment only.
    assert.match(headerText, /sandbox · SOAP 1\.1/);
    assert.equal(headerText.split('sandbox').length - 1, 1, headerText);
    const ink = await inkOnPdfCanvas(frame);
    assert.ok(ink > 500, `the PDF page is painted (${ink} dark pixels)`);
    await screenshot(page, 'results-pdf');

    // The parsed reply: the document field read along the catalog, not raw XML.
    await frame.locator('#tab-tree').click();
    const tree = frame.locator('#panel-tree');
    await tree.waitFor();
    assert.match(await tree.innerText(), /GetBillOfLadingPdfResult|BolPdf|PdfDocument/);
    await screenshot(page, 'results-parsed');
  });

  it('stops on Ctrl+C (SIGINT): exit code 0, code-server gone, the port free again', async () => {
    const port = Number(new URL(started!.url).port);
    await page.close();
    started!.child.kill('SIGINT');
    const code = await Promise.race([started!.exited, new Promise((r) => setTimeout(() => r('still running after 20 s'), 20_000))]);
    assert.equal(code, 0, started!.output());
    assert.match(started!.output(), /stopped/);
    assert.equal(await isPortFree(port), true, `port ${port} is free`);
  });
});
