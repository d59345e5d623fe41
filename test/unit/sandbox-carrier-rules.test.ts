/**
 * Issue 19's cases, each with the carrier's answer: impossible and out-of-range dates, freight
 * beyond LTL, addresses that contradict their ZIP, country codes, over-long fields, pickups that
 * may not collect a bill of lading, the terminal's own clock, weights shown with their tenth, a
 * seeded history that keeps the carrier's calendar, and the carrier model's wall.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateRequestText } from '../../src/core/validation';
import { atLocal, DELIVERY_HOURS, HOME_ZONE, isWorkingDay, localDay, localMinutes, PICKUP_HOURS, statusAt } from '../../src/sandbox/carrier';
import { seededShipments } from '../../src/sandbox/history/seeded';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import {
  call,
  callFault,
  child,
  children,
  Clock,
  el,
  envelope,
  http,
  KEY,
  messagesOf,
  NS_DISTINCT,
  soapFault,
  soapHeaders,
  actionOf,
  textAt,
  withChild,
  type Node,
} from './sandbox-kit';
import { bolRequest, pickupRequest, rate103 } from './sandbox-requests';

const BOL = '/1.0.1/BillOfLadingService.asmx';
const PICKUP = '/1.0.3/PickupRequestService.asmx';
const TRANSIT = '/1.0.0/TransitTimesService.asmx';
const TRACE = '/1.0.2/ShipmentTracingService.asmx';
const QUOTE = '/1.0.3/RateQuoteService.asmx';

const create = (request: Node) => el('CreateBillOfLading', [el('APIKey', KEY), request]);
const pickup = (request: Node) => el('CreatePickupRequest', [el('APIKey', KEY), request]);
const editBol = (request: Node, edit: (bol: Node) => Node): Node =>
  withChild(request, 'BillOfLading', edit(request.children!.find((c) => c.name === 'BillOfLading')!));
const transit = (date: string) =>
  el('GetTransitTimes', [
    el('APIKey', KEY),
    el('input', [
      el('DateOfPickup', date),
      el('OriginPoint', [el('d:ZipOrPostalCode', '68507'), el('d:CountryCode', 'USA')]),
      el('Destinations', [el('d:DestinationPoint', [el('d:ServicePoint', [el('d:ZipOrPostalCode', '33635'), el('d:CountryCode', 'USA')])])]),
    ]),
  ]);

describe('sandbox carrier rules (issue 19)', function () {
  this.timeout(60_000);
  const clock = new Clock();
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ namespaces: NS_DISTINCT, now: clock.now });
  });
  after(() => sb.close());
  afterEach(() => {
    clock.current = new Clock().current;
  });

  it('faults an impossible DateOfPickup over SOAP 1.1 and 1.2, naming the field, instead of answering for another day', async () => {
    for (const date of ['2026-02-30T00:00:00', '2026-04-31T10:00:00', '2026-13-01T00:00:00', '2026-11-20T24:00:00']) {
      for (const version of ['1.1', '1.2'] as const) {
        const r = await http(sb.url + TRANSIT, {
          method: 'POST',
          body: envelope(version, transit(date), NS_DISTINCT, 'default-xmlns'),
          headers: soapHeaders(version, actionOf(NS_DISTINCT, 'GetTransitTimes'), 'quoted'),
        });
        assert.equal(r.status, 500, `${date} SOAP ${version}: ${r.text.slice(0, 300)}`);
        assert.match(soapFault(r.text, version).reason, /DateOfPickup/, date);
      }
    }
    assert.match((await callFault(sb.url, TRANSIT, transit('2026-02-30T00:00:00'))).reason, /February 2026 has no day 30/);
  });

  it("refuses a past or far-off DateOfPickup in the body, on the origin terminal's date", async () => {
    const past = await call(sb.url, TRANSIT, transit('2026-11-10T00:00:00'));
    assert.equal(textAt(past, 'WasSuccess'), 'false');
    assert.match(messagesOf(past)[0]!, /^DateOfPickup 11\/10\/2026 is in the past/);
    assert.match(messagesOf(await call(sb.url, TRANSIT, transit('2027-06-01T00:00:00')))[0]!, /^DateOfPickup 06\/01\/2027 is too far ahead/);
  });

  it('carrier validate refuses impossible dates (an error, not a warning)', () => {
    const file = (value: string, field = 'DateOfPickup') =>
      field === 'DateOfPickup'
        ? `{ "operation": "GetTransitTimes", "params": { "input": { "DateOfPickup": "${value}", "OriginPoint": { "ZipOrPostalCode": "68507", "CountryCode": "USA" }, "Destinations": { "DestinationPoint": [{ "ZipOrPostalCode": "33635", "CountryCode": "USA" }] } } } }`
        : `{ "operation": "CreateBillOfLading", "params": { "request": { "BillOfLading": { "BOLDate": "${value}" } } } }`;
    for (const [value, field] of [
      ['2026-02-30T00:00:00', 'DateOfPickup'],
      ['2026-04-31', 'DateOfPickup'],
      ['02/30/2026', 'BOLDate'],
      ['04/31/2026', 'BOLDate'],
    ] as const) {
      const errors = validateRequestText(file(value, field), 'x.carrier.json').findings.filter((f) => f.severity === 'error');
      assert.ok(
        errors.some((f) => f.message.includes(field) && /is not a real date/.test(f.message)),
        `${field} ${value}: ${errors.map((f) => f.message).join(' | ')}`,
      );
    }
    assert.deepEqual(
      validateRequestText(file('2028-02-29T00:00:00'), 'x.carrier.json').findings.filter((f) => f.severity === 'error'),
      [],
      'a leap day is real',
    );
  });

  it('refuses weights and dimensions beyond an LTL shipment, in the body and never in exponent form', async () => {
    const heavy = await call(sb.url, QUOTE, el('GetRateQuote', [el('APIKey', KEY), rate103([el('Item', [el('Class', '50'), el('Weight', '1e40')])])]));
    assert.equal(textAt(heavy, 'WasSuccess'), 'false');
    assert.match(messagesOf(heavy)[0]!, /^Item 1: Weight .* lb is more than an LTL shipment can weigh \(20,000 lb\)/);
    assert.doesNotMatch(messagesOf(heavy)[0]!, /e\+/);
    const wide = await call(
      sb.url,
      QUOTE,
      el('GetRateQuote', [
        el('APIKey', KEY),
        rate103([el('Item', [el('Class', '50'), el('Weight', '500'), el('Width', '140'), el('Height', '40'), el('Length', '48')])]),
      ]),
    );
    assert.deepEqual(messagesOf(wide), ['Item 1: Width 140 in is more than fits a trailer (96 in).']);
    const bol = await call(
      sb.url,
      BOL,
      create(
        editBol(bolRequest(), (b) =>
          withChild(
            b,
            'Items',
            el('Items', [
              el('Item', [
                el('IsHazmat', 'false'),
                el('Pieces', '10'),
                el('PackageType', 'PLT'),
                el('Class', '85'),
                el('Weight', '500000'),
                el('Description', 'Steel'),
              ]),
            ]),
          ),
        ),
      ),
    );
    assert.equal(textAt(bol, 'WasSuccess'), 'false');
    assert.match(messagesOf(bol).join(' '), /Item 1 Weight 500,000 lb is more than an LTL shipment can weigh/);
    const piece = await call(
      sb.url,
      BOL,
      create(
        editBol(bolRequest(), (b) =>
          withChild(
            b,
            'Items',
            el('Items', [
              el('Item', [
                el('IsHazmat', 'false'),
                el('Pieces', '1'),
                el('PackageType', 'CRT'),
                el('Class', '85'),
                el('Weight', '7500'),
                el('Description', 'Press'),
              ]),
            ]),
          ),
        ),
      ),
    );
    assert.match(messagesOf(piece).join(' '), /averages 7,500 lb a piece, more than a dock forklift lifts/);
  });

  it('refuses a State that does not belong to the ZIP on a bill of lading, and only warns in a quote', async () => {
    const seattle = el('Consignee', [
      el('Name', 'Gulf Coast Supply'),
      el('AddressLine1', '5000 W Linebaugh Ave'),
      el('ISO3Country', 'USA'),
      el('ZipCode', '33635'),
      el('City', 'Seattle'),
      el('State', 'WA'),
      el('Attention', 'Receiving'),
    ]);
    const bol = await call(sb.url, BOL, create(editBol(bolRequest(), (b) => withChild(b, 'Consignee', seattle))));
    assert.deepEqual(messagesOf(bol), ['Consignee State WA does not match ZIP 33635 (FL): the ZIP decides where the freight goes.']);
    const farCity = el('Consignee', [
      el('Name', 'Gulf Coast Supply'),
      el('AddressLine1', '5000 W Linebaugh Ave'),
      el('ISO3Country', 'USA'),
      el('ZipCode', '33635'),
      el('City', 'Miami'),
      el('State', 'FL'),
    ]);
    const warned = await call(sb.url, BOL, create(editBol(bolRequest(), (b) => withChild(b, 'Consignee', farCity))));
    assert.equal(textAt(warned, 'WasSuccess'), 'true');
    assert.deepEqual(messagesOf(warned), ['Warning: Consignee City Miami is not near ZIP 33635 (FL); the freight is routed by the ZIP.']);
    const quote = await call(
      sb.url,
      QUOTE,
      el('GetRateQuote', [
        el('APIKey', KEY),
        withChild(
          rate103(),
          'Destination',
          el('Destination', [el('City', 'Seattle'), el('StateOrProvince', 'WA'), el('ZipOrPostalCode', '33635'), el('CountryCode', 'USA')]),
        ),
      ]),
    );
    assert.equal(textAt(quote, 'WasSuccess'), 'true');
    const notes = children(child(child(quote, 'Result'), 'Messages'), 'Message').map((m) => `${textAt(m, 'Title')}: ${textAt(m, 'Text')}`);
    assert.ok(notes.includes('Warning: Destination StateOrProvince WA does not match ZIP 33635 (FL); the ZIP decides.'), notes.join(' | '));
  });

  it('takes ISO3 country codes only, in every operation alike', async () => {
    const f = await callFault(
      sb.url,
      '/1.0.2/TerminalInformationService.asmx',
      el('GetTerminalInformation', [el('APIKey', KEY), el('ZipCode', '68507'), el('CountryCode', 'US')]),
    );
    assert.equal(f.reason, 'CountryCode US is a two-letter code: use the three-letter ISO code USA.');
    const bol = await call(
      sb.url,
      BOL,
      create(
        editBol(bolRequest(), (b) =>
          withChild(
            b,
            'Shipper',
            el('Shipper', [
              el('Name', 'Volunteer Plastics Inc'),
              el('EmailAddress', 'a@b.example'),
              el('AddressLine1', '401 Industrial Dr'),
              el('ISO3Country', 'US'),
              el('ZipCode', '37029'),
              el('City', 'Burns'),
              el('State', 'TN'),
              el('PhoneNumber', '615-555-0101'),
            ]),
          ),
        ),
      ),
    );
    assert.deepEqual(messagesOf(bol), ['Shipper ISO3Country US is a two-letter code: use the three-letter ISO code USA.']);
    const quote = await call(
      sb.url,
      QUOTE,
      el('GetRateQuote', [el('APIKey', KEY), withChild(rate103(), 'Origin', el('Origin', [el('ZipOrPostalCode', '37029'), el('CountryCode', 'US')]))]),
    );
    assert.deepEqual(messagesOf(quote), ['Origin CountryCode US is a two-letter code: use the three-letter ISO code USA.']);
  });

  it('refuses a BillTo ZIP that does not exist and fields longer than their documented lengths', async () => {
    const billTo = await call(
      sb.url,
      BOL,
      create(
        editBol(bolRequest(), (b) =>
          withChild(
            b,
            'BillTo',
            el('BillTo', [el('Name', 'Summit Freight'), el('ISO3Country', 'USA'), el('ZipCode', '00000'), el('City', 'Franklin'), el('State', 'TN')]),
          ),
        ),
      ),
    );
    assert.deepEqual(messagesOf(billTo), ['BillTo ZipCode 00000 is not a valid postal code for USA.']);
    const nmfc = await call(
      sb.url,
      BOL,
      create(
        editBol(bolRequest(), (b) =>
          withChild(
            b,
            'Items',
            el('Items', [
              el('Item', [
                el('IsHazmat', 'false'),
                el('Pieces', '2'),
                el('PackageType', 'PLT'),
                el('NMFCItemNumber', '1'.repeat(5000)),
                el('Class', '85'),
                el('Weight', '1500'),
                el('Description', 'Plastic'),
              ]),
            ]),
          ),
        ),
      ),
    );
    assert.deepEqual(messagesOf(nmfc), ['Item 1 NMFCItemNumber is 5,000 characters long: at most 10 are accepted.']);
  });

  it("refuses a LinkedBolId that is delivered, cancelled, picked up, already booked or another shipper's, and stores nothing", async () => {
    const history = seededShipments(clock.now());
    const byStatus = (status: string) => history.find((s) => statusAt(s, clock.now()).ShortStatus === status && s.bolId !== 1)!;
    const cases: Array<[number, RegExp]> = [
      [1, /^LinkedBolId 1 was delivered on \d\d\/\d\d\/2026: there is nothing left to pick up\.$/],
      [byStatus('Cancelled').bolId, /was cancelled on .*: its bill of lading is void/],
      [byStatus('Picked Up').bolId, /was already picked up on 11\/18\/2026/],
      [byStatus('Pickup Scheduled').bolId, /already has a pickup scheduled for/],
    ];
    const own = await call(sb.url, BOL, create(bolRequest({ pickup: true })));
    cases.push([Number(textAt(own, 'BolID')), new RegExp(`already has pickup request ${textAt(own, 'PickupRequestNumber')}`)]);
    const lincoln = await call(
      sb.url,
      BOL,
      create(
        editBol(bolRequest(), (b) =>
          withChild(
            b,
            'Shipper',
            el('Shipper', [
              el('Name', 'Capitol Beacon Printing'),
              el('EmailAddress', 'a@b.example'),
              el('AddressLine1', '2100 N 27th St'),
              el('ISO3Country', 'USA'),
              el('ZipCode', '68507'),
              el('City', 'Lincoln'),
              el('State', 'NE'),
              el('PhoneNumber', '402-555-0101'),
            ]),
          ),
        ),
      ),
    );
    cases.push([Number(textAt(lincoln, 'BolID')), /belongs to another shipper \(Capitol Beacon Printing, Lincoln, NE 68507\)/]);
    const dated = await call(sb.url, BOL, create(editBol(bolRequest(), (b) => withChild(b, 'BOLDate', el('BOLDate', '11/24/2026')))));
    cases.push([Number(textAt(dated, 'BolID')), /PickupDate 11\/20\/2026 is before the BOLDate 11\/24\/2026/]);
    for (const [id, reason] of cases) {
      const r = await call(sb.url, PICKUP, pickup(pickupRequest(id)));
      assert.equal(textAt(r, 'Pickup', 'WasSuccess'), 'false', `${id}`);
      assert.match(textAt(r, 'Pickup', 'Message'), reason, `${id}`);
      assert.equal(child(r, 'PickupRequestID'), undefined);
    }
    const before = await call(sb.url, PICKUP, pickup(pickupRequest()));
    const after = await call(sb.url, PICKUP, pickup(pickupRequest()));
    assert.equal(Number(textAt(after, 'PickupRequestID')), Number(textAt(before, 'PickupRequestID')) + 1, 'refusals took no pickup ids');
  });

  it("judges a pickup on the terminal's own date and clock, and says its local time", async () => {
    // 9:30 PM in Burns TN (Central) is already the next day in UTC.
    clock.current = new Date('2026-11-19T03:30:00Z');
    const info = (date: string) =>
      withChild(
        pickupRequest(),
        'Pickup',
        withChild(
          pickupRequest().children![0]!,
          'PickupInformation',
          el('PickupInformation', [el('PickupDate', date), el('ReadyTime', '03:00 PM'), el('CloseTime', '05:00 PM')]),
        ),
      );
    const today = await call(sb.url, PICKUP, pickup(info('11/18/2026')));
    assert.match(textAt(today, 'Pickup', 'Message'), /PickupDate 11\/18\/2026 is today, and it is 09:30 PM at the terminal/);
    const tomorrow = await call(sb.url, PICKUP, pickup(info('11/19/2026')));
    assert.equal(textAt(tomorrow, 'Pickup', 'WasSuccess'), 'true', textAt(tomorrow, 'Pickup', 'Message'));
    assert.equal(textAt(tomorrow, 'Pickup', 'Result', 'TerminalLocalDateTime'), '2026-11-18T21:30:00');
  });

  it('shows a weight with its tenth in FormatResults (2,120.5 lb)', async () => {
    const created = await call(
      sb.url,
      BOL,
      create(
        editBol(bolRequest(), (b) =>
          withChild(
            b,
            'Items',
            el('Items', [
              el('Item', [
                el('IsHazmat', 'false'),
                el('Pieces', '2'),
                el('PackageType', 'PLT'),
                el('Class', '85'),
                el('Weight', '2120.5'),
                el('Description', 'Plastic'),
              ]),
            ]),
          ),
        ),
      ),
    );
    const s = child(
      child(
        await call(
          sb.url,
          TRACE,
          el('TraceShipment', [
            el('APIKey', KEY),
            el('request', [el('TraceNumbers', [el('string', textAt(created, 'WebProNumber'))]), el('TraceType', 'PRO'), el('FormatResults', 'true')]),
          ]),
        ),
        'Result',
      ),
      'Shipment',
    );
    assert.equal(textAt(s, 'Weight'), '2,120.5 lb');
  });
});

describe('sandbox seeded history keeps the carrier calendar', () => {
  const days = ['2026-11-18', '2026-11-27', '2026-12-24', '2027-01-02', '2026-03-09'];

  it('is the same for any start time of one day (Eastern), and every bill of lading was created before that day', () => {
    for (const d of days) {
      const morning = new Date(`${d}T12:05:00Z`);
      const evening = new Date(`${d}T23:55:00Z`);
      assert.deepEqual(JSON.stringify(seededShipments(morning)), JSON.stringify(seededShipments(evening)), d);
      const startOfDay = atLocal(localDay(morning, HOME_ZONE), 0, HOME_ZONE);
      for (const s of seededShipments(morning))
        assert.ok(s.createdAt.getTime() < startOfDay.getTime(), `${d}: ${s.proNumber} created ${s.createdAt.toISOString()}`);
    }
  });

  it("picks up and delivers on working days in working hours, on the terminals' own clocks", () => {
    for (const d of days) {
      for (const s of seededShipments(new Date(`${d}T15:00:00Z`))) {
        const week = s.serviceLevel === 'WeekendExpress' ? 'saturday' : 'business';
        for (const e of s.events) {
          const day = localDay(e.at, e.zone);
          const minutes = localMinutes(e.at, e.zone);
          const where = `${d} ${s.proNumber} ${e.code} ${e.at.toISOString()} (${e.zone})`;
          if (e.code === 'PU') {
            assert.ok(isWorkingDay(day, week), where);
            assert.ok(minutes >= PICKUP_HOURS.start && minutes <= PICKUP_HOURS.end, where);
          }
          if (e.code === 'DL' || e.code === 'OFD' || e.code === 'EX') {
            assert.ok(isWorkingDay(day, week), where);
            assert.ok(minutes >= 6 * 60 + 30 && minutes <= DELIVERY_HOURS.end, where);
          }
          if (e.code === 'BOL') assert.ok(isWorkingDay(day) && minutes >= 8 * 60 && minutes <= 18 * 60, where);
        }
        if (s.deliveredAt)
          assert.ok(s.deliveredAt.getTime() <= s.estimatedDeliveryAt.getTime() || s.exception !== undefined, `${s.proNumber} delivered after its due time`);
      }
    }
  });
});

describe('sandbox layout: the carrier model is one room', () => {
  it('imports nothing of the sandbox outside src/sandbox/carrier (core through its entry only)', () => {
    const dir = path.join(__dirname, '..', '..', 'src', 'sandbox', 'carrier');
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const m of text.matchAll(/from '([^']+)'/g)) assert.ok(/^\.\/[\w-]+$/.test(m[1]!) || m[1] === '../../core', `${file} imports ${m[1]}`);
    }
  });
});
