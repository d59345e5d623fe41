/**
 * The results panel as a person sees it in code-server at 1440×900, beside the request that was
 * sent: the Summary's own views of a rate quote, a trace, transit times, terminals, a new bill of
 * lading and a pickup, each screenshotted and checked for anything cut off; and the active tab in
 * Light Modern, Dark Modern and High Contrast, told apart by its computed style, not only by eye.
 * The workspace is a scratch copy of examples/, so what the sends write stays out of the repository.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { folderUrl, REPO_ROOT, startCodeServer, type CodeServer } from '../../scripts/vscode-host/code-server-process';
import { openBrowser, openWorkbench, quickOpen, resultsFrame, runCommand, screenshot } from './support/workbench';

// npm start's CommonJS helper (it has no types): the repository linked in as an installed extension.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { linkRepositoryAsExtension } = require('../../scripts/start/installed-extension') as { linkRepositoryAsExtension(repo: string, dir: string): string };

/** The themes as the Color Theme picker lists them. */
const THEMES = [
  { label: 'Light Modern', bodyClass: 'vscode-light', shot: 'panel-tabs-light-modern' },
  { label: 'Dark Modern', bodyClass: 'vscode-dark', shot: 'panel-tabs-dark-modern' },
  { label: 'Dark High Contrast', bodyClass: 'vscode-high-contrast', shot: 'panel-tabs-high-contrast' },
] as const;

/** Whether the panel shows all of itself: no page wider than the panel, no tab out of the strip. */
async function clipping(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) problems.push(`the page is ${doc.scrollWidth}px wide in ${doc.clientWidth}px`);
    const list = document.querySelector('.tablist') as HTMLElement | null;
    if (list && list.scrollWidth > list.clientWidth) problems.push(`the tabs need ${list.scrollWidth}px of ${list.clientWidth}px`);
    if (list && list.scrollHeight > list.clientHeight) problems.push('the tab strip cuts off the bottom of its tabs');
    for (const el of Array.from(document.querySelectorAll('.domain .level, .domain .card, .domain .number-tile, .domain td, .domain th'))) {
      if (el.scrollWidth > el.clientWidth + 1)
        problems.push(`${el.tagName.toLowerCase()}.${(el as HTMLElement).className} holds ${el.scrollWidth}px in ${el.clientWidth}px`);
    }
    for (const el of Array.from(document.querySelectorAll('.domain *'))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > doc.clientWidth + 0.5)
        problems.push(`${el.tagName.toLowerCase()}.${(el as HTMLElement).className} ends at ${Math.round(r.right)}px`);
    }
    return problems.slice(0, 5);
  });
}

