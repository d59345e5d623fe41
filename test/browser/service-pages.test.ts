/**
 * The sandbox's service pages in a real browser (Chromium), with scripts turned off as a reader
 * without scripts would have them: every service page lists its operations; the HTTP POST form
 * of GetHazmatDescription returns the reply for UN 1203; the SOAP form of GetRateQuote 1.0.3
 * works from this machine; a page rendered for a caller elsewhere has no form and says why; the
 * stylesheet applies under the Content-Security-Policy, light and dark.
 */
import { strict as assert } from 'node:assert';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEFAULT_NAMESPACES, servicePaths, shapesAtPath } from '../../src/core/catalog';
import { servicePage } from '../../src/sandbox/pages/servicePage';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { launchChromium, screenshot } from './browser-kit';

const BOL = '/sandbox/BillOfLadingService.asmx';
const RATE = '/1.0.3/RateQuoteService.asmx';
/** A fixed clock (a Wednesday), so the sample pickup date stays in the future. */
/** Where a link leads from the current page (pages link relatively, for proxies with a path prefix). */
async function linkTarget(page: Page, name: string): Promise<string> {
  const href = await page.getByRole('link', { name, exact: true }).getAttribute('href');
  const u = new URL(href ?? '', page.url());
  return `${u.pathname}${u.search}`;
}

const NOW = () => new Date(Date.UTC(2026, 10, 18, 15, 0, 0));

