/**
 * Every test form of every service page, as served and not edited, pressed once in Chromium:
 * each call succeeds (HTTP 200, no fault, no WasSuccess=false, no Pickup refusal, no trace
 * error). The forms' dates are the next business day from the sandbox's clock when the page is
 * served, so this holds on any day; the test runs it on the real clock and on a clock that sits
 * on a Friday evening before a holiday weekend.
 */
import { strict as assert } from 'node:assert';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { servicePaths } from '../../src/core/catalog';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { launchChromium } from './browser-kit';

/** What a refusal looks like in a reply body, whatever the operation. */
const REFUSED = [/<WasSuccess[^>]*>false<\/WasSuccess>/, /<(\w+:)?Fault[\s>]/, /<ErrorMessage[\s>]/, /<ErrResponse[\s>]/];

function assertSuccess(label: string, status: number, body: string): void {
  assert.equal(status, 200, `${label}: HTTP ${status}\n${body.slice(0, 600)}`);
  for (const r of REFUSED) assert.doesNotMatch(body, r, `${label}:\n${body.slice(0, 1500)}`);
}

for (const [label, now] of [
  ['the real clock', undefined],
  // Friday 3 July 2026, 9:30 PM Eastern (Independence Day observed): the next business day is Monday the 6th.
  ['a Friday evening before a holiday weekend', () => new Date('2026-07-04T01:30:00Z')],
] as const) {
  describe(`every unedited service-page form succeeds in Chromium (${label})`, function () {
    this.timeout(120_000);
    let sb: SandboxHandle;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;

    before(async () => {
      sb = await startSandbox(now ? { now } : {});
      browser = await launchChromium();
      context = await browser.newContext({ javaScriptEnabled: false });
      page = await context.newPage();
    });
    after(async () => {
      await browser?.close();
      await sb?.close();
    });

    for (const [path, shapes] of servicePaths()) {
      for (const op of shapes) {
        it(`${op.operation} ${op.version} at ${path}`, async () => {
          await page.goto(`${sb.url}${path}?op=${op.operation}`);
          const http = op.bindings.includes('post');
          const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Invoke' }).click()]);
          if (http) {
            assert.ok(response);
            assertSuccess(`${op.operation} (HTTP POST form)`, response.status(), await response.text());
          } else {
            const status = await page.locator('#result .status').innerText();
            assertSuccess(`${op.operation} (SOAP form)`, Number(status.split(' ')[0]), await page.locator('pre.reply').innerText());
            if (op.operation === 'CreatePickupRequest') assert.match(await page.locator('pre.reply').innerText(), /<WasSuccess[^>]*>true<\/WasSuccess>/);
          }
        });
      }
    }
  });
}
