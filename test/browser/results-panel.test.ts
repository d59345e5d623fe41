/**
 * The results panel's frame in Chromium, on sandbox replies: the active tab is unmistakable in
 * Light Modern, Dark Modern and High Contrast and its marker is not clipped; a fault is said once;
 * a sandbox-path operation's header does not read "sandbox" twice; the Parsed tab names a PDF
 * instead of showing its base64; the Timing tab of a connection that never opened says so; and a
 * request file's expectations are shown as judged when sent (their count, each one checked, their
 * failures' lines); and the Contract section lists a reply's contract findings, errors first, each
 * with its reply path, while a reply that breaks its contract reads red.
 */
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { sandboxEnvironment } from '../../src/core/environments';
import { startInspector } from '../../src/inspector';
import { send } from '../../src/core/send';
import { nodeContext } from '../../src/host';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { launchChromium, screenshot } from './browser-kit';
import { startSpoilingService, type SpoilingService } from '../unit/spoiling-service';
import { openPanelPage, posted, render, sendExample, sendJudgedExample, TEST_KEY, viewOf, type ThemeName } from './panel-kit';

interface TabLook {
  color: string;
  shadow: string;
  outline: string;
  bottom: number;
  listBottom: number;
  listScrollHeight: number;
  listClientHeight: number;
}

async function tabLooks(page: Page): Promise<{ active: TabLook; inactive: TabLook }> {
  // No named functions inside: the test runner's compiler would wrap them in a helper the page lacks.
  const [active, inactive] = await page.evaluate(() => {
    const list = document.querySelector('.tablist') as HTMLElement;
    return [document.querySelector('.tab.active')!, document.querySelector('.tab:not(.active)')!].map((el): TabLook => {
      const s = getComputedStyle(el);
      return {
        color: s.color,
        shadow: s.boxShadow,
        outline: `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`,
        bottom: el.getBoundingClientRect().bottom,
        listBottom: list.getBoundingClientRect().bottom,
        listScrollHeight: list.scrollHeight,
        listClientHeight: list.clientHeight,
      };
    });
  });
  return { active, inactive };
}

