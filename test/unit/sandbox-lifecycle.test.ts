/**
 * The life cycle over a grid: lanes × service levels × pickup days (a Friday before a weekend,
 * the Wednesday before Thanksgiving). For each cell the quote's service days, the transit
 * table, the bill of lading (its reply, its PDF and its labels) and the trace must name the same
 * pickup day and the same due day and hour, and once the clock has passed it the freight is
 * delivered on that day, by that hour. The expected days are counted here, on the calendar the
 * README states, not asked of the model.
 */
import { strict as assert } from 'node:assert';
import { dirname, join } from 'node:path';
import { addBusinessDays, businessDaysBetween, holidayName } from '../../src/core/calendar';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { call, child, children, Clock, el, KEY, messagesOf, NS_DISTINCT, textAt, usDate, type Node } from './sandbox-kit';

const QUOTE = '/1.0.3/RateQuoteService.asmx';
const TRANSIT = '/1.0.0/TransitTimesService.asmx';
const BOL = '/1.0.1/BillOfLadingService.asmx';
const SBOL = '/sandbox/BillOfLadingService.asmx';
const TRACE = '/1.0.2/ShipmentTracingService.asmx';

interface End {
  readonly name: string;
  readonly street: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly country: string;
}
const end = (name: string, street: string, city: string, state: string, zip: string, country = 'USA'): End => ({ name, street, city, state, zip, country });

const LANES: ReadonlyArray<readonly [End, End]> = [
  [end('Volunteer Plastics Inc', '401 Industrial Dr', 'Burns', 'TN', '37029'), end('Gulf Coast Supply', '5000 W Linebaugh Ave', 'Tampa', 'FL', '33635')],
  [
    end('Gulf Coast Pool Chemicals', '5600 Trouble Creek Rd', 'New Port Richey', 'FL', '34655'),
    end('Miami Valley Tool', '4800 Webster St', 'Dayton', 'OH', '45414'),
  ],
  [end('Prairie Fields Feed Co', '9700 Widmer Rd', 'Lenexa', 'KS', '66227'), end('Delta Pine Hardware', '310 W Church St', 'Warren', 'AR', '71671')],
  [end('Pacific Rim Apparel', '6000 Sheila St', 'Commerce', 'CA', '90040'), end('Port Elizabeth Imports', '700 Dowd Ave', 'Elizabeth', 'NJ', '07201')],
  [
    end('Northern Lights Furniture', '6500 Kestrel Rd', 'Mississauga', 'ON', 'L5T 1Z6', 'CAN'),
    end('Mont-Royal Distribution', '8400 Chemin Devonshire', 'Mont-Royal', 'QC', 'H4P 2K3', 'CAN'),
  ],
];

const LEVELS = ['StandardService', 'GuaranteedService', 'GuaranteedByNoon', 'GuaranteedHourlyWindow', 'ExpeditedService', 'WeekendExpress'] as const;
type Level = (typeof LEVELS)[number];
const CODE: Partial<Record<Level, string>> = {
  StandardService: 'STD',
  GuaranteedService: 'GSDS',
  GuaranteedByNoon: 'GSAM',
  GuaranteedHourlyWindow: 'GSHW',
  ExpeditedService: 'EXPD',
};
const DUE_TIME: Record<Level, string> = {
  StandardService: '05:00 PM',
  GuaranteedService: '05:00 PM',
  GuaranteedByNoon: '12:00 PM',
  GuaranteedHourlyWindow: '03:00 PM',
  ExpeditedService: '05:00 PM',
  WeekendExpress: '05:00 PM',
};
const PAPER: Record<Level, string> = {
  StandardService: 'Standard Service',
  GuaranteedService: 'Guaranteed Service',
  GuaranteedByNoon: 'Guaranteed by Noon',
  GuaranteedHourlyWindow: 'Guaranteed Hourly Window',
  ExpeditedService: 'Expedited Service',
  WeekendExpress: 'Weekend Express',
};

/** Friday before a weekend; Wednesday before Thanksgiving and the day after. */
const PICKUP_DAYS = [new Date(Date.UTC(2026, 10, 20)), new Date(Date.UTC(2026, 10, 25))];

/** Weekend Express counts Saturdays too (not Sundays, not carrier holidays). */
function addSaturdayWeekDays(day: Date, n: number): Date {
  let d = day;
  for (let left = n; left > 0;) {
    d = new Date(d.getTime() + 86_400_000);
    if (d.getUTCDay() !== 0 && !holidayName(d)) left--;
  }
  return d;
}

const point = (e: End): Node[] => [el('City', e.city), el('StateOrProvince', e.state), el('ZipOrPostalCode', e.zip), el('CountryCode', e.country)];
const party = (e: End, extra: Node[] = []): Node =>
  el('x', [
    el('Name', e.name),
    el('EmailAddress', 'shipping@lane.example'),
    el('AddressLine1', e.street),
    el('ISO3Country', e.country),
    el('ZipCode', e.zip),
    el('City', e.city),
    el('State', e.state),
    el('PhoneNumber', '615-555-0101'),
    ...extra,
  ]);
