/**
 * The VSIX as a user gets it: `npm run package` builds it without a warning and keeps it small;
 * code-server installs it with --install-extension; and in that workbench a request sent from the
 * Command Palette comes back from the embedded sandbox into the results panel, the walkthrough is
 * listed, and the example collections pass in the Test Explorer.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CODE_SERVER_BIN, folderUrl, REPO_ROOT, startCodeServer, type CodeServer } from '../../scripts/vscode-host/code-server-process';
import { openBrowser, openWorkbench, quickOpen, resultsFrame, runCommand, screenshot } from './support/workbench';
import { zipEntries } from './support/zipEntries';

const MANIFEST = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
const EXTENSION_ID = `${MANIFEST.publisher}.${MANIFEST.name}`;
const EXAMPLES = path.join(REPO_ROOT, 'examples');
/** What the extension loads at run time; anything else in the package is weight. */
const ALLOWED =
  /^(extension\.vsixmanifest|\[Content_Types\]\.xml|extension\/(package\.json|readme\.md|changelog\.md|LICENSE\.txt|dist\/(extension\.js|engine\.js|sandbox\.js|webview\.js|pdf\.worker\.min\.mjs|codicons\/.+|pdfjs\/standard_fonts\/.+)|media\/.+|schemas\/.+\.json|snippets\/.+\.json|syntaxes\/.+\.json))$/;

/** Waits until some frame of the page (a webview's) shows `text`. */
async function waitForFrameText(page: Page, text: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    for (const frame of page.frames()) {
      if (
        await frame
          .getByText(text, { exact: true })
          .first()
          .isVisible()
          .catch(() => false)
      )
        return;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`no frame shows "${text}"`);
}

/** Waits until some frame shows a loaded image whose address ends with `name`. */
async function waitForFrameImage(page: Page, name: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    for (const frame of page.frames()) {
      const loaded = await frame
        .evaluate((n) => Array.from(document.images).some((i) => i.src.includes(n) && i.complete && i.naturalWidth > 0), name)
        .catch(() => false);
      if (loaded) return;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`no frame shows the image ${name}`);
}