describe('results panel in Chromium: tabs, faults, headers, documents, timing, expectations', function () {
  this.timeout(120_000);
  const context = nodeContext();
  let sb: SandboxHandle;
  let browser: Browser;

  before(async () => {
    sb = await startSandbox({});
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await sb?.close();
    await context.http.close();
  });

  const MARKERS: Record<ThemeName, string> = { light: 'rgb(0, 95, 184)', dark: 'rgb(0, 120, 212)', 'high-contrast': 'rgb(243, 133, 24)' };
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    it(`the active tab is unmistakable in ${theme}, and its marker is not clipped`, async () => {
      const page = await openPanelPage(browser, theme);
      try {
        await render(page, { exchange: await sendExample(context, sb.url, 'rate-quote/get-rate-quote-1.0.3.carrier.json') }, 'summary');
        const { active, inactive } = await tabLooks(page);
        // A 2 px marker drawn inside the tab's own box, in the theme's accent.
        assert.match(active.shadow, new RegExp(`^${MARKERS[theme].replace(/[()]/g, '\\$&')} 0px -2px 0px 0px inset$`));
        assert.equal(inactive.shadow, 'none');
        assert.ok(active.bottom <= active.listBottom, 'the tab ends inside the strip');
        assert.ok(active.listScrollHeight <= active.listClientHeight, 'nothing of the strip is scrolled out of view');
        if (theme === 'high-contrast') assert.equal(active.outline, `solid 1px ${MARKERS[theme]}`, 'High Contrast outlines the selected tab');
        else assert.notEqual(active.color, inactive.color, 'active and inactive tab text differ');
        await screenshot(page, `tabs-${theme}`);
      } finally {
        await page.close();
      }
    });
  }

  it('a SOAP fault is spelled out once, not again under Findings', async () => {
    const page = await openPanelPage(browser);
    const exchange = await sendExample(context, sb.url, 'collections/error-cases/unknown-bol-id.carrier.json');
    assert.ok(exchange.fault && exchange.findings.some((f) => f.kind === 'fault'), 'core reports the fault as a finding too');
    await render(page, { exchange });
    assert.equal(await page.locator('#panel-summary .callout-error').count(), 1);
    assert.equal(await page.locator('#panel-summary .finding-kind', { hasText: 'fault' }).count(), 0);
    assert.equal((await page.locator('#panel-summary').innerText()).split(exchange.fault.reason).length - 1, 1, 'the reason appears once');
    await page.close();
  });

  it('the header of a sandbox-path operation names the environment once, and the PDF is named in the Parsed tab, not shown as base64', async () => {
    const page = await openPanelPage(browser);
    const bol = await sendExample(context, sb.url, 'bill-of-lading/create-bill-of-lading.carrier.json');
    const pdf = await send({
      context,
      request: { operation: 'GetBillOfLadingPdf', params: { billOfLadingId: (bol.parsed as { BolID: number }).BolID } },
      environment: { ...sandboxEnvironment(), baseUrl: sb.url, embedded: false },
      apiKey: TEST_KEY,
    });
    assert.equal(pdf.version, 'sandbox');
    const [doc] = pdf.documents;
    assert.ok(doc && doc.pages && doc.pages >= 1);
    await render(page, { exchange: pdf }, 'tree');
    assert.equal(await page.textContent('header h1'), 'GetBillOfLadingPdf');
    const header = await page.innerText('header');
    assert.equal(header.split('sandbox').length - 1, 1, `"sandbox" once in: ${header}`);

    const row = page.locator('#panel-tree .row-line', { hasText: doc.path }).first();
    const text = await row.innerText();
    assert.match(text, new RegExp(`PDF, ${doc.pages} pages?, [\\d.]+ KB \\(base64\\)`));
    assert.ok(!text.includes('JVBER'), 'no base64 in the row');
    await screenshot(page, 'parsed-pdf-field');
    await row.getByRole('button', { name: 'Show in Documents' }).click();
    assert.equal(await page.getAttribute('#tab-documents', 'aria-selected'), 'true');
    await page.close();
  });

  it('the Timing tab of a connection that never opened says so', async () => {
    const page = await openPanelPage(browser);
    // A port nothing listens on: the connection is refused before any phase.
    const exchange = await send({
      context,
      request: { operation: 'GetTerminalInformation', params: { ZipCode: '68507', CountryCode: 'USA' } },
      environment: { ...sandboxEnvironment(), name: 'gone', baseUrl: 'http://127.0.0.1:9', embedded: false },
      apiKey: TEST_KEY,
    });
    assert.equal(exchange.error?.kind, 'connect');
    await render(page, { exchange }, 'timing');
    const note = await page.innerText('#panel-timing .timing-note');
    assert.match(note, /^The connection never opened \(connect\): the [\d.]+ ms went into trying\. Connection refused/);
    assert.ok(!/reused/.test(await page.innerText('#panel-timing')), 'not "reused"');
    await screenshot(page, 'timing-never-opened');
    await page.close();
  });

  it('the Timing tab of a relayed exchange shows its upload, and a connection opened meanwhile as within it', async () => {
    const inspector = await startInspector({ target: sb.url, namespaces: DEFAULT_NAMESPACES });
    try {
      const sent = await send({
        context,
        request: { operation: 'GetTerminalInformation', params: { ZipCode: '68507', CountryCode: 'USA' } },
        environment: { ...sandboxEnvironment(), name: 'through', baseUrl: inspector.url, embedded: false },
        apiKey: TEST_KEY,
      });
      assert.equal(sent.reply?.status, 200);
      await inspector.flush();
      const exchange = inspector.exchanges()[0]!.exchange;
      assert.ok(exchange.timing?.uploadMs !== undefined, JSON.stringify(exchange.timing));
      const page = await openPanelPage(browser);
      await render(page, { exchange }, 'timing');
      const rows = (await page.locator('#panel-timing table.timing th').allInnerTexts()).map((t) => t.trim());
      assert.ok(rows.includes('Upload'), rows.join(' | '));
      if (exchange.timing.connectMs !== undefined) assert.ok(rows.includes('Connect (within the upload)'), rows.join(' | '));
      const drawn = await page.locator('#panel-timing .timing-bar .seg-phase').evaluateAll((els) => els.map((e) => e.className));
      assert.ok(!drawn.some((c) => c.includes('phase-connect')), `the bar draws phases that add up: ${drawn.join(', ')}`);
      await screenshot(page, 'timing-relayed');
      await page.close();
    } finally {
      await inspector.close();
    }
  });

  it('a relayed exchange shows its interim reply and trailers, and a reply the inspector made itself says so', async () => {
    // A service that answers 102 Processing first and sends its chunked reply with a trailer.
    const reply = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetTerminalInformationResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetTerminalInformationResult/></GetTerminalInformationResponse></soap:Body></soap:Envelope>`;
    const service = net.createServer((socket) => {
      let seen = '';
      socket.on('data', (d: Buffer) => {
        seen += d.toString('latin1');
        const head = seen.indexOf('\r\n\r\n');
        const length = Number(/content-length:\s*(\d+)/i.exec(seen)?.[1] ?? 0);
        if (head < 0 || seen.length < head + 4 + length) return;
        socket.write('HTTP/1.1 102 Processing\r\n\r\n');
        socket.end(
          `HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\nConnection: close\r\n\r\n${Buffer.byteLength(reply).toString(16)}\r\n${reply}\r\n0\r\nX-Checksum: 5d41402a\r\n\r\n`,
        );
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const request = { operation: 'GetTerminalInformation', params: { ZipCode: '68507', CountryCode: 'USA' } };
    const through = async (target: string) => {
      const inspector = await startInspector({ target, namespaces: DEFAULT_NAMESPACES });
      try {
        await send({ context, request, environment: { ...sandboxEnvironment(), name: 'through', baseUrl: inspector.url, embedded: false }, apiKey: TEST_KEY });
        await inspector.flush();
        return inspector.exchanges()[0]!.exchange;
      } finally {
        await inspector.close();
      }
    };
    try {
      const relayed = await through(`http://127.0.0.1:${(service.address() as net.AddressInfo).port}`);
      assert.equal(relayed.wire?.interim?.[0]?.status, 102, JSON.stringify(relayed.wire));
      const page = await openPanelPage(browser);
      await render(page, { exchange: relayed }, 'reply');
      const shown = await page.innerText('#panel-reply');
      assert.match(shown, /Interim reply\s+102\s+Processing/i);
      assert.match(shown, /Trailers\s+(Reply trailers\s+)?X-Checksum\s+5d41402a/i);
      assert.ok(!shown.includes("the traffic inspector's own"), 'the target answered this one');

      const down = await through('http://127.0.0.1:9');
      assert.deepEqual(down.wire?.answered, { status: 502, statusText: 'Bad Gateway' });
      await render(page, { exchange: down }, 'reply');
      assert.match(await page.innerText('#panel-reply'), /The target sent no reply: the traffic inspector answered the client itself with 502 Bad Gateway/);
      assert.match(await page.innerText('header.header'), /reply made by the inspector/);
      await screenshot(page, 'reply-made-by-inspector');
      await page.close();
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });

  it("shows the request file's expectations as judged when sent: the count in the Summary and the header, each one checked, failures linked to their lines", async () => {
    const page = await openPanelPage(browser);
    const exchange = await sendJudgedExample(context, sb.url, 'collections/error-cases/unknown-bol-id.carrier.json');
    assert.equal(exchange.judgement?.expectations?.total, 3, 'judged once, in core');
    const report = await render(page, viewOf(exchange));
    assert.equal(report.tab, 'summary');
    assert.equal(report.summary.expectations, '3/3 expectations held');
    assert.equal(await page.textContent('#panel-summary .expectations-line'), '3/3 expectations held');
    assert.match(await page.innerText('header'), /3\/3 expectations held/);
    assert.match(await page.innerText('#panel-summary .expectations'), /collections\/error-cases\/unknown-bol-id\.carrier\.json/);
    // Each expectation the file states, as written, held, with its line.
    assert.deepEqual(report.summary.checked, [
      '✓ status 500 (line 8)',
      '✓ fault code ~ Client, reason ~ No bill of lading with billOfLadingId 99999999 (line 9)',
      '✓ PdfDocument absent (line 10)',
    ]);
    assert.equal(await page.locator('#panel-summary .expectation-check.held').count(), 3);
    assert.equal(await page.getByRole('list', { name: 'Expectations checked' }).getByRole('img', { name: 'held' }).count(), 3);
    // The fault is what the file expects: no red alarm for it, and a fault's reply has no contract to hold.
    assert.ok(await page.$('header .pill-neutral'));
    assert.ok(await page.$('#panel-summary .callout-expected'));
    assert.equal(report.summary.contract, undefined);
    await screenshot(page, 'expectations-held');

    const failing = await sendJudgedExample(context, sb.url, 'collections/error-cases/unknown-bol-id.carrier.json', (t) =>
      t.replace('No bill of lading with billOfLadingId 99999999', 'nope'),
    );
    const failed = await render(page, viewOf(failing));
    assert.equal(await page.textContent('#panel-summary .expectations-line'), '2/3 expectations held');
    assert.equal(failed.summary.checked?.[1], '✗ fault code ~ Client, reason ~ nope (line 9)');
    assert.equal(await page.locator('#panel-summary .expectation-check.failed').count(), 1);
    assert.ok(await page.$('header .pill-error.pill-expect'));
    await page.locator('.expectation-failures').getByRole('button', { name: 'line 9' }).click();
    const reasonAt = failing.judgement!.expectations!.failures[0];
    assert.equal(reasonAt.line, 9);
    assert.deepEqual(
      (await posted(page)).filter((m) => m.type === 'openSource').map((m) => m.type === 'openSource' && [m.line, m.column]),
      [[9, reasonAt.column]],
    );
    await screenshot(page, 'expectations-failed');
    await page.close();
  });

  describe('the Contract section', () => {
    let spoiling: SpoilingService;
    before(async () => {
      spoiling = await startSpoilingService();
    });
    after(async () => {
      assert.deepEqual(spoiling?.errors ?? [], [], 'every reply was spoilt as asked');
      await spoiling?.close();
    });

    const TERMINAL = 'terminals/get-terminal-information.carrier.json';
    /** The example with an expect of its own: two expectations, both of which the reply meets. */
    const withExpect = (t: string) =>
      t.replace(/\n}\s*$/, ',\n  "expect": { "status": 200, "reply": { "Result[0].TerminalDetails.TerminalCode": { "exists": true } } }\n}\n');

    it('a clean reply matches its contract', async () => {
      const page = await openPanelPage(browser);
      const report = await render(page, viewOf(await sendJudgedExample(context, spoiling.urlFor('clean'), TERMINAL, withExpect)), 'summary');
      assert.equal(report.summary.contract, 'The reply matches its contract.');
      assert.equal(report.summary.expectations, '2/2 expectations held');
      const region = page.getByRole('region', { name: 'Contract: The reply matches its contract.' });
      assert.equal(await region.count(), 1);
      assert.match(await region.innerText(), /The reply matches its contract\./);
      assert.ok(await page.$('header .pill-ok'));
      await screenshot(page, 'contract-holds', true);
      await page.close();
    });

    for (const theme of ['light', 'dark'] as const) {
      it(`a reply that breaks its contract reads red, and its error is listed with its reply path, code and message (${theme})`, async () => {
        const page = await openPanelPage(browser, theme);
        const exchange = await sendJudgedExample(context, spoiling.urlFor('intNotInt'), TERMINAL, withExpect);
        assert.equal(exchange.judgement?.verdict.kind, 'contract-error');
        const report = await render(page, viewOf(exchange));
        assert.equal(report.tab, 'summary');
        assert.equal(report.summary.contract, '1 error');
        // The verdict pill is red, whatever the file's expect says.
        const pill = page.locator('header .pill').first();
        assert.match(await pill.innerText(), /breaks the contract/);
        assert.match((await pill.getAttribute('class')) ?? '', /pill-error/);
        const color = await pill.evaluate((el) => getComputedStyle(el).color);
        assert.equal(color, 'rgb(248, 81, 73)', "the theme's error colour");

        const region = page.getByRole('region', { name: 'Contract: 1 error' });
        const item = region.locator('li.contract-finding');
        assert.equal(await item.count(), 1);
        assert.equal(await item.getAttribute('data-code'), 'not-of-type');
        assert.equal(await item.locator('code.contract-path').innerText(), 'Result[0].TerminalDetails.TerminalDetailID');
        assert.equal(
          await item.locator('code.contract-path').evaluate((el) => getComputedStyle(el).fontFamily),
          await page.evaluate(() => getComputedStyle(document.body).getPropertyValue('--vscode-editor-font-family').trim()),
          'the path is monospace',
        );
        assert.equal(await item.locator('.contract-code').innerText(), 'value not of its type');
        assert.match(await item.locator('.finding-message').innerText(), /"abc" is not an int/);
        // Said once: not again under Findings.
        assert.equal(await page.locator('#panel-summary ul.findings:not(.contract-findings)').count(), 0);
        // The expectations held, but the contract error fails the file all the same.
        assert.equal(report.summary.expectations, '2/2 expectations held, but the reply fails what every request expects');
        assert.ok(await page.$('header .pill-error.pill-expect'));

        // Keyboard: Tab reaches the section, then its path, which opens the node in the parsed tree.
        await region.focus();
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => document.activeElement?.textContent);
        assert.equal(focused, 'Result[0].TerminalDetails.TerminalDetailID');
        await screenshot(page, `contract-error-${theme}`);
        await page.keyboard.press('Enter');
        assert.equal(await page.getAttribute('#tab-tree', 'aria-selected'), 'true');
        await page.close();
      });
    }

    it('lists errors first, then warnings, with a count of each; an envelope-level finding is named "$"', async () => {
      const page = await openPanelPage(browser);
      const warned = await sendJudgedExample(context, spoiling.urlFor('unknownElement'), TERMINAL);
      assert.equal(warned.judgement?.verdict.kind, 'success', 'a warning does not change the verdict');
      let report = await render(page, viewOf(warned), 'summary');
      assert.equal(report.summary.contract, '1 warning');
      assert.ok(await page.$('header .pill-ok'));
      assert.equal(await page.locator('.contract-finding.sev-warning .contract-code').innerText(), 'element not in the contract');

      // Two replies' findings on one exchange, the warning first as read: the section puts the error first.
      const namespaced = await sendJudgedExample(context, spoiling.urlFor('foreignNamespaceResult'), TERMINAL);
      const both = { ...namespaced, findings: [...warned.findings, ...namespaced.findings] };
      report = await render(page, viewOf(both), 'summary');
      assert.equal(report.summary.contract, '1 error, 1 warning');
      assert.deepEqual(
        await page
          .locator('.contract-finding')
          .evaluateAll((els) => els.map((e) => [e.className.includes('sev-error') ? 'error' : 'warning', e.querySelector('code')!.textContent])),
        [
          ['error', '$'],
          ['warning', 'Result[0].TerminalDetails.TerminalRegion'],
        ],
      );
      assert.match(await page.locator('.contract-finding.sev-error .contract-code').innerText(), /wrong namespace/);
      await screenshot(page, 'contract-errors-and-warnings', true);
      await page.close();
    });
  });
});
