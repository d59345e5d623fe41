/**
 * The Summary's operation views (src/webview/views/domain/) in Chromium, each on a real reply of
 * the embedded sandbox: a rate quote of every version as service levels side by side and charges
 * that add up, a trace as cards with timelines (and a shipment's error), transit times as a table,
 * terminals as cards, and the numbers of a new bill of lading or pickup with copy and follow-up
 * actions. Each view's controls are reachable by keyboard and named for screen readers.
 * Screenshots go to test-results/browser/.
 */
import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import type { Exchange } from '../../src/core/exchange';
import { nodeContext } from '../../src/host';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { launchChromium, screenshot } from './browser-kit';
import { openPanelPage, posted, render, sendExample } from './panel-kit';

type Rec = Record<string, unknown>;
const rec = (v: unknown) => v as Rec;

/** Whole cents of `$1,050.69` / `-$404.94`, computed here independently of the view. */
function cents(text: unknown): number {
  const m = /^(-)?\$([\d,]+)\.(\d\d)$/.exec(String(text));
  assert.ok(m, `money: ${String(text)}`);
  return (m[1] ? -1 : 1) * (Number(m[2].replace(/,/g, '')) * 100 + Number(m[3]));
}
const dollars = (c: number) => `${c < 0 ? '−' : ''}$${Math.floor(Math.abs(c) / 100).toLocaleString('en-US')}.${String(Math.abs(c) % 100).padStart(2, '0')}`;

/** Every control in `selector` can be reached with Tab and has a name a screen reader reads. */
async function keyboardAndNames(page: Page, selector: string): Promise<number> {
  const controls = await page.$$eval(`${selector} button, ${selector} a[href], ${selector} [tabindex]`, (els) =>
    els.map((e) => ({
      tabIndex: (e as HTMLElement).tabIndex,
      disabled: (e as HTMLButtonElement).disabled === true,
      hidden: (e as HTMLElement).offsetParent === null,
      name: (e.getAttribute('aria-label') ?? e.textContent ?? '').trim(),
    })),
  );
  for (const c of controls) {
    assert.ok(c.tabIndex >= 0 && !c.disabled && !c.hidden, `reachable: ${JSON.stringify(c)}`);
    assert.ok(c.name.length > 0, `named: ${JSON.stringify(c)}`);
  }
  // And by the keyboard itself: Tab from the page's start lands on the view's first control.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate((sel) => !!document.activeElement?.closest(sel), selector);
  }
  assert.ok(reached, `Tab reaches a control of ${selector}`);
  return controls.length;
}

/** The whole Summary, from the top (the header is sticky: a page scrolled by Tab would show it mid-page). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name, true);
}

/** Nothing in the panel is wider than the panel: no horizontal scroll, nothing cut at the edge. */
async function fitsWidth(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll <= client, `the page is ${scroll}px wide in ${client}px`);
}

