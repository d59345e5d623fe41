/**
 * The CodeLenses as a person sees them at 1440×900 with the results panel open beside the file:
 * at most three, none cut off, in the clean state and in the error state (what is wrong, then
 * Send anyway). Screenshots: codelens-panel-open.png, codelens-error-panel-open.png.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../scripts/vscode-host/code-server-process';
import { runStartScript, type StartedWorkbench } from './support/startProcess';
import { clickCodeLens, openBrowser, openWorkbench, quickOpen, resultsFrame, screenshot } from './support/workbench';

/** Two errors in values: Send anyway stays, after what is wrong. */
const WRONG_VALUES = `{
  "operation": "GetRateQuote",
  "version": "1.0.3",
  "params": {
    "request": {
      "QuoteType": "Sideways",
      "Origin": { "City": "Burns", "StateOrProvince": "TN", "ZipOrPostalCode": "37029", "CountryCode": "USA" },
      "Destination": { "City": "Tampa", "StateOrProvince": "FL", "ZipOrPostalCode": "33635", "CountryCode": "USA" },
      "Items": [{ "Class": "50.0", "Weight": "heavy", "Width": 48.00, "Height": 40.00, "Length": 48.00 }],
      "DeclaredValue": "0.00"
    }
  }
}
`;

interface LensLine {
  readonly titles: string[];
  /** How far the last lens reaches past the editor's text area, in pixels (≤ 0: not cut off). */
  readonly overflow: number;
}

/** The lenses above line 1 of the active editor, and whether they fit in its text area. */
async function lensLine(page: Page): Promise<LensLine> {
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  const lens = editor.locator('.codelens-decoration').first();
  await lens.locator('a').first().waitFor({ timeout: 60_000 });
  // Lenses are redrawn once validation has run: let them settle.
  await page.waitForTimeout(1000);
  const titles = (await lens.locator('a').allInnerTexts()).map((t) => t.trim());
  const area = await editor.locator('.editor-scrollable').first().boundingBox();
  const last = await lens.locator('a').last().boundingBox();
  assert.ok(area && last, 'the editor and its lenses are on screen');
  // The minimap is drawn over the scrollable area's right end: text under it is not seen.
  const minimap = await editor
    .locator('.minimap')
    .first()
    .boundingBox()
    .catch(() => null);
  const right = Math.min(area.x + area.width, minimap && minimap.width > 0 ? minimap.x : Infinity);
  return { titles, overflow: last.x + last.width - right };
}

describe('CodeLenses beside the open results panel', function () {
  let scratch: string;
  let started: StartedWorkbench | undefined;
  let browser: Browser | undefined;
  let page: Page;

  before(async function () {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-ui-codelens-'));
    const folder = path.join(scratch, 'requests');
    fs.mkdirSync(folder);
    fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'transit-times', 'get-transit-times.carrier.json'), path.join(folder, 'get-transit-times.carrier.json'));
    fs.writeFileSync(path.join(folder, 'wrong-values.carrier.json'), WRONG_VALUES);
    started = await runStartScript(['--data-dir', path.join(scratch, 'data'), '--folder', folder]);
    browser = await openBrowser();
    page = await openWorkbench(browser, started.url);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed())
      await screenshot(page, `failed-codelens-${this.currentTest.title.slice(0, 40)}`).catch(() => undefined);
  });

  after(async function () {
    await browser?.close();
    if (started && started.child.exitCode === null && started.child.signalCode === null) {
      started.child.kill('SIGINT');
      await started.exited;
    }
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('three short lenses, none cut off, once the panel has opened beside the file', async () => {
    await quickOpen(page, 'get-transit-times.carrier.json');
    await clickCodeLens(page, 'Send SOAP 1.1');
    await (await resultsFrame(page)).locator('header.header').waitFor({ timeout: 60_000 });
    const line = await lensLine(page);
    assert.deepEqual(
      line.titles.map((t) => t.replace(/^\W+/, '')),
      ['Send SOAP 1.1', 'Send with…', 'Envelope'],
    );
    assert.ok(line.overflow <= 0, `the last lens reaches ${line.overflow} px past the editor`);
    await screenshot(page, 'codelens-panel-open');
  });

  it('in the error state: what is wrong in a few words, then Send anyway, none cut off', async () => {
    await quickOpen(page, 'wrong-values.carrier.json');
    const line = await lensLine(page);
    assert.equal(line.titles.length, 2, line.titles.join(' | '));
    assert.match(line.titles[0], /QuoteType: unknown value \(\+1\)$/);
    assert.match(line.titles[1], /Send anyway SOAP 1\.1$/);
    assert.ok(line.overflow <= 0, `the last lens reaches ${line.overflow} px past the editor`);
    await screenshot(page, 'codelens-error-panel-open');
  });
});
