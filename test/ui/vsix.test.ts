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
const ALLOWED = /^(extension\.vsixmanifest|\[Content_Types\]\.xml|extension\/(package\.json|readme\.md|changelog\.md|LICENSE\.txt|dist\/(extension\.js|webview\.js|pdf\.worker\.min\.mjs|codicons\/.+|pdfjs\/standard_fonts\/.+)|media\/.+|schemas\/.+\.json|snippets\/.+\.json|syntaxes\/.+\.json))$/;

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
    if (this.currentTest?.state === 'failed' && page && !page.isClosed()) await screenshot(page, `failed-vsix-${this.currentTest.title.slice(0, 40)}`).catch(() => undefined);
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
    for (const needed of ['extension/dist/extension.js', 'extension/dist/webview.js', 'extension/dist/pdf.worker.min.mjs', 'extension/media/icon.png', 'extension/LICENSE.txt', 'extension/changelog.md', 'extension/schemas/carrier-request.schema.json']) {
      assert.ok(entries.some((e) => e.name === needed), needed);
    }
    // Every image the README shows is in the package (the README links them relatively).
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    for (const [, image] of readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) {
      assert.ok(entries.some((e) => e.name === `extension/${image}`), `README image ${image} is packaged`);
    }
    const megabytes = fs.statSync(vsix).size / 1024 / 1024;
    assert.ok(megabytes < 4, `${megabytes.toFixed(2)} MB`);
  });

  it('installs into code-server with --install-extension', () => {
    const install = spawnSync(CODE_SERVER_BIN, ['--install-extension', vsix, '--extensions-dir', path.join(scratch, 'extensions'), '--user-data-dir', path.join(scratch, 'user-data')], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(install.status, 0, `${install.stdout}\n${install.stderr}`);
    const list = spawnSync(CODE_SERVER_BIN, ['--list-extensions', '--show-versions', '--extensions-dir', path.join(scratch, 'extensions'), '--user-data-dir', path.join(scratch, 'user-data')], { encoding: 'utf8' });
    assert.match(list.stdout, new RegExp(`^${EXTENSION_ID}@${MANIFEST.version.replace(/\./g, '\\.')}$`, 'm'));
  });

  it('sends a rate quote from the Command Palette and shows the parsed reply', async () => {
    const userData = path.join(scratch, 'user-data');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    // A quiet workbench for the screenshots: no first-run walkthrough, no git prompt.
    fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({ 'workbench.startupEditor': 'none', 'git.openRepositoryInParentFolders': 'never' }));
    server = await startCodeServer({ folder: EXAMPLES, userDataDir: userData, extensionsDir: path.join(scratch, 'extensions'), logFile: path.join(scratch, 'code-server.log') });
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
    await tree.getByText('ServiceLevels', { exact: false }).first().waitFor({ timeout: 15_000 });
    const text = await tree.innerText();
    assert.match(text, /WasSuccess/);
    assert.match(text, /Burns/);
    await screenshot(page, 'results-parsed-tree');
  });

  it('lists the Get Started walkthrough with its five steps', async () => {
    await runCommand(page!, 'Welcome: Open Walkthrough...');
    const pick = page!.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Carrier Workbench' }).first();
    await pick.waitFor({ timeout: 15_000 });
    await pick.click();
    const steps = page!.locator('.getting-started-step .step-title');
    await steps.first().waitFor({ timeout: 15_000 });
    const titles = await steps.allInnerTexts();
    assert.deepEqual(titles.map((t) => t.trim()), ['Open the examples', 'Send a request to the sandbox', 'Read the reply and its PDF', 'Set an API key for a real environment', 'Run a collection']);
    await screenshot(page!, 'walkthrough');
  });

  it('runs the example collections in the Test Explorer, all passing', async () => {
    await runCommand(page!, 'Test: Run All Tests');
    await runCommand(page!, 'Testing: Focus on Test Explorer View');
    // The summary line the Testing view keeps above its tree, e.g. "27/27 tests passed (3.1s)".
    const summary = page!.locator('.test-explorer .result-summary');
    await page!.waitForFunction(() => /\d+\/\d+ tests? passed/.test(document.querySelector('.test-explorer .result-summary')?.textContent ?? ''), undefined, { timeout: 120_000 });
    const text = await summary.innerText();
    const [, passed, total] = /(\d+)\/(\d+) tests? passed/.exec(text)!;
    assert.ok(Number(total) >= 20, text);
    assert.equal(passed, total, text);
    await screenshot(page!, 'test-explorer');
  });
});
