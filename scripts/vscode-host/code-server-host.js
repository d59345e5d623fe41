// Runs the suite inside code-server's real extension host, driven by Debian's chromium through
// playwright-core. The workbench calls window.codeAutomationExit with the run's exit code once the
// tests module's run() settles; that is the same hook VS Code's own web smoke tests use.
'use strict';
/* global document, window -- read inside frame.evaluate() callbacks, which run in the page */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const util = require('node:util');
const { REPO_ROOT, chromiumLaunchOptions, startCodeServer } = require('./code-server-process');

function log(message) {
  console.log(`[vscode-host] ${message}`);
}

function testUrl(port, workspace, extensionDevelopmentPath, extensionTestsPath) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extensionDevelopmentPath)],
    ['extensionTestsPath', remote(extensionTestsPath)],
    ['skipWelcome', 'true'],
  ];
  // A .code-workspace file opens as a multi-root workspace, anything else as one folder.
  const open = workspace.endsWith('.code-workspace') ? 'workspace' : 'folder';
  return `http://127.0.0.1:${port}/?${open}=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * @param {{ workspace: string, extensionDevelopmentPath: string, extensionTestsPath: string,
 *           env: NodeJS.ProcessEnv, screenshotsDir: string, timeoutMs: number,
 *           onPageReady: (actions: { screenshot: (name: string) => Promise<string>,
 *                                    type: (text: string | null, selector: string, waitForValue: boolean) => Promise<boolean> }) => void }} options
 * @returns {Promise<number>} the suite's exit code
 */
async function runInCodeServer(options) {
  const { chromium } = require('playwright-core');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-vscode-host-'));
  let server;
  let browser;
  let page;
  const takeScreenshot = async (name) => {
    if (!page) throw new Error('no page yet');
    fs.mkdirSync(options.screenshotsDir, { recursive: true });
    const file = path.join(options.screenshotsDir, `${name}.png`);
    await page.screenshot({ path: file });
    log(`screenshot ${path.relative(REPO_ROOT, file)}`);
    return file;
  };
  try {
    server = await startCodeServer({
      folder: options.workspace,
      env: options.env,
      userDataDir: path.join(scratch, 'user-data'),
      extensionsDir: path.join(scratch, 'extensions'),
      logFile: path.join(scratch, 'code-server.log'),
    });
    log(`code-server listening on 127.0.0.1:${server.port}`);
    browser = await chromium.launch(chromiumLaunchOptions());
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // The extension's clipboard (Copy as curl, copy value) is the browser's here.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${server.port}` });
    page = await context.newPage();

    let settle;
    const exitCode = new Promise((resolve) => {
      settle = resolve;
    });
    await page.exposeFunction('codeAutomationExit', (code) => settle(Number(code)));
    await page.exposeFunction('codeAutomationLog', (type, args) => printWorkbenchLog(type, args));
    page.on('pageerror', (err) => log(`page error: ${err.message}`));
    options.onPageReady({
      screenshot: takeScreenshot,
      // `text` null accepts what the box holds (a dialog's default path) instead of typing.
      type: async (text, selector, waitForValue) => {
        const input = page.locator(selector).first();
        await input.waitFor({ state: 'visible', timeout: 15_000 });
        // A file dialog fills in its default path after it opens; typing earlier gets overwritten.
        if (waitForValue || text === null) {
          const until = Date.now() + 10_000;
          while ((await input.inputValue()) === '' && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        }
        // A dialog still busy (listing a folder) ignores Enter: submit until the box closes.
        for (let attempt = 0; attempt < 5; attempt++) {
          if (!(await input.isVisible())) return true;
          if (text !== null && (await input.inputValue()) !== text) await input.fill(text);
          await input.press('Enter', { timeout: 2_000 }).catch(() => undefined);
          const closed = await input.waitFor({ state: 'hidden', timeout: 2_000 }).then(
            () => true,
            () => false,
          );
          if (closed) return true;
        }
        throw new Error(`the input box (${selector}) did not close after Enter`);
      },
      webview: (op) => webviewAction(page, op),
      // The workbench itself (a modal dialog's buttons and message): read text, click by label.
      workbench: async (op) => {
        const target = page.locator(op.selector, op.hasText ? { hasText: op.hasText } : {}).first();
        await target.waitFor({ state: 'visible', timeout: op.timeoutMs ?? 15_000 });
        if (op.action === 'click') {
          await target.click();
          return { ok: true };
        }
        return { text: await target.textContent() };
      },
    });

    const url = testUrl(server.port, options.workspace, options.extensionDevelopmentPath, options.extensionTestsPath);
    const started = Date.now();
    await page.goto(url, { waitUntil: 'domcontentloaded' });

    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => {
        log(`timed out after ${Math.round(options.timeoutMs / 1000)} s waiting for the suite`);
        resolve(124);
      }, options.timeoutMs);
    });
    const code = await Promise.race([exitCode, timeout]);
    clearTimeout(timer);
    log(`suite finished with exit code ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await takeScreenshot(code === 0 ? 'final' : 'failure').catch((err) => log(`final screenshot failed: ${err.message}`));
    return code;
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    if (server) await server.stop();
    const keep = process.env.CARRIER_KEEP_HOST_SCRATCH === '1';
    if (keep) log(`scratch kept at ${scratch}`);
    else fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The frame holding the results panel's document (VS Code nests it two iframes deep). */
async function resultsFrame(page, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      try {
        if (await frame.$('body[data-pdf-worker]')) return frame;
      } catch {
        // Frame navigated away while we looked: try the next one.
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no results webview is open');
}

/** One user-level action inside the results webview; the suite asserts on what comes back. */
async function webviewAction(page, op) {
  const frame = await resultsFrame(page);
  const target = () => frame.locator(op.selector).first();
  switch (op.action) {
    case 'waitFor':
      await target().waitFor({ state: op.state || 'visible', timeout: op.timeoutMs || 15_000 });
      return { ok: true };
    case 'click':
      await target().click();
      return { ok: true };
    case 'press':
      // Into the focused element when no selector is given, as a keyboard user would.
      if (op.selector) await target().press(op.key);
      else await page.keyboard.press(op.key);
      return { ok: true };
    case 'fill':
      await target().fill(op.text);
      return { ok: true };
    case 'text':
      return { text: await target().textContent() };
    case 'attr':
      return { value: await target().getAttribute(op.name) };
    case 'count':
      return { count: await frame.locator(op.selector).count() };
    case 'focused':
      return frame.evaluate(() => {
        const el = document.activeElement;
        if (!el) return {};
        return {
          id: el.id,
          role: el.getAttribute('role'),
          expanded: el.getAttribute('aria-expanded'),
          selected: el.getAttribute('aria-selected'),
          // A tree row's own line, not its whole subtree.
          text: ((el.querySelector(':scope > .row-line') || el).textContent || '').slice(0, 300),
          // Whether a sighted user can see it: inside the viewport.
          inView: (() => {
            const r = el.getBoundingClientRect();
            return r.bottom > 0 && r.top < window.innerHeight && r.height > 0;
          })(),
        };
      });
    default:
      throw new Error(`unknown webview action ${op.action}`);
  }
}

// The workbench forwards its log (and the extension host's console, which carries mocha's
// reporter) here. Offline it also complains about the extension gallery: that noise is dropped.
function printWorkbenchLog(type, args) {
  // The extension host forwards console calls with their printf-style format string first.
  const list = Array.isArray(args) ? args : [args];
  const text = util.format(...list.map((a) => (a !== null && typeof a === 'object' ? JSON.stringify(a) : a)));
  if (/gallery|marketplace|ENOTFOUND|getaddrinfo/i.test(text)) return;
  // Connection bookkeeping of the workbench: says nothing about the suite.
  if (/^(Resolving|Resolved) connection token|^Creating a socket|^Updating additional builtin|^\[Service Worker\]|^ChatSessionStore/.test(text)) return;
  console.log(type === 'error' ? `[workbench:error] ${text}` : text);
}

module.exports = { runInCodeServer };