describe('Summary views of the operations, in Chromium on sandbox replies', function () {
  this.timeout(120_000);
  const context = nodeContext();
  let sb: SandboxHandle;
  let browser: Browser;
  let page: Page;

  before(async () => {
    sb = await startSandbox({});
    browser = await launchChromium();
    page = await openPanelPage(browser, 'light');
  });
  after(async () => {
    await browser?.close();
    await sb?.close();
    await context.http.close();
  });

  const show = (exchange: Exchange) => render(page, { exchange }, 'summary');

  for (const [version, file] of [
    ['1.0.0', 'rate-quote/get-rate-quote-1.0.0.carrier.json'],
    ['1.0.1', 'rate-quote/get-rate-quote-1.0.1.soap12.carrier.json'],
    ['1.0.3', 'rate-quote/get-rate-quote-1.0.3.carrier.json'],
  ] as const) {
    it(`GetRateQuote ${version}: service levels side by side with a bar each, and charges that add up to the net charge`, async () => {
      const exchange = await sendExample(context, sb.url, file);
      const result = rec(rec(exchange.parsed).Result);
      const levels = result.ServiceLevels as Rec[];
      const charges = (result.Charges ?? result.ChargeTypes) as Rec[];
      assert.ok(levels.length >= 2 && charges.length >= 3, 'the sandbox quotes several levels and charges');
      const report = await show(exchange);
      assert.equal(report.summary.domain, 'rate-quote');

      const cards = await page.$$eval('.domain-rate-quote .level', (els) =>
        els.map((e) => ({
          label: e.getAttribute('aria-label') ?? '',
          net: e.querySelector('.level-net')?.textContent ?? '',
          bar: (e.querySelector('.bar-fill') as HTMLElement | null)?.getBoundingClientRect().width ?? 0,
          track: (e.querySelector('.bar') as HTMLElement | null)?.getBoundingClientRect().width ?? 0,
          top: e.getBoundingClientRect().top,
        })),
      );
      assert.equal(cards.length, levels.length);
      const nets = levels.map((l) => cents(l.NetCharge));
      const max = Math.max(...nets);
      cards.forEach((card, i) => {
        assert.equal(card.net, dollars(nets[i]), `level ${i} net charge`);
        assert.match(card.label, new RegExp(`^${String(levels[i].Title)} \\(${String(levels[i].Code)}\\), net charge `));
        assert.match(card.label, new RegExp(`${levels[i].ServiceDays ?? result.ServiceDays} days?`));
        // Bars are proportional to the net charge: the dearest fills its track.
        assert.ok(Math.abs(card.bar / card.track - nets[i] / max) < 0.03, `bar ${i}: ${card.bar}/${card.track} for ${nets[i]}/${max}`);
      });
      assert.ok(cards.length < 2 || cards[0].top === cards[1].top, 'the levels sit side by side');
      const windowed = levels.findIndex((l) => rec(l.HourlyWindow)?.Start);
      if (windowed >= 0)
        assert.match(
          cards[windowed].label,
          new RegExp(`guaranteed window ${String(rec(levels[windowed].HourlyWindow).Start)} to ${String(rec(levels[windowed].HourlyWindow).End)}`),
        );

      // The table lists every charge line, and the view's sum is the net charge.
      const rows = await page.$$eval('.domain-rate-quote table.charges tbody tr, .domain-rate-quote table.charges tfoot tr', (trs) =>
        trs.map((tr) => Array.from(tr.children).map((c) => c.textContent ?? '')),
      );
      assert.equal(rows.length, charges.length);
      const net = charges.find((c) => c.Type === 'NET')!;
      assert.deepEqual(rows[rows.length - 1], ['Net Charge', '', '', String(net.Amount)]);
      const gross = cents(charges.find((c) => c.Type === 'GROSS')!.Amount);
      const adders = charges.filter((c) => c.Type && !['GROSS', 'DISCNF', 'NET'].includes(String(c.Type))).reduce((s, c) => s + cents(c.Amount), 0);
      assert.equal(gross + adders, cents(net.Amount), "the sandbox's own charges add up");
      assert.equal(await page.textContent('.domain-rate-quote .sum-check'), ` The lines add up to the net charge, ${dollars(cents(net.Amount))}.`);

      // One click copies a quote number.
      await page.click('.domain-rate-quote .level .copy');
      const copied = (await posted(page)).find((m) => m.type === 'copy');
      assert.deepEqual(copied && { text: copied.text }, { text: String(levels[0].QuoteNumber) });
      assert.ok((await keyboardAndNames(page, '.domain-rate-quote')) >= levels.length + 1);
      await fitsWidth(page);
      await shoot(page, `domain-rate-quote-${version}`);
    });
  }

  it('GetRateQuote: the charges check says so when the lines do not add up', async () => {
    const exchange = await sendExample(context, sb.url, 'rate-quote/get-rate-quote-1.0.3.carrier.json');
    const result = rec(rec(exchange.parsed).Result);
    const charges = (result.Charges as Rec[]).map((c) => (c.Type === 'FUEL' ? { ...c, Amount: '$1.00' } : c));
    await show({ ...exchange, parsed: { ...rec(exchange.parsed), Result: { ...result, Charges: charges } } });
    assert.match(
      (await page.textContent('.domain-rate-quote .sum-check.bad')) ?? '',
      /The lines add up to \$[\d,.]+, but the net charge is \$[\d,.]+ \(\$[\d,.]+ apart\)\./,
    );
  });

  it('TraceShipment: a card per shipment with its status history as a timeline', async () => {
    const exchange = await sendExample(context, sb.url, 'tracing/trace-shipment.carrier.json');
    const shipment = rec((rec(exchange.parsed).Result as Rec[])[0]);
    const events = rec(shipment.StatusHistory).StatusEvent as Rec[];
    assert.ok(events.length >= 3);
    const report = await show(exchange);
    assert.equal(report.summary.domain, 'trace');
    assert.equal(await page.textContent('.domain-trace .card h3'), `PRO ${String(shipment.ShipmentNumber)}`);
    const items = await page.$$eval('.domain-trace ol.timeline > li', (lis) =>
      lis.map((li) => ({
        date: li.querySelector('.event-date')?.textContent ?? '',
        code: li.querySelector('.chip')?.textContent ?? '',
        what: li.querySelector('.event-what')?.textContent ?? '',
        where: li.querySelector('.event-where')?.textContent?.trim() ?? '',
      })),
    );
    assert.equal(items.length, events.length);
    items.forEach((item, i) => {
      assert.equal(item.date, events[i].Date);
      assert.equal(item.code, events[i].Code);
      assert.equal(item.what, events[i].Description);
      assert.ok(item.where.startsWith(`${String(events[i].City)}, ${String(events[i].State)}`), item.where);
    });
    assert.equal(await page.getAttribute('.domain-trace ol.timeline', 'aria-label'), `Status history of PRO ${String(shipment.ShipmentNumber)}, oldest first`);
    assert.ok(await page.$('.domain-trace ol.timeline > li.latest:last-child'));
    await keyboardAndNames(page, '.domain-trace');
    await fitsWidth(page);
    await shoot(page, 'domain-trace');
  });

  it('TraceShipment: several PROs, one of them unknown, each on its own card with its error', async () => {
    const exchange = await sendExample(context, sb.url, 'collections/tracing/3-trace-two-pros-ivr.carrier.json', {
      samplePro: '056391174',
      testPro: '999999999',
    });
    const shipments = rec(exchange.parsed).Result as Rec[];
    await show(exchange);
    const cards = await page.$$eval('.domain-trace .card', (els) =>
      els.map((e) => ({ title: e.querySelector('h3')?.textContent, error: e.querySelector('.callout-error')?.textContent ?? null })),
    );
    assert.equal(cards.length, shipments.length);
    const unknown = shipments.findIndex((s) => s.ErrorMessage);
    assert.ok(unknown >= 0, 'the sandbox does not know 999999999');
    assert.match(cards[unknown].error ?? '', new RegExp(String(shipments[unknown].ErrorMessage).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.equal(cards.filter((c) => c.error).length, 1);
    await shoot(page, 'domain-trace-error');
  });

  it('GetTransitTimes: a table of destinations with service days and delivery dates', async () => {
    const exchange = await sendExample(context, sb.url, 'transit-times/get-transit-times.carrier.json');
    const destinations = rec(rec(exchange.parsed).Result).Destinations as Rec[];
    const report = await show(exchange);
    assert.equal(report.summary.domain, 'transit-times');
    const rows = await page.$$eval('.domain-transit-times table.transit tbody tr', (trs) =>
      trs.map((tr) => ({
        where: tr.querySelector('th')?.textContent ?? '',
        days: tr.querySelector('td.days')?.textContent ?? '',
        date: tr.querySelector('time')?.getAttribute('datetime') ?? '',
        shown: tr.querySelector('time')?.textContent ?? '',
      })),
    );
    assert.equal(rows.length, destinations.length);
    rows.forEach((row, i) => {
      const point = rec(destinations[i].DestinationPoint);
      assert.equal(row.where, `${String(point.City)}, ${String(point.StateOrProvince)} ${String(point.ZipOrPostalCode)}`);
      assert.equal(row.days, String(destinations[i].ServiceDays));
      assert.equal(row.date, destinations[i].DeliveryDate);
      const [y, m, d] = String(destinations[i].DeliveryDate).slice(0, 10).split('-').map(Number);
      assert.equal(
        row.shown,
        new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }),
      );
    });
    assert.deepEqual(await page.$$eval('.domain-transit-times thead th', (ths) => ths.map((t) => t.textContent)), [
      'Destination',
      'Service center',
      'Service days',
      'Delivery',
      'Notes',
    ]);
    await fitsWidth(page);
    await shoot(page, 'domain-transit-times');
  });

  it("GetTerminalInformation: each terminal's address and contacts as a card, copyable", async () => {
    const exchange = await sendExample(context, sb.url, 'terminals/get-terminal-information.carrier.json');
    const terminals = rec(exchange.parsed).Result as Rec[];
    const report = await show(exchange);
    assert.equal(report.summary.domain, 'terminal');
    const cards = await page.$$eval('.domain-terminal .card', (els) =>
      els.map((e) => ({
        name: e.querySelector('h3')?.textContent ?? '',
        address: (e.querySelector('address') as HTMLElement | null)?.innerText ?? '',
        phones: Array.from(e.querySelectorAll('.phones dd [data-copy]')).map((b) => b.getAttribute('data-copy')),
      })),
    );
    assert.equal(cards.length, terminals.length);
    cards.forEach((card, i) => {
      const d = rec(terminals[i].TerminalDetails);
      assert.equal(card.name, d.TerminalName);
      assert.equal(card.address.split('\n')[0], d.TerminalMailingAddress1);
      assert.match(card.address, new RegExp(`${String(d.TerminalMailingCity)}, ${String(d.TerminalMailingState)} ${String(d.TerminalMailingZip)}`));
      assert.deepEqual(
        card.phones,
        (terminals[i].TerminalPhoneNumbers as Rec[]).map((p) => p.PhoneNumber),
      );
    });
    await page.click('.domain-terminal .card .address-block .copy');
    const copied = (await posted(page)).find((m) => m.type === 'copy');
    assert.ok(copied?.type === 'copy' && copied.text.startsWith(`${String(rec(terminals[0].TerminalDetails).TerminalName)}\n`), JSON.stringify(copied));
    await keyboardAndNames(page, '.domain-terminal');
    await fitsWidth(page);
    await shoot(page, 'domain-terminal');
  });

  it('CreateBillOfLading: the BOL ID, PRO and pickup number with copy, and "trace this PRO" / "get this BOL\'s PDF"', async () => {
    const exchange = await sendExample(context, sb.url, 'bill-of-lading/create-bill-of-lading.carrier.json');
    const r = rec(exchange.parsed);
    const report = await show(exchange);
    assert.equal(report.summary.domain, 'bill-of-lading');
    const tiles = await page.$$eval('.domain-bill-of-lading .number-tile', (els) =>
      els.map((e) => [e.querySelector('.number-label')?.textContent, e.querySelector('.number-value')?.textContent]),
    );
    assert.deepEqual(tiles, [
      ['BOL ID', String(r.BolID)],
      ['PRO number', String(r.WebProNumber)],
      ['Pickup request number', String(r.PickupRequestNumber)],
    ]);
    await page.getByRole('button', { name: `Copy PRO number: ${String(r.WebProNumber)}` }).click();
    await page.getByRole('button', { name: 'Trace this PRO' }).click();
    await page.getByRole('button', { name: 'Get this BOL’s PDF' }).click();
    const messages = await posted(page);
    assert.deepEqual(
      messages.filter((m) => m.type !== 'rendered').map((m) => (m.type === 'copy' ? { copy: m.text } : m.type === 'followUp' ? m.request : m.type)),
      [{ copy: String(r.WebProNumber) }, { kind: 'trace-pro', pro: String(r.WebProNumber) }, { kind: 'bol-pdf', bolId: String(r.BolID) }],
    );
    assert.equal(
      await page.getAttribute('.domain-bill-of-lading .copy >> nth=1', 'aria-label'),
      `Copied PRO number ${String(r.WebProNumber)}: ${String(r.WebProNumber)}`,
      'the button says it copied',
    );
    await keyboardAndNames(page, '.domain-bill-of-lading');
    await fitsWidth(page);
    await shoot(page, 'domain-bill-of-lading');
  });

  it("CreatePickupRequest: the pickup number, and the linked BOL's numbers with their actions", async () => {
    // A pickup for a bill of lading made just now, without one of its own: the example's BOL 1 may be delivered already.
    const bol = await sendExample(context, sb.url, 'bill-of-lading/create-bill-of-lading.carrier.json', {}, (t) =>
      t.replace(/"AddPickupRequest": true/, '"AddPickupRequest": false'),
    );
    const bolId = String(rec(bol.parsed).BolID);
    const exchange = await sendExample(context, sb.url, 'pickup/create-pickup-request.carrier.json', {}, (t) =>
      t.replace(/"LinkedBolId": \d+/, `"LinkedBolId": ${bolId}`),
    );
    const r = rec(exchange.parsed);
    assert.equal(rec(r.Pickup).WasSuccess, true, JSON.stringify(r));
    // The linked bill of lading comes back when the sandbox includes it (IncludeBol): its tiles follow it.
    const linked = rec(rec(r.Pickup).Result).BOL as Rec | undefined;
    const report = await show(exchange);
    assert.equal(report.summary.domain, 'pickup');
    const tiles = await page.$$eval('.domain-pickup .number-tile', (els) =>
      els.map((e) => [e.querySelector('.number-label')?.textContent, e.querySelector('.number-value')?.textContent]),
    );
    assert.deepEqual(tiles, [
      ['Pickup number', String(r.PickupRequestID)],
      ...(linked?.BolID ? [['Linked BOL ID', String(linked.BolID)]] : []),
      ...(linked?.WebProNumber ? [['Linked PRO number', String(linked.WebProNumber)]] : []),
    ]);
    assert.match(
      await page.innerText('.domain-pickup .lane'),
      new RegExp(`${String(rec(rec(r.Pickup).Result).PickupDate)}, 03:00 PM – 05:00 PM · terminal [A-Z]{3}`),
    );
    if (linked?.WebProNumber) {
      await page.getByRole('button', { name: 'Trace this PRO' }).click();
      assert.deepEqual(
        (await posted(page)).filter((m) => m.type === 'followUp').map((m) => m.type === 'followUp' && m.request),
        [{ kind: 'trace-pro', pro: String(linked.WebProNumber) }],
      );
    }
    await keyboardAndNames(page, '.domain-pickup');
    await shoot(page, 'domain-pickup');
  });

  it('other operations keep the generic summary', async () => {
    const exchange = await sendExample(context, sb.url, 'documents/get-document-types.carrier.json');
    const report = await show(exchange);
    assert.equal(report.summary.domain, undefined);
    assert.equal(await page.$('.domain'), null);
    assert.ok(await page.$('#panel-summary table.facts'));
  });

  it('a dark theme: the rate quote in Dark Modern', async () => {
    const dark = await openPanelPage(browser, 'dark');
    try {
      await render(dark, { exchange: await sendExample(context, sb.url, 'rate-quote/get-rate-quote-1.0.3.carrier.json') }, 'summary');
      await shoot(dark, 'domain-rate-quote-dark');
      const colours = await dark.$eval('.domain-rate-quote .level-net', (e) => [getComputedStyle(e).color, getComputedStyle(document.body).backgroundColor]);
      assert.deepEqual(colours, ['rgb(204, 204, 204)', 'rgb(31, 31, 31)'], 'theme colours, not fixed ones');
    } finally {
      await dark.close();
    }
  });
});