describe('the results panel in code-server, beside the editor', function () {
  let scratch: string;
  let folder: string;
  let userData: string;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  before(async function () {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-ui-panel-'));
    folder = path.join(scratch, 'examples');
    fs.cpSync(path.join(REPO_ROOT, 'examples'), folder, { recursive: true });
    userData = path.join(scratch, 'user-data');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    writeSettings('Default Light Modern');
    const extensions = path.join(scratch, 'extensions');
    linkRepositoryAsExtension(REPO_ROOT, extensions);
    server = await startCodeServer({ folder, userDataDir: userData, extensionsDir: extensions, logFile: path.join(scratch, 'code-server.log') });
    browser = await openBrowser();
    page = await openWorkbench(browser, folderUrl(server.url, folder));
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed())
      await screenshot(page, `failed-panel-${this.currentTest.title.slice(0, 40)}`).catch(() => undefined);
  });

  after(async function () {
    await browser?.close();
    await server?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** A quiet workbench for the screenshots: no first-run walkthrough, no git prompt. */
  function writeSettings(theme: string): void {
    fs.writeFileSync(
      path.join(userData, 'User', 'settings.json'),
      JSON.stringify(
        {
          'workbench.startupEditor': 'none',
          'git.openRepositoryInParentFolders': 'never',
          'workbench.colorTheme': theme,
        },
        null,
        2,
      ),
    );
  }

  /** A screenshot once the send's progress notification has gone, so it covers nothing. */
  async function settledScreenshot(name: string): Promise<void> {
    await page
      .locator('.notification-toast', { hasText: 'sending' })
      .waitFor({ state: 'hidden', timeout: 15_000 })
      .catch(() => undefined);
    await screenshot(page, name);
  }

  /** Preferences: Color Theme, and the theme picked from its list as a person picks it. */
  async function pickTheme(label: string): Promise<void> {
    await runCommand(page, 'Preferences: Color Theme');
    const input = page.locator('.quick-input-widget input');
    await input.fill(label);
    const row = page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: page.getByText(label, { exact: true }) })
      .first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
  }

  /** Sends the request in `file` from the palette and waits for the panel's view `domain`. */
  async function sendAndSee(file: string, domain: string): Promise<Frame> {
    // The panel is reused: mark what it shows now, so the wait is for the new exchange's view.
    const shown = await resultsFrame(page, 1_000).catch(() => undefined);
    await shown?.evaluate(() => document.querySelector('header.header')?.setAttribute('data-stale', '')).catch(() => undefined);
    await quickOpen(page, file);
    await runCommand(page, 'Carrier: Send');
    const frame = await resultsFrame(page);
    await frame.locator('header.header:not([data-stale])').waitFor({ timeout: 60_000 });
    await frame.locator(`.domain-${domain}`).waitFor({ timeout: 60_000 });
    // The panel opens beside the request, which stays in view.
    const editors = await page.locator('.editor-group-container').count();
    assert.ok(editors >= 2, `the panel sits beside the editor (${editors} groups)`);
    return frame;
  }

  // The rate quote comes last: the theme tests below look at it.
  const VIEWS: ReadonlyArray<{
    title: string;
    file: string;
    domain: string;
    shot: string;
    check: (frame: Frame) => Promise<void>;
    prepare?: () => Promise<void>;
  }> = [
    {
      title: "a trace: the shipment's card and its timeline",
      file: 'tracing/trace-shipment.carrier.json',
      domain: 'trace',
      shot: 'panel-trace',
      check: async (frame) => {
        assert.match(await frame.locator('.domain-trace .card h3').first().innerText(), /^PRO \d+/);
        assert.ok((await frame.locator('.domain-trace ol.timeline > li').count()) >= 3);
      },
    },
    {
      title: 'transit times: a table of destinations with days and dates',
      file: 'transit-times/get-transit-times.carrier.json',
      domain: 'transit-times',
      shot: 'panel-transit-times',
      check: async (frame) => {
        assert.ok((await frame.locator('.domain-transit-times tbody tr').count()) >= 1);
        assert.match(await frame.locator('.domain-transit-times tbody tr time').first().innerText(), /^\w{3}, \w{3} \d{1,2}, \d{4}$/);
      },
    },
    {
      title: 'terminals: address and contacts as cards',
      file: 'terminals/get-terminal-information.carrier.json',
      domain: 'terminal',
      shot: 'panel-terminal',
      check: async (frame) => {
        assert.ok((await frame.locator('.domain-terminal .card address').count()) >= 1);
      },
    },
    {
      title: 'a new bill of lading: the numbers to copy and what to do with them',
      file: 'bill-of-lading/create-bill-of-lading.carrier.json',
      domain: 'bill-of-lading',
      shot: 'panel-bill-of-lading',
      check: async (frame) => {
        assert.match(await frame.locator('.domain-bill-of-lading [data-path="WebProNumber"] .number-value').innerText(), /^\d{9}$/);
        await frame.getByRole('button', { name: 'Trace this PRO' }).waitFor();
        await frame.getByRole('button', { name: 'Get this BOL’s PDF' }).waitFor();
      },
    },
    {
      title: "a pickup: its number and the linked bill of lading's",
      file: 'pickup/create-pickup-request.carrier.json',
      domain: 'pickup',
      shot: 'panel-pickup',
      check: async (frame) => {
        assert.match(await frame.locator('.domain-pickup .number-value').first().innerText(), /^\d+$/);
        assert.equal(await frame.locator('.domain-pickup .number-label').first().innerText(), 'Pickup number');
      },
      // One pickup collects a bill of lading, and the example's BOL 1 is delivered: link a new one without a pickup.
      prepare: async () => {
        const bol = 'pickup/bol-to-pick-up.carrier.json';
        fs.writeFileSync(
          path.join(folder, bol),
          fs
            .readFileSync(path.join(folder, 'bill-of-lading/create-bill-of-lading.carrier.json'), 'utf8')
            .replace(/"AddPickupRequest": true/, '"AddPickupRequest": false'),
        );
        const frame = await sendAndSee(bol, 'bill-of-lading');
        const bolId = (await frame.locator('.domain-bill-of-lading [data-path="BolID"] .number-value').innerText()).trim();
        const pickup = path.join(folder, 'pickup/create-pickup-request.carrier.json');
        fs.writeFileSync(pickup, fs.readFileSync(pickup, 'utf8').replace(/"LinkedBolId": \d+/, `"LinkedBolId": ${bolId}`));
      },
    },
    {
      title: 'a rate quote: service levels side by side and the charges that add up',
      file: 'rate-quote/get-rate-quote-1.0.3.carrier.json',
      domain: 'rate-quote',
      shot: 'panel-rate-quote',
      check: async (frame) => {
        assert.ok((await frame.locator('.domain-rate-quote .level').count()) >= 2);
        assert.match(await frame.locator('.domain-rate-quote .sum-check').innerText(), /The lines add up to the net charge, \$[\d,.]+\./);
      },
    },
  ];

  for (const view of VIEWS) {
    it(`shows ${view.title}, nothing clipped`, async () => {
      await view.prepare?.();
      const frame = await sendAndSee(view.file, view.domain);
      await view.check(frame);
      assert.deepEqual(await clipping(frame), []);
      await settledScreenshot(view.shot);
    });
  }

  for (const theme of THEMES) {
    it(`marks the active tab unmistakably in ${theme.label}`, async () => {
      await pickTheme(theme.label);
      // The rate quote, sent last above, is what the panel shows.
      const frame = await resultsFrame(page);
      await frame.locator('.domain-rate-quote').waitFor();
      await frame.waitForFunction((cls) => document.body.classList.contains(cls), theme.bodyClass, { timeout: 30_000 });
      await frame.locator('#tab-summary').click();
      const look = await frame.evaluate(() =>
        [document.querySelector('.tab.active')!, document.querySelector('.tab:not(.active)')!].map((el) => {
          const s = getComputedStyle(el);
          const list = document.querySelector('.tablist')!.getBoundingClientRect();
          return { color: s.color, shadow: s.boxShadow, outline: s.outlineStyle, bottom: el.getBoundingClientRect().bottom, listBottom: list.bottom };
        }),
      );
      const [active, inactive] = look;
      assert.match(active.shadow, /^rgb\(\d+, \d+, \d+\) 0px -2px 0px 0px inset$/, `a 2 px marker: ${active.shadow}`);
      assert.doesNotMatch(active.shadow, /rgba\(0, 0, 0, 0\)/, 'the marker has a colour');
      assert.equal(inactive.shadow, 'none');
      assert.ok(active.bottom <= active.listBottom, 'the marker is inside the strip, not clipped');
      if (theme.bodyClass === 'vscode-high-contrast') assert.equal(active.outline, 'solid', 'High Contrast outlines the selected tab');
      else assert.notEqual(active.color, inactive.color, 'active and inactive tab text differ');
      assert.deepEqual(await clipping(frame), []);
      // Text the theme draws in its own background colour would be there and unreadable.
      const unreadable = await frame.evaluate(() => {
        const page = getComputedStyle(document.body).backgroundColor;
        return Array.from(document.querySelectorAll('.domain code, .domain .level-net, .domain th, .domain td'))
          .map((el) => {
            const s = getComputedStyle(el);
            const ground = s.backgroundColor === 'rgba(0, 0, 0, 0)' ? page : s.backgroundColor;
            return s.color === ground ? `${el.tagName.toLowerCase()} "${el.textContent}" in ${s.color} on ${ground}` : '';
          })
          .filter(Boolean);
      });
      assert.deepEqual(unreadable, []);
      await settledScreenshot(theme.shot);
    });
  }
});
