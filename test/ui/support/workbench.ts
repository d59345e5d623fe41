/**
 * The workbench page as a person uses it: Debian's chromium (through playwright-core) on a
 * code-server page, opening files with Quick Open, clicking CodeLenses, running commands from the
 * palette and reading the results panel's webview. Screenshots go to test-results/ui/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';
import { chromiumLaunchOptions, REPO_ROOT } from '../../../scripts/vscode-host/code-server-process';

export const SCREENSHOTS = path.join(REPO_ROOT, 'test-results', 'ui');

export async function openBrowser(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}

/** A new page on the workbench at `url`, ready once the explorer shows the folder. */
export async function openWorkbench(browser: Browser, url: string): Promise<Page> {
  // README screenshots are taken at this size: wide enough for an editor beside the panel.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.log(`    [page error] ${err.message}`));
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view').waitFor({ timeout: 60_000 });
  return page;
}

/** The explorer's rows as shown (folder and file names). */
export async function explorerRows(page: Page): Promise<string[]> {
  return page.locator('.explorer-folders-view .monaco-list-row').allInnerTexts();
}

/** Ctrl+P, the file's name, Enter: the file opens in an editor tab. */
export async function quickOpen(page: Page, relativePath: string): Promise<void> {
  const name = path.basename(relativePath);
  const input = await openQuickInput(page, 'Control+P');
  await input.fill(relativePath);
  // The file search answers a moment after typing; Enter before then opens nothing.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 30_000 });
  await input.press('Enter');
  await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor({ timeout: 30_000 });
}

/**
 * F1, the command's title, and a click on it (as a person picks it from the list). The palette
 * lists the commands enabled when it opens: one whose context key is still being updated (Send
 * right after a send, while `carrier.sending` goes back to false) is missing from that list, and
 * a person would open the palette again; so does this, until 15 s have passed.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  // The row of exactly this command, not of one whose title merely starts the same way.
  const row = page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.getByText(title, { exact: true }) })
    .first();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const input = await openQuickInput(page, 'F1');
    await input.fill(`>${title}`);
    const wait = Math.max(1_000, Math.min(3_000, deadline - Date.now()));
    if (
      await row.waitFor({ timeout: wait }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() >= deadline) throw new Error(`the command palette did not list "${title}" within 15 s`);
  }
  await row.click();
}

/** Clicks the CodeLens whose text is exactly `title` (ignoring its icon). */
export async function clickCodeLens(page: Page, title: string): Promise<void> {
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lens = page.locator('.codelens-decoration a', { hasText: new RegExp(`^\\W*${escaped}\\s*$`) }).first();
  // CodeLenses appear once the extension has activated on the file's language.
  await lens.waitFor({ timeout: 60_000 });
  await lens.click();
}

/**
 * The results panel's document. code-server nests a webview two frames deep: an outer frame
 * (index.html) that hosts the inner "active-frame" (fake.html) holding the extension's HTML.
 */
export async function resultsFrame(page: Page, timeoutMs = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const outer of page.frames().filter((f) => /\/index\.html/.test(f.url()))) {
      for (const inner of outer.childFrames().filter((f) => /fake\.html/.test(f.url()) || f.name() === 'active-frame')) {
        // The panel's own page carries where pdf.js's worker is; other webviews do not.
        const ours = await inner.$('body[data-pdf-worker]').catch(() => null);
        if (ours) return inner;
      }
    }
    await page.waitForTimeout(200);
  }
  throw new Error('the results panel did not open');
}

/** How many pixels of the panel's PDF canvas are not the page's white: ink, text, lines. */
export async function inkOnPdfCanvas(frame: Frame, timeoutMs = 30_000): Promise<number> {
  const canvas = frame.locator('canvas.pdf-canvas').first();
  await canvas.waitFor({ timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  let ink = 0;
  // pdf.js renders asynchronously after the canvas appears: wait for the page to be painted.
  while (Date.now() < deadline) {
    ink = await canvas.evaluate((el) => {
      const c = el as HTMLCanvasElement;
      const ctx = c.getContext('2d');
      if (!ctx || c.width === 0 || c.height === 0) return 0;
      const { data } = ctx.getImageData(0, 0, c.width, c.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] + data[i + 1] + data[i + 2] < 600) dark++;
      return dark;
    });
    if (ink > 500) return ink;
    await frame.page().waitForTimeout(250);
  }
  return ink;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Presses `key` until the quick input shows. Right after the page loads, the workbench may not
 * listen to keys yet, or an editor opening late takes the focus and closes the box.
 */
async function openQuickInput(page: Page, key: string): Promise<Locator> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 0; attempt < 10; attempt++) {
    await page.keyboard.press('Escape');
    await page.keyboard.press(key);
    if (
      await input.waitFor({ state: 'visible', timeout: 2_000 }).then(
        () => true,
        () => false,
      )
    )
      return input;
  }
  throw new Error(`${key} did not open the quick input`);
}
