/**
 * The results panel as a new user meets it beside an editor (a 600 px panel), in Chromium on
 * sandbox replies (issue 38): the transit-times table reads at that width, the tab strip stays in
 * sight, a clean quote has no count on its Summary tab, a PDF's name is never cut without its
 * tooltip; hostile replies (a bidi override, a 50,000-character fault string) cannot rearrange or
 * widen the panel; the tree search says "1,000+" when it stopped counting; a large reply's first
 * message is its header alone. Screenshots in light, dark and high contrast go to
 * test-results/browser/new-user-*.png.
 */
import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import type { Exchange } from '../../src/core/exchange';
import { nodeContext } from '../../src/host';
import { DEFER_DETAIL_CHARS, HEAD_BODY_CHARS, RAW_BODY_CAP_CHARS, toDetail, toHeadView } from '../../src/extension/panel/exchangeView';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import type { ToWebview } from '../../src/webview/protocol';
import { launchChromium, screenshot } from './browser-kit';
import { openPanelPage, render, sendExample, type ThemeName } from './panel-kit';

const WIDTH = 600;
const THEMES: readonly ThemeName[] = ['light', 'dark', 'high-contrast'];
const RLO = '\u202e';

/** Nothing in the panel is wider than the panel. */
async function pageWidth(page: Page): Promise<{ scroll: number; client: number }> {
  return page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** A fault reply made from a real sandbox exchange: what a hostile or broken service could send. */
function withFault(exchange: Exchange, reason: string): Exchange {
  return {
    ...exchange,
    parsed: undefined,
    fault: { soapVersion: '1.1', code: 'soap:Server', subcodes: [], reason },
    findings: [{ severity: 'error', kind: 'fault', message: `SOAP fault: ${reason}` }],
    judgement: undefined,
  };
}

describe('results panel for a new user, at 600 px in Chromium', function () {
  this.timeout(120_000);
  const context = nodeContext();
  let sb: SandboxHandle;
  let browser: Browser;
  const pages = new Map<ThemeName, Page>();
  let page: Page;

  before(async () => {
    sb = await startSandbox({});
    browser = await launchChromium();
    for (const theme of THEMES) pages.set(theme, await openPanelPage(browser, theme, WIDTH));
    page = pages.get('light')!;
  });
  after(async () => {
    await browser?.close();
    await sb?.close();
    await context.http.close();
  });

  it('transit times: dates never break, Notes has room, rows stay short (item 4)', async () => {
    const exchange = await sendExample(context, sb.url, 'transit-times/get-transit-times.carrier.json');
    for (const theme of THEMES) {
      const p = pages.get(theme)!;
      const report = await render(p, { exchange }, 'summary');
      assert.equal(report.summary.domain, 'transit-times');
      const cells = await p.$$eval('.domain-transit-times tbody tr', (trs) =>
        trs.map((tr) => {
          const time = tr.querySelector('time');
          const notes = tr.querySelector('td.notes') as HTMLElement;
          return {
            // The date's own text (not the "delivers" label a narrow layout puts before it).
            dateLines: (() => {
              if (!time) return 1;
              const range = document.createRange();
              range.selectNodeContents(time.lastChild!);
              return range.getClientRects().length;
            })(),
            dateHeight: time ? time.getBoundingClientRect().height : 0,
            dateWhiteSpace: time ? getComputedStyle(time).whiteSpace : 'nowrap',
            notesWidth: notes.getBoundingClientRect().width,
            notesEmpty: (notes.textContent ?? '').trim() === '',
            rowHeight: tr.getBoundingClientRect().height,
            daysWhiteSpace: getComputedStyle(tr.querySelector('td.days')!).whiteSpace,
          };
        }),
      );
      await p.evaluate(() => window.scrollTo(0, 0));
      await screenshot(p, `new-user-transit-${theme}`, true);
      assert.ok(cells.length > 0);
      const lineHeight = await p.$eval('.domain-transit-times time', (t) => parseFloat(getComputedStyle(t).lineHeight) || 19);
      for (const c of cells) {
        assert.equal(c.dateWhiteSpace, 'nowrap', 'a date is one unit');
        assert.equal(c.daysWhiteSpace, 'nowrap', 'a number is one unit');
        assert.equal(c.dateLines, 1, 'a date is drawn on one line');
        assert.ok(c.dateHeight <= lineHeight * 1.5, `a date is one line high: ${c.dateHeight}`);
        if (!c.notesEmpty) assert.ok(c.notesWidth >= 300, `Notes has room: ${c.notesWidth}px`);
        assert.ok(c.rowHeight <= 140, `a row is ${c.rowHeight}px tall`);
      }
      const { scroll, client } = await pageWidth(p);
      assert.ok(scroll <= client, `the page is ${scroll}px wide in ${client}px`);
      // No cell holds more than it shows (as test/ui/results-panel.test.ts checks in code-server).
      const clipped = await p.$$eval('.domain-transit-times td, .domain-transit-times th', (els) =>
        els
          .filter((e) => e.getClientRects().length > 0 && e.scrollWidth > e.clientWidth + 1)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} holds ${e.scrollWidth}px in ${e.clientWidth}px`),
      );
      assert.deepEqual(clipped, []);
    }
  });

  it('the tab strip stays in sight when the Summary scrolls (item 8)', async () => {
    const exchange = await sendExample(context, sb.url, 'transit-times/get-transit-times.carrier.json');
    await page.setViewportSize({ width: WIDTH, height: 420 });
    await render(page, { exchange }, 'summary');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const top = await page.$eval('[role="tablist"]', (l) => l.getBoundingClientRect());
    assert.ok(await page.evaluate(() => window.scrollY > 100), 'the Summary is long enough to scroll');
    assert.ok(top.top >= 0 && top.bottom <= 200, `the tab strip is at ${top.top}–${top.bottom}px`);
    await screenshot(page, 'new-user-sticky-tabs');
    // And the tab under the strip is still a tab the keyboard reaches.
    await page.focus('#tab-summary');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'tab-tree');
    await page.setViewportSize({ width: WIDTH, height: 900 });
  });

  it('a clean quote shows no count on its Summary tab; a warning does (item 8)', async () => {
    const exchange = await sendExample(context, sb.url, 'rate-quote/get-rate-quote-1.0.3.carrier.json');
    assert.ok(
      exchange.findings.length > 0 && exchange.findings.every((f) => f.severity === 'info'),
      'the sandbox quote carries an info note (the fuel surcharge)',
    );
    await render(page, { exchange }, 'summary');
    assert.equal(await page.$('#tab-summary .badge'), null);
    await render(page, { exchange: { ...exchange, findings: [...exchange.findings, { severity: 'warning', kind: 'reply', message: 'odd' }] } }, 'summary');
    assert.equal(await page.$eval('#tab-summary .badge', (b) => b.textContent), '1');
  });

  it("a PDF's long name: shown whole or cut with the whole name in its tooltip (item 8)", async () => {
    const exchange = await sendExample(context, sb.url, 'bill-of-lading/get-bill-of-lading-pdf.carrier.json');
    assert.equal(exchange.documents.length, 1);
    const name = 'Bill of lading 2026-11-28 for shipment 0123456789 from Harrisburg PA to Sacramento CA.pdf';
    const doc = { ...exchange.documents[0], name };
    await render(page, { exchange: { ...exchange, documents: [doc] } }, 'documents');
    const shown = await page.$eval('.doc-name', (e) => ({
      text: e.textContent,
      cut: e.scrollWidth > e.clientWidth + 1,
      title: e.closest('[title]')?.getAttribute('title') ?? '',
      width: e.getBoundingClientRect().width,
    }));
    assert.equal(shown.text, name);
    if (shown.cut) assert.ok(shown.title.includes(name), `the full name is in the tooltip: ${shown.title}`);
    assert.ok(shown.width >= 200, `the name has room: ${shown.width}px`);
    for (const theme of THEMES) {
      const p = pages.get(theme)!;
      await render(p, { exchange: { ...exchange, documents: [doc] } }, 'documents');
      await shoot(p, `new-user-pdf-name-${theme}`);
    }
  });

  it('a bidi override in a reply is shown as a marker and isolated, not obeyed (item 9a)', async () => {
    const base = await sendExample(context, sb.url, 'bill-of-lading/get-bill-of-lading-pdf.carrier.json');
    const hostile = `Invoice ${RLO}fdp.exe`;
    const exchange = { ...withFault(base, `${RLO}Rejected`), documents: [{ ...base.documents[0], name: hostile }] };
    for (const theme of THEMES) {
      const p = pages.get(theme)!;
      await render(p, { exchange }, 'summary');
      const text = await p.evaluate(() => document.getElementById('app')!.textContent ?? '');
      if (text.includes(RLO))
        console.log(
          await p.evaluate(() => {
            const w = document.createTreeWalker(document.getElementById('app')!, NodeFilter.SHOW_TEXT);
            const out: string[] = [];
            for (let n = w.nextNode(); n; n = w.nextNode()) if (n.textContent!.includes('\u202e')) out.push(n.parentElement!.outerHTML.slice(0, 300));
            return out;
          }),
        );
      assert.ok(!text.includes(RLO), 'no override reaches the page');
      assert.ok(text.includes(`Invoice ⟨U+202E⟩fdp.exe`), 'the document name shows the override as a marker');
      assert.ok(text.includes('⟨U+202E⟩Rejected'), 'the fault reason too');
      const markers = await p.$$eval('.hidden-char', (els) => els.map((e) => ({ text: e.textContent, direction: getComputedStyle(e).direction })));
      assert.ok(markers.length >= 2 && markers.every((m) => m.text === '⟨U+202E⟩' && m.direction === 'ltr'));
      assert.equal(await p.$eval('.fault-reason bdi.outside', (b) => getComputedStyle(b).unicodeBidi), 'isolate');
      assert.ok(
        !(await p.$$eval('[title], [aria-label]', (els) =>
          els.some((e) => (e.getAttribute('title') ?? e.getAttribute('aria-label') ?? '').includes('\u202e')),
        )),
      );
      await shoot(p, `new-user-bidi-${theme}`);
    }
  });

  it('a 50,000-character fault string wraps within the panel and is clamped with "Show all" (item 9b)', async () => {
    const base = await sendExample(context, sb.url, 'rate-quote/get-rate-quote-1.0.3.carrier.json');
    const reason = `E${'x'.repeat(49_999)}`;
    await render(page, { exchange: withFault(base, reason) }, 'summary');
    const { scroll, client } = await pageWidth(page);
    assert.ok(scroll <= client, `the page is ${scroll}px wide in ${client}px`);
    const summaryWidth = await page.$eval('#panel-summary', (p) => p.scrollWidth);
    assert.ok(summaryWidth <= WIDTH, `the Summary is ${summaryWidth}px wide`);
    const shownChars = await page.$eval('.fault-reason .clamped-text', (e) => e.textContent!.length);
    assert.ok(shownChars <= 501, `only the start is drawn: ${shownChars}`);
    const toggle = await page.$('.fault-reason button.show-more');
    assert.ok(toggle);
    await screenshot(page, 'new-user-long-fault');
    assert.equal(await toggle.textContent(), 'Show all 50,000 characters');
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.$eval('.fault-reason .clamped-text', (e) => e.textContent!.length), 50_000);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const after = await pageWidth(page);
    assert.ok(after.scroll <= after.client, `opened, the page is still ${after.scroll}px wide in ${after.client}px`);
  });

  it('the tree search says "1 of 1,000+" when every one of 10,000 shipments matches, and keeps saying it (item 9c)', async () => {
    const base = await sendExample(context, sb.url, 'tracing/trace-shipment.carrier.json');
    const shipments = Array.from({ length: 10_000 }, (_, i) => ({ ProNumber: String(100_000 + i), Status: 'Delivered' }));
    await render(page, { exchange: { ...base, parsed: { Result: { Shipment: shipments } } } }, 'tree');
    await page.fill('#panel-tree input[type="search"]', 'Delivered');
    await page.waitForFunction(() => /of/.test(document.querySelector('.search-status')?.textContent ?? ''));
    assert.equal(await page.textContent('.search-status'), '1 of 1,000+');
    await page.press('#panel-tree input[type="search"]', 'Enter');
    assert.equal(await page.textContent('.search-status'), '2 of 1,000+');
    await page.press('#panel-tree input[type="search"]', 'Shift+Enter');
    await page.press('#panel-tree input[type="search"]', 'Shift+Enter');
    assert.equal(await page.textContent('.search-status'), '1,000 of 1,000+');
    // A search that found them all counts without a plus.
    await page.fill('#panel-tree input[type="search"]', '100007');
    await page.waitForFunction(() => (document.querySelector('.search-status')?.textContent ?? '').endsWith('of 1'));
    assert.equal(await page.textContent('.search-status'), '1 of 1');
  });

  it("a large reply's first message is its header: status and findings, no parsed reply, small (item 9d)", async () => {
    const base = await sendExample(context, sb.url, 'tracing/trace-shipment.carrier.json');
    const body = base.reply!.bodyText;
    const big: Exchange = {
      ...base,
      reply: { ...base.reply!, bodyText: body.repeat(Math.ceil((DEFER_DETAIL_CHARS * 8) / body.length)), size: body.length * 100 },
      parsed: { Result: { Shipment: Array.from({ length: 10_000 }, (_, i) => ({ ProNumber: String(i), Status: 'Delivered' })) } },
    };
    const head = toHeadView(big);
    const first = JSON.stringify({ type: 'show', view: head } satisfies ToWebview);
    assert.ok(first.length < HEAD_BODY_CHARS + 64 * 1024, `the first message is ${first.length} bytes`);
    assert.equal(head.exchange.parsed, undefined);
    assert.equal(head.exchange.reply?.status, 200);
    assert.equal(head.detailPending, true);
    const detail = toDetail(big);
    assert.equal(detail.parsed, big.parsed);
    assert.ok(detail.bodyText!.length <= RAW_BODY_CAP_CHARS);
    // A small reply is one message, as before.
    assert.equal(toHeadView(base).detailPending, undefined);
    assert.ok(toHeadView(base).exchange.parsed !== undefined);

    // The head alone draws the status and says the rest is coming; the whole view then draws the tree.
    const report = await render(page, head);
    assert.equal(report.tab, 'summary');
    assert.match(await page.innerText('header.header'), /200/);
    assert.match(await page.innerText('#panel-summary'), /Reading the parsed reply/);
    await screenshot(page, 'new-user-large-reply-head');
    await page.click('#tab-tree');
    assert.match(await page.innerText('#panel-tree'), /Reading the parsed reply/);
    const whole = await render(page, { ...head, detailPending: false, exchange: { ...head.exchange, parsed: detail.parsed } }, 'tree');
    assert.ok(whole.tree.totalNodes > 10_000);
  });
});