describe('service pages in Chromium', function () {
  let sb: SandboxHandle;
  let browser: Browser;
  let noScripts: BrowserContext;
  let page: Page;

  before(async () => {
    sb = await startSandbox({ now: NOW });
    browser = await launchChromium();
    noScripts = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    await sb?.close();
  });
  beforeEach(async () => {
    page = await noScripts.newPage();
  });
  afterEach(async () => {
    await page.close();
  });

  it('the service page of every service path lists its operations, each linking to its page', async () => {
    for (const [path, shapes] of servicePaths()) {
      const r = await page.goto(sb.url + path);
      assert.equal(r?.status(), 200, path);
      assert.match(await page.locator('h1').innerText(), new RegExp(`^${shapes[0].service}\\s*version ${shapes[0].version.replace(/\./g, '\\.')}$`));
      const listed = await page.locator('ul.ops a.name').allInnerTexts();
      assert.deepEqual(
        listed,
        shapes.map((s) => s.operation),
        path,
      );
      for (const op of shapes) {
        assert.equal(await page.locator('ul.ops li', { hasText: op.operation }).locator('p').innerText(), op.description);
        assert.equal(await linkTarget(page, op.operation), `${path}?op=${op.operation}`);
      }
      assert.equal(await linkTarget(page, 'service description (WSDL)'), `${path}?WSDL`);
    }
    await page.goto(sb.url + BOL);
    await screenshot(page, 'service-page-bill-of-lading', true);
  });

  it('GetHazmatDescription: from the service page to its form, and the HTTP POST reply for UN 1203', async () => {
    await page.goto(sb.url + BOL);
    await page.getByRole('link', { name: 'GetHazmatDescription', exact: true }).click();
    assert.equal(new URL(page.url()).search, '?op=GetHazmatDescription');
    await page.getByLabel('APIKey').fill('browser-test-key');
    await page.getByLabel('UNNANumber').fill('1203');
    await screenshot(page, 'hazmat-operation-page');
    const [reply] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Invoke' }).click()]);
    assert.ok(reply);
    assert.equal(reply.status(), 200);
    assert.equal(reply.request().method(), 'POST');
    assert.equal(new URL(page.url()).pathname, `${BOL}/GetHazmatDescription`);
    assert.equal(reply.headers()['content-type'], 'text/xml; charset=utf-8');
    const xml = await reply.text();
    assert.match(xml, /^<\?xml version="1\.0" encoding="utf-8"\?>\s*<GetHazmatDescriptionReply xmlns="http:\/\/schemas\.carrier-workbench\.example\/ltl\/"/);
    assert.match(xml, /<Number[^>]*>UN1203<\/Number>/);
    assert.match(xml, /Gasoline/);
    // What the reader sees: Chromium's XML tree of the reply.
    assert.match(await page.locator('body').innerText(), /GetHazmatDescriptionReply[\s\S]*UN1203/);
    await screenshot(page, 'hazmat-http-post-reply');
  });

  it('GetRateQuote 1.0.3: the SOAP form sends from this machine, SOAP 1.1 and then SOAP 1.2', async () => {
    await page.goto(`${sb.url}${RATE}`);
    await page.getByRole('link', { name: 'GetRateQuote', exact: true }).click();
    const envelope = page.locator('textarea#envelope');
    assert.match(await envelope.inputValue(), /<soap:Envelope [^>]*xmlns:soap="http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\/"[\s\S]*<GetRateQuote xmlns=/);
    assert.equal(await page.getByRole('radio', { name: 'SOAP 1.1' }).isChecked(), true);
    await screenshot(page, 'ratequote-soap-form');

    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Invoke' }).click()]);
    assert.equal(new URL(page.url()).hash, '#result');
    assert.equal(await page.locator('#result .status').innerText(), '200 OK');
    const reply11 = await page.locator('pre.reply').innerText();
    assert.match(reply11, /^HTTP\/1\.1 200 OK\nContent-Type: text\/xml; charset=utf-8/);
    assert.match(reply11, /<GetRateQuoteResponse xmlns="http:\/\/schemas\.carrier-workbench\.example\/ltl\/">/);
    assert.match(reply11, /<ServiceCenter|<OriginServiceCenter>/);
    const request11 = await page.locator('pre.request').innerText();
    assert.match(request11, /^POST \/1\.0\.3\/RateQuoteService\.asmx HTTP\/1\.1\n/);
    assert.match(request11, /SOAPAction: "http:\/\/schemas\.carrier-workbench\.example\/ltl\/GetRateQuote"/);
    await screenshot(page, 'ratequote-soap11-reply');

    await page.getByRole('link', { name: 'Start over from the SOAP 1.2 sample' }).click();
    assert.equal(await page.getByRole('radio', { name: 'SOAP 1.2' }).isChecked(), true);
    assert.match(await envelope.inputValue(), /xmlns:soap12="http:\/\/www\.w3\.org\/2003\/05\/soap-envelope"/);
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Invoke' }).click()]);
    assert.equal(await page.locator('#result .status').innerText(), '200 OK');
    assert.match(
      await page.locator('pre.reply').innerText(),
      /^HTTP\/1\.1 200 OK\nContent-Type: application\/soap\+xml; charset=utf-8[\s\S]*<GetRateQuoteResponse/,
    );
    assert.doesNotMatch(await page.locator('pre.request').innerText(), /SOAPAction/);
  });

  it('GetRateQuote 1.0.3 rendered for a caller elsewhere (10.1.2.3): no form, and the page says why', async () => {
    // Every connection a test can open is loopback, so the page is rendered for a remote caller
    // by the same function the router calls, and served to the browser as the sandbox would.
    const reply = servicePage({
      path: RATE,
      shapes: shapesAtPath(RATE),
      namespaces: DEFAULT_NAMESPACES,
      baseUrl: 'http://carrier-sandbox.test',
      query: new URLSearchParams({ op: 'GetRateQuote' }),
      remoteAddress: '10.1.2.3',
    });
    await page.route('http://carrier-sandbox.test/**', (route) =>
      route.fulfill({ status: reply.status, contentType: reply.contentType, headers: { ...reply.headers }, body: String(reply.body) }),
    );
    await page.goto(`http://carrier-sandbox.test${RATE}?op=GetRateQuote`);
    assert.equal(await page.locator('form').count(), 0);
    assert.equal(await page.locator('textarea').count(), 0);
    assert.match(await page.locator('#no-test-form').innerText(), /only available for requests from the local machine[\s\S]*requested from 10\.1\.2\.3/);
    await screenshot(page, 'ratequote-from-elsewhere');
  });

  it('?op=Nope answers a 404 page that lists the operations', async () => {
    const r = await page.goto(`${sb.url}${RATE}?op=Nope`);
    assert.equal(r?.status(), 404);
    assert.equal(await page.locator('h1').innerText(), 'Operation not found');
    assert.equal(await linkTarget(page, 'GetRateQuote'), `${RATE}?op=GetRateQuote`);
    await screenshot(page, 'operation-not-found');
  });

  describe('style under the Content-Security-Policy', () => {
    for (const scheme of ['light', 'dark'] as const) {
      it(`applies the stylesheet with no CSP violation (${scheme})`, async () => {
        // Scripts on here, only so the test can read computed styles; the pages carry none.
        const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1100, height: 900 } });
        try {
          const p = await context.newPage();
          const violations: string[] = [];
          p.on('console', (m) => {
            if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
          });
          await p.goto(`${sb.url}${BOL}?op=GetHazmatDescription`);
          const style = await p.evaluate(() => {
            const html = getComputedStyle(document.documentElement);
            const main = getComputedStyle(document.querySelector('main')!);
            return { background: html.backgroundColor, maxWidth: main.maxWidth, font: getComputedStyle(document.body).fontFamily };
          });
          assert.equal(style.background, scheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(30, 31, 34)');
          assert.equal(style.maxWidth, '992px');
          assert.match(style.font, /system-ui/);
          assert.deepEqual(violations, []);
          await screenshot(p, `hazmat-operation-page-${scheme}`);
          await p.goto(`${sb.url}${RATE}?op=GetRateQuote`);
          await screenshot(p, `ratequote-operation-page-${scheme}`, true);
          assert.deepEqual(violations, []);
        } finally {
          await context.close();
        }
      });
    }
  });
});