const named = (name: string, n: Node): Node => ({ ...n, name });

function bolRequest(from: End, to: End, level: Level, day: Date, expeditedQuote: string): Node {
  return el('request', [
    el('BillOfLading', [
      el('BOLDate', usDate(day)),
      named('Shipper', party(from)),
      named('Consignee', party(to, [el('Attention', 'Receiving')])),
      el('ServiceLevel', level),
      ...(level === 'GuaranteedHourlyWindow' ? [el('HourlyWindow', [el('Start', '01:00 PM'), el('End', '03:00 PM')])] : []),
      ...(level === 'ExpeditedService' ? [el('ExpeditedQuoteNumber', expeditedQuote)] : []),
      el('Items', [
        el('Item', [
          el('IsHazmat', 'false'),
          el('Pieces', '2'),
          el('PackageType', 'PLT'),
          el('Class', '70'),
          el('Weight', '1800'),
          el('Description', 'Machine parts'),
        ]),
      ]),
      el('FreightChargePaymentMethod', 'Prepaid'),
    ]),
    el('AddPickupRequest', 'true'),
    el('PickupRequestInfo', [el('PickupDate', usDate(day)), el('ReadyTime', '01:00 PM'), el('CloseTime', '05:00 PM')]),
  ]);
}

async function pdfText(b64: string): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const standardFontDataUrl = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
  const doc = await pdfjs.getDocument({ data: new Uint8Array(Buffer.from(b64, 'base64')), standardFontDataUrl, disableFontFace: true, verbosity: 0 }).promise;
  const texts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) texts.push((await (await doc.getPage(i)).getTextContent()).items.map((it) => ('str' in it ? it.str : '')).join(' '));
  await doc.destroy();
  return texts.join('\n');
}

interface Booked {
  readonly label: string;
  readonly pro: string;
  readonly due: string;
  readonly dueTime: string;
  readonly window: boolean;
}

