/**
 * report.html opened from disk in Chromium, as a person opens a CI artifact: no console error and
 * no request beyond the file itself (its policy allows its own style and script only), the
 * summary, the filter by a test's name and by status, a failure's expected, actual and location
 * open, and an exchange pretty-printed on demand with the key masked. With scripts off, every
 * test is still listed.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Exchange } from '../../src/core/exchange';
import { Redactor } from '../../src/core/redact';
import { executePlan, loadRun, type SendCall } from '../../src/core/runner';
import { relativeTo } from '../../src/core/runner/reporters/format';
import { htmlReport } from '../../src/core/runner/reporters/html';
import { nodeContext } from '../../src/host';
import { launchChromium, screenshot } from './browser-kit';

const KEY = 'Zk4pQ9wLm2Xv7Rt5Ns8Bc3Hd6Jf1Ga0Ye';

function exchange(call: SendCall, weight: number): Exchange {
  const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetBillOfLadingPdf><APIKey>••••</APIKey><billOfLadingId>${String(call.request.params.billOfLadingId)}</billOfLadingId></GetBillOfLadingPdf></soap:Body></soap:Envelope>`;
  return {
    id: 'x',
    startedAt: new Date().toISOString(),
    endpoint: 'http://127.0.0.1:9/sandbox/BillOfLadingService.asmx',
    request: { method: 'POST', url: 'http://127.0.0.1:9/sandbox/BillOfLadingService.asmx', headers: [['Content-Type', 'text/xml; charset=utf-8']], body },
    // A careless service echoing the key: the report must not show it.
    reply: {
      status: 200,
      statusText: 'OK',
      headers: [['Content-Type', 'text/xml']],
      bodyText: `<Reply><Echo>${KEY}</Echo><Weight>${weight}</Weight></Reply>`,
      size: 10,
    },
    timing: { totalMs: 4 },
    findings: [],
    documents: [],
    parsed: { BillOfLading: { Items: [{ Weight: weight }] }, BolID: 5 },
  };
}

describe('report.html in Chromium', function () {
  const context = nodeContext();
  let browser: Browser;
  let tmp: string;
  let file: string;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-html-'));
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      fs.writeFileSync(path.join(tmp, rel), text);
    };
    write('lanes/collection.json', JSON.stringify({ name: 'Lanes', data: 'lanes.csv' }));
    write('lanes/lanes.csv', 'name,bol,weight\n"Tampa, FL",101,1500\nAtlanta,102,800\nChicago,103,2200\n');
    // A CreateBillOfLading file: its reply has the BillOfLading echo and BolID (reply paths are held against the catalog).
    write(
      'lanes/quote.carrier.json',
      '{\n  "operation": "CreateBillOfLading",\n  "version": "1.0.1",\n  "params": { "billOfLadingId": "{{bol}}" },\n  "expect": {\n    "reply": { "BillOfLading.Items[0].Weight": { "equals": "{{weight}}" } }\n  },\n  "capture": { "bolId": "BolID" }\n}\n',
    );
    write('lanes/then.carrier.json', '{ "operation": "GetBillOfLadingPdf", "version": "sandbox", "params": { "billOfLadingId": "{{bolId}}" } }\n');
    const plan = loadRun(context, ['lanes'], { baseDir: tmp });
    assert.deepEqual(plan.problems, []);
    const backend = {
      environment: () => ({ name: 'staging', variables: {}, secretValues: [KEY] }),
      // Atlanta's reply weighs wrong: its quote fails and its `then` is skipped.
      async send(call: SendCall) {
        return exchange(call, String(call.request.params.billOfLadingId) === '102' ? 799 : Number(call.test.row?.texts.weight ?? 0));
      },
    };
    const report = await executePlan(plan, { backend, transcripts: true });
    const masker = new Redactor([KEY], { derived: true });
    file = path.join(tmp, 'report.html');
    fs.writeFileSync(file, htmlReport(report, relativeTo(tmp), { mask: (t) => masker.text(t) }));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await context.http.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function open(javaScriptEnabled = true): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (r.url() !== `file://${file}`) problems.push(`request: ${r.url()}`);
    });
    await page.goto(`file://${file}`);
    return { page, problems };
  }

  it('opens offline with no console error and no request, and shows the summary', async () => {
    const { page, problems } = await open();
    assert.equal(await page.locator('.tiles .total b').innerText(), '6');
    assert.equal(await page.locator('.tiles .passed b').innerText(), '4');
    assert.equal(await page.locator('.tiles .failed b').innerText(), '1');
    assert.equal(await page.locator('.tiles .skipped b').innerText(), '1');
    assert.equal(await page.locator('#shown').innerText(), 'showing 6 of 6', 'the script ran under the policy');
    await screenshot(page, 'html-report');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('is searched by a test name and filtered by status', async () => {
    const { page, problems } = await open();
    await page.getByRole('searchbox', { name: 'Filter tests' }).fill('quote.carrier.json [soap11] [row 3: Chicago]');
    assert.deepEqual(await page.locator('li.test:visible .name').allInnerTexts(), ['quote.carrier.json [soap11] [row 3: Chicago]']);
    assert.equal(await page.locator('#shown').innerText(), 'showing 1 of 6');
    await page.getByRole('searchbox', { name: 'Filter tests' }).fill('tampa');
    assert.deepEqual(await page.locator('li.test:visible .name').allInnerTexts(), [
      'quote.carrier.json [soap11] [row 1: Tampa, FL]',
      'then.carrier.json [soap11] [row 1: Tampa, FL]',
    ]);
    await page.getByRole('searchbox', { name: 'Filter tests' }).fill('');
    await page.getByRole('checkbox', { name: 'passed' }).uncheck();
    assert.deepEqual(await page.locator('li.test:visible .name').allInnerTexts(), [
      'quote.carrier.json [soap11] [row 2: Atlanta]',
      'then.carrier.json [soap11] [row 2: Atlanta]',
    ]);
    await page.getByRole('checkbox', { name: 'skipped' }).uncheck();
    await page.getByRole('checkbox', { name: 'failed' }).uncheck();
    assert.equal(await page.locator('section.collection:visible').count(), 0, 'a collection with nothing to show hides');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('shows a failure open, with expected, actual and where it is written; the exchange on demand, pretty and masked', async () => {
    const { page, problems } = await open();
    const failed = page.locator('li.test.failed');
    assert.match(await failed.locator('.message').innerText(), /Weight: expected "800", got 799/);
    assert.equal(await failed.locator('.where').innerText(), 'lanes/quote.carrier.json:6:50');
    assert.match(await failed.locator('.pair').innerText(), /expected\s+equals "800"\s+actual\s+799/);
    assert.match(
      (await page.locator('li.test.skipped .skip').textContent()) ?? '',
      /skipped: needs \{\{bolId\}\} from quote\.carrier\.json \[soap11\] \[row 2: Atlanta\], which failed/,
    );
    const exchange = failed.locator('.exchange');
    assert.equal(await exchange.isVisible(), false);
    await failed.getByRole('button', { name: 'Show exchange' }).click();
    assert.equal(await exchange.isVisible(), true);
    const text = await exchange.innerText();
    assert.match(text, /POST http:\/\/127\.0\.0\.1:9\/sandbox\/BillOfLadingService\.asmx/);
    assert.match(text, /\n {4}<GetBillOfLadingPdf>\n {6}<APIKey>••••<\/APIKey>/, 'pretty-printed');
    assert.match(text, /<Echo>••••<\/Echo>/);
    assert.ok(!text.includes(KEY));
    await screenshot(page, 'html-report-failure');
    await failed.getByRole('button', { name: 'Hide exchange' }).click();
    assert.equal(await exchange.isVisible(), false);
    assert.ok(!fs.readFileSync(file, 'utf8').includes(KEY), 'no key anywhere in the file');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('lists every test with scripts off', async () => {
    const { page, problems } = await open(false);
    assert.equal(await page.locator('li.test').count(), 6);
    assert.equal(await page.locator('li.test:visible').count(), 6);
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