describe('the VSIX', function () {
  let scratch: string;
  let vsix: string;
  let packageOutput: string;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;

  before(function () {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-ui-vsix-'));
    const run = spawnSync('npm', ['run', 'package'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 180_000 });
    packageOutput = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, packageOutput);
    const packaged = /Packaged: (\S+\.vsix)/.exec(packageOutput);
    assert.ok(packaged, packageOutput);
    vsix = packaged[1];
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed())
      await screenshot(page, `failed-vsix-${this.currentTest.title.slice(0, 40)}`).catch(() => undefined);
  });

  after(async function () {
    await browser?.close();
    await server?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('is built by npm run package without warnings', () => {
    // npm's own notices about this machine's npm configuration are not the package's business.
    const lines = packageOutput.split('\n').filter((l) => !/^npm warn/i.test(l));
    const warnings = lines.filter((l) => /warn/i.test(l));
    assert.deepEqual(warnings, []);
  });

  it('holds only the bundles, schemas, snippets, syntaxes, media and pdf.js files, and stays small', () => {
    const entries = zipEntries(vsix);
    const stray = entries.filter((e) => !ALLOWED.test(e.name)).map((e) => e.name);
    assert.deepEqual(stray, []);
    for (const needed of [
      'extension/dist/extension.js',
      'extension/dist/engine.js',
      'extension/dist/sandbox.js',
      'extension/dist/webview.js',
      'extension/dist/pdf.worker.min.mjs',
      'extension/media/icon.png',
      'extension/LICENSE.txt',
      'extension/changelog.md',
      'extension/schemas/carrier-request.schema.json',
    ]) {
      assert.ok(
        entries.some((e) => e.name === needed),
        needed,
      );
    }
    // Every image a walkthrough page shows is in the package (they are read from it).
    const pages = path.join(REPO_ROOT, 'media', 'walkthrough');
    for (const file of fs.readdirSync(pages)) {
      for (const [, image] of fs.readFileSync(path.join(pages, file), 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const packaged = `extension/${path.posix.join('media/walkthrough', image)}`;
        assert.ok(
          entries.some((e) => e.name === packaged),
          `${file}: ${image} is packaged`,
        );
      }
    }
    const megabytes = fs.statSync(vsix).size / 1024 / 1024;
    assert.ok(megabytes < 4, `${megabytes.toFixed(2)} MB`);
  });

  it('installs into code-server with --install-extension', () => {
    const install = spawnSync(
      CODE_SERVER_BIN,
      ['--install-extension', vsix, '--extensions-dir', path.join(scratch, 'extensions'), '--user-data-dir', path.join(scratch, 'user-data')],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(install.status, 0, `${install.stdout}\n${install.stderr}`);
    const list = spawnSync(
      CODE_SERVER_BIN,
      ['--list-extensions', '--show-versions', '--extensions-dir', path.join(scratch, 'extensions'), '--user-data-dir', path.join(scratch, 'user-data')],
      { encoding: 'utf8' },
    );
    assert.match(list.stdout, new RegExp(`^${EXTENSION_ID}@${MANIFEST.version.replace(/\./g, '\\.')}$`, 'm'));
  });

  it('sends a rate quote from the Command Palette and shows the parsed reply', async () => {
    const userData = path.join(scratch, 'user-data');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    // A quiet workbench for the screenshots: no first-run walkthrough, no git prompt.
    fs.writeFileSync(
      path.join(userData, 'User', 'settings.json'),
      JSON.stringify({ 'workbench.startupEditor': 'none', 'git.openRepositoryInParentFolders': 'never' }),
    );
    server = await startCodeServer({
      folder: EXAMPLES,
      userDataDir: userData,
      extensionsDir: path.join(scratch, 'extensions'),
      logFile: path.join(scratch, 'code-server.log'),
    });
    browser = await openBrowser();
    page = await openWorkbench(browser, folderUrl(server.url, EXAMPLES));

    await quickOpen(page, 'rate-quote/get-rate-quote-1.0.3.carrier.json');
    await runCommand(page, 'Carrier: Send');
    const frame = await resultsFrame(page);
    const header = frame.locator('header.header');
    await header.waitFor({ timeout: 60_000 });
    assert.match(await header.innerText(), /200 OK/);
    assert.match(await header.innerText(), /GetRateQuote 1\.0\.3/);
    await frame.locator('#tab-tree').click();
    const tree = frame.locator('#panel-tree');
    // Open the quote the way a reader does: Result, then its service levels and the first one.
    for (const key of ['Result', 'ServiceLevels', '[0]']) {
      const row = tree.locator('.row-line', { hasText: new RegExp(`^\\s*${key.replace(/[[\]]/g, '\\$&')}\\s*:`) }).first();
      await row.waitFor({ timeout: 15_000 });
      await row.click();
    }
    const text = await tree.innerText();
    assert.match(text, /WasSuccess/);
    assert.match(text, /NetCharge|Net Charge/);
    await screenshot(page, 'results-parsed-tree');

    // The exact request as it went on the wire, the API key masked.
    await frame.locator('#tab-request').click();
    const request = frame.locator('#panel-request');
    await request.getByText('SOAPAction', { exact: false }).first().waitFor({ timeout: 15_000 });
    const wire = await request.innerText();
    assert.match(wire, /POST\s+http:\/\/127\.0\.0\.1:\d+\/1\.0\.3\/RateQuoteService\.asmx/);
    assert.match(wire, /<APIKey>••••<\/APIKey>/);
    await screenshot(page, 'results-request');
  });

  it('runs the example collections in the Test Explorer, all passing', async () => {
    await runCommand(page!, 'Test: Run All Tests');
    await runCommand(page!, 'Testing: Focus on Test Explorer View');
    // The Testing view's summary above its tree: "passed/total" once the run has ended.
    const summary = page!.locator('.test-explorer .result-summary');
    let text = '';
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      text = (await summary.innerText().catch(() => '')).trim();
      const counts = /(\d+)\/(\d+)/.exec(text);
      if (counts && Number(counts[2]) >= 20 && counts[1] === counts[2]) break;
      await page!.waitForTimeout(500);
    }
    const [, passed, total] = /(\d+)\/(\d+)/.exec(text) ?? [];
    assert.ok(Number(total) >= 20, `the example collections as tests: "${text}"`);
    assert.equal(passed, total, text);
    // The collections, open one level, beside the run's report.
    await runCommand(page!, 'View: Close All Editors');
    await quickOpen(page!, 'collections/bill-of-lading-lifecycle/01-create-bill-of-lading.carrier.json');
    // A test file is a request file too: its Send lenses are there as for any other.
    await page!
      .locator('.codelens-decoration a', { hasText: /Send SOAP 1\.1/ })
      .first()
      .waitFor({ timeout: 30_000 });
    await page!.locator('.test-explorer .monaco-list-row', { hasText: 'collections' }).first().click();
    await page!.keyboard.press('ArrowRight');
    await screenshot(page!, 'test-explorer');
  });

  it('lists the Get Started walkthrough with its five steps, ticking off a send', async () => {
    // The walkthrough alone, full width, shows each step's page beside the list of steps.
    await runCommand(page!, 'View: Close All Editors');
    await runCommand(page!, 'View: Hide Panel');
    await runCommand(page!, 'View: Show Explorer');
    await runCommand(page!, 'Welcome: Open Walkthrough...');
    const pick = page!.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Carrier Workbench' }).first();
    await pick.waitFor({ timeout: 15_000 });
    await pick.click();
    const steps = page!.locator('.getting-started-step .step-title');
    await steps.first().waitFor({ timeout: 15_000 });
    const titles = await steps.allInnerTexts();
    assert.deepEqual(
      titles.map((t) => t.trim()),
      ['Open the examples', 'Send a request to the sandbox', 'Read the reply and its PDF', 'Set an API key for a real environment', 'Run a collection'],
    );
    // The selected step's page (media/walkthrough/open-examples.md) renders beside the steps.
    await waitForFrameText(page!, 'Request files');
    await screenshot(page!, 'walkthrough');

    // A step's page shows its screenshot from the installed package.
    await steps.filter({ hasText: 'Send a request to the sandbox' }).click();
    await waitForFrameImage(page!, 'parsed-reply.png');
    await screenshot(page!, 'walkthrough-send');

    // Doing what a step says ticks it off: here, sending a request (onCommand:carrier.send).
    await quickOpen(page!, 'terminals/get-terminal-information.carrier.json');
    await runCommand(page!, 'Carrier: Send');
    await (await resultsFrame(page!)).getByText('GetTerminalInformation 1.0.2').first().waitFor({ timeout: 60_000 });
    await runCommand(page!, 'Welcome: Open Walkthrough...');
    await page!.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Carrier Workbench' }).first().click();
    const ticked = () =>
      page!.locator('.getting-started-step[aria-checked="true"]').evaluateAll((els) => els.map((e) => (e.getAttribute('data-step-id') ?? '').split('#').pop()));
    let done: Array<string | undefined> = [];
    for (const until = Date.now() + 10_000; Date.now() < until; await page!.waitForTimeout(200)) {
      done = await ticked();
      if (done.includes('send')) break;
    }
    assert.ok(done.includes('send'), `ticked off: ${done.join(', ')}`);
  });
});