describe('sandbox life cycle: lanes × service levels × pickup days agree from quote to trace', function () {
  this.timeout(180_000);
  const clock = new Clock();
  let sb: SandboxHandle;
  const booked: Booked[] = [];
  before(async () => {
    sb = await startSandbox({ namespaces: NS_DISTINCT, now: clock.now });
  });
  after(() => sb.close());

  for (const [from, to] of LANES) {
    const lane = `${from.city} ${from.state} → ${to.city} ${to.state}`;
    it(lane, async () => {
      const quote = await call(
        sb.url,
        QUOTE,
        el('GetRateQuote', [
          el('APIKey', KEY),
          el('request', [
            el('QuoteType', 'Domestic'),
            el('Origin', point(from)),
            el('Destination', point(to)),
            el('Items', [el('Item', [el('Class', '70'), el('Weight', '1800')])]),
            el('DeclaredValue', '0'),
          ]),
        ]),
      );
      assert.equal(textAt(quote, 'WasSuccess'), 'true', messagesOf(quote).join());
      const offered = new Map(
        children(child(child(quote, 'Result'), 'ServiceLevels'), 'ServiceLevel').map((l) => [
          textAt(l, 'Code'),
          { days: Number(textAt(l, 'ServiceDays')), number: textAt(l, 'QuoteNumber') },
        ]),
      );
      const std = offered.get('STD')!.days;

      for (const day of PICKUP_DAYS) {
        const transit = await call(
          sb.url,
          TRANSIT,
          el('GetTransitTimes', [
            el('APIKey', KEY),
            el('input', [
              el('DateOfPickup', `${day.toISOString().slice(0, 10)}T00:00:00`),
              el('OriginPoint', [el('d:ZipOrPostalCode', from.zip), el('d:CountryCode', from.country)]),
              el('Destinations', [el('d:DestinationPoint', [el('d:ServicePoint', [el('d:ZipOrPostalCode', to.zip), el('d:CountryCode', to.country)])])]),
            ]),
          ]),
        );
        const destination = child(child(child(transit, 'Result'), 'Destinations'), 'Destination');
        assert.equal(Number(textAt(destination, 'ServiceDays')), std, `${lane}: transit days = quote's STD days`);
        const transitDelivery = textAt(destination, 'DeliveryDate').slice(0, 10);
        assert.deepEqual(
          children(child(destination, 'ServiceLevels'), 'ServiceLevel').map((l) => textAt(l, 'ServiceLevelCode')),
          [...offered.keys()],
          `${lane}: transit lists the quote's levels`,
        );

        for (const level of LEVELS) {
          const cell = `${lane}, ${level}, pickup ${usDate(day)}`;
          const code = CODE[level];
          const quoted = code ? offered.get(code) : undefined;
          const created = await call(
            sb.url,
            BOL,
            el('CreateBillOfLading', [el('APIKey', KEY), bolRequest(from, to, level, day, offered.get('EXPD')?.number || '1234567')]),
          );
          const onOwnLinehaul = offered.has('GSDS');
          if (level !== 'StandardService' && !onOwnLinehaul) {
            // The quote offers no such level here, and the bill of lading is refused for it.
            assert.equal(quoted, undefined, cell);
            assert.equal(textAt(created, 'WasSuccess'), 'false', cell);
            assert.match(messagesOf(created).join(' '), new RegExp(`ServiceLevel ${level} is offered only between points in the contiguous US`), cell);
            continue;
          }
          assert.equal(textAt(created, 'WasSuccess'), 'true', `${cell}: ${messagesOf(created).join(' | ')}`);
          const days = quoted?.days ?? std;
          const due = level === 'WeekendExpress' ? addSaturdayWeekDays(day, std) : addBusinessDays(day, days);
          if (quoted) assert.equal(businessDaysBetween(day, due), quoted.days, `${cell}: the quote's days`);
          if (level !== 'ExpeditedService' && level !== 'WeekendExpress')
            assert.equal(transitDelivery, due.toISOString().slice(0, 10), `${cell}: the transit table's delivery date`);
          if (level === 'WeekendExpress')
            assert.ok(due.getTime() <= Date.parse(`${transitDelivery}T00:00:00Z`), `${cell}: Weekend Express is never later than standard`);

          const pro = textAt(created, 'WebProNumber');
          const bolId = textAt(created, 'BolID');
          const traced = child(
            child(
              await call(
                sb.url,
                TRACE,
                el('TraceShipment', [
                  el('APIKey', KEY),
                  el('request', [el('TraceNumbers', [el('string', pro)]), el('TraceType', 'PRO'), el('FormatResults', 'true')]),
                ]),
              ),
              'Result',
            ),
            'Shipment',
          )!;
          assert.equal(textAt(traced, 'ShortStatus'), 'Pickup Scheduled', cell);
          assert.equal(textAt(traced, 'ServiceLevel'), level, cell);
          assert.match(
            textAt(traced, 'ShipmentDates', 'PickupDate'),
            new RegExp(`^${usDate(day)} 02:00 PM$`),
            `${cell}: picked up an hour after the ready time`,
          );
          assert.equal(textAt(traced, 'ShipmentDates', 'EstimatedDeliveryDate'), `${usDate(due)} ${DUE_TIME[level]}`, `${cell}: the trace's estimate`);

          const bolPdf = await pdfText(
            textAt(await call(sb.url, SBOL, el('GetBillOfLadingPdf', [el('APIKey', KEY), el('billOfLadingId', bolId)])), 'PdfDocument'),
          );
          const dueLine = level === 'GuaranteedHourlyWindow' ? `Due ${usDate(due)} between 01:00 PM and 03:00 PM` : `Due ${usDate(due)} by ${DUE_TIME[level]}`;
          for (const text of [usDate(day), PAPER[level], `Pickup ${usDate(day)}`, dueLine, `${to.city}, ${to.state} ${to.zip}`])
            assert.ok(bolPdf.includes(text), `${cell}: the BOL PDF says "${text}"\n${bolPdf.slice(0, 1500)}`);
          const labels = await pdfText(
            textAt(
              await call(
                sb.url,
                SBOL,
                el('GetBillOfLadingLabelPDF', [
                  el('APIKey', KEY),
                  el('billOfLadingId', bolId),
                  el('style', 'STYLE_1'),
                  el('startPosition', '1'),
                  el('numLabels', '1'),
                ]),
              ),
              'PdfDocument',
            ),
          );
          for (const text of [`Due ${usDate(due)}`, pro, to.city]) assert.ok(labels.includes(text), `${cell}: the label says "${text}"\n${labels}`);
          booked.push({ label: cell, pro, due: usDate(due), dueTime: DUE_TIME[level], window: level === 'GuaranteedHourlyWindow' });
        }
      }
    });
  }

  it('delivers every one of them on its due day, by its due time (and in its window)', async () => {
    assert.ok(booked.length >= 40, `${booked.length} cells booked`);
    clock.current = new Date(Date.UTC(2026, 11, 18, 15));
    const minutes = (t: string) => {
      const [h, m] = t.slice(0, 5).split(':').map(Number);
      return ((h! % 12) + (t.endsWith('PM') ? 12 : 0)) * 60 + m!;
    };
    for (const b of booked) {
      const s = child(
        child(
          await call(
            sb.url,
            TRACE,
            el('TraceShipment', [
              el('APIKey', KEY),
              el('request', [el('TraceNumbers', [el('string', b.pro)]), el('TraceType', 'PRO'), el('FormatResults', 'true')]),
            ]),
          ),
          'Result',
        ),
        'Shipment',
      )!;
      assert.equal(textAt(s, 'ShortStatus'), 'Delivered', b.label);
      const delivered = textAt(s, 'ShipmentDates', 'DeliveryDate');
      assert.equal(delivered.slice(0, 10), b.due, `${b.label}: delivered on the due day`);
      const at = minutes(delivered.slice(11));
      assert.ok(at <= minutes(b.dueTime), `${b.label}: delivered at ${delivered}, due by ${b.dueTime}`);
      assert.ok(at >= 8 * 60, `${b.label}: delivered at ${delivered}, in delivery hours`);
      if (b.window) assert.ok(at >= 13 * 60, `${b.label}: delivered at ${delivered}, inside 01:00-03:00 PM`);
    }
  });
});
