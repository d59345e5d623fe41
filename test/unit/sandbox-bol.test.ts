/**
 * CreateBillOfLading's business rules (docs/carrier-facts.md#bill-of-lading) and
 * CreatePickupRequest: in-body errors with HTTP 200, what a success answers, and how a pickup links
 * to a bill of lading.
 */
import { strict as assert } from 'node:assert';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { at, call, child, Clock, el, KEY, messagesOf, NS_DISTINCT, pdfPages, textAt, withChild, type Node } from './sandbox-kit';
import { bolRequest, pickupRequest } from './sandbox-requests';

const BOL = '/1.0.1/BillOfLadingService.asmx';
const PICKUP = '/1.0.3/PickupRequestService.asmx';

const create = (request: Node) => el('CreateBillOfLading', [el('APIKey', KEY), request]);
const pickup = (request: Node) => el('CreatePickupRequest', [el('APIKey', KEY), request]);

/** Changes the BillOfLading record inside a CreateBillOfLading request. */
function editBol(request: Node, edit: (bol: Node) => Node): Node {
  const bol = request.children!.find((c) => c.name === 'BillOfLading')!;
  return withChild(request, 'BillOfLading', edit(bol));
}

describe('sandbox CreateBillOfLading', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ namespaces: NS_DISTINCT, now: new Clock().now });
  });
  after(() => sb.close());

  it('answers BolID, a 9-digit WebProNumber and the echoed bill of lading; ids never repeat', async () => {
    const a = await call(sb.url, BOL, create(bolRequest()));
    const b = await call(sb.url, BOL, create(bolRequest()));
    assert.equal(textAt(a, 'WasSuccess'), 'true');
    assert.match(textAt(a, 'WebProNumber'), /^\d{9}$/);
    assert.notEqual(textAt(a, 'WebProNumber'), textAt(b, 'WebProNumber'));
    assert.equal(Number(textAt(b, 'BolID')), Number(textAt(a, 'BolID')) + 1);
    assert.equal(textAt(a, 'BillOfLading', 'Items', 'Item', 'Description'), 'Plastic containers, nested');
    assert.equal(textAt(a, 'BillOfLading', 'ReferenceNumbers', 'PONumber'), 'PO-88120');
    assert.equal(child(a, 'PickupRequestNumber'), undefined, 'no pickup asked for');
  });

  it('with AddPickupRequest answers a PickupRequestNumber', async () => {
    const r = await call(sb.url, BOL, create(bolRequest({ pickup: true })));
    assert.equal(textAt(r, 'WasSuccess'), 'true', messagesOf(r).join());
    assert.match(textAt(r, 'PickupRequestNumber'), /^\d+$/);
  });

  it('lists every missing part of an empty bill of lading at once, in the body with HTTP 200', async () => {
    const r = await call(sb.url, BOL, create(el('request', [el('BillOfLading', []), el('AddPickupRequest', 'false')])));
    assert.equal(textAt(r, 'WasSuccess'), 'false');
    assert.equal(textAt(r, 'BolID'), '0');
    assert.deepEqual(messagesOf(r), [
      'BOLDate is required. Accepted date format MM/DD/YYYY.',
      'Shipper is required.',
      'Consignee is required.',
      'At least one item is required.',
      'FreightChargePaymentMethod is required: Prepaid or Collect.',
    ]);
  });

  it('names the required fields of each party that are missing', async () => {
    const r = await call(
      sb.url,
      BOL,
      create(
        editBol(bolRequest(), (b) =>
          withChild(
            withChild(b, 'Shipper', el('Shipper', [el('Name', 'X'), el('ISO3Country', 'USA'), el('ZipCode', '37029')])),
            'Consignee',
            el('Consignee', [
              el('Name', 'Y'),
              el('AddressLine1', '1 A St'),
              el('ISO3Country', 'USA'),
              el('ZipCode', '00000'),
              el('City', 'Nowhere'),
              el('State', 'ZZ'),
            ]),
          ),
        ),
      ),
    );
    assert.deepEqual(messagesOf(r), [
      'Shipper EmailAddress is required.',
      'Shipper AddressLine1 is required.',
      'Shipper City is required.',
      'Shipper PhoneNumber is required.',
      'Consignee ZipCode 00000 is not a valid postal code for USA.',
    ]);
  });

  it('checks BOLDate is MM/DD/YYYY', async () => {
    const r = await call(sb.url, BOL, create(editBol(bolRequest(), (b) => withChild(b, 'BOLDate', el('BOLDate', '2026-11-19')))));
    assert.deepEqual(messagesOf(r), ['BOLDate 2026-11-19 is not a valid date. Accepted date format MM/DD/YYYY.']);
  });

  it('needs HourlyWindow with GuaranteedHourlyWindow, in order and in hh:mm AM/PM', async () => {
    const level = (b: Node) => withChild(b, 'ServiceLevel', el('ServiceLevel', 'GuaranteedHourlyWindow'));
    const none = await call(sb.url, BOL, create(editBol(bolRequest(), level)));
    assert.deepEqual(messagesOf(none), ['HourlyWindow is required if GuaranteedHourlyWindow is selected.']);
    const bad = await call(
      sb.url,
      BOL,
      create(editBol(bolRequest(), (b) => withChild(level(b), 'HourlyWindow', el('HourlyWindow', [el('Start', '3 PM'), el('End', '01:00 PM')])))),
    );
    assert.deepEqual(messagesOf(bad), ['HourlyWindow Start 3 PM is not a valid time. Accepted time format hh:mm AM/PM.']);
    const reversed = await call(
      sb.url,
      BOL,
      create(editBol(bolRequest(), (b) => withChild(level(b), 'HourlyWindow', el('HourlyWindow', [el('Start', '03:00 PM'), el('End', '01:00 PM')])))),
    );
    assert.deepEqual(messagesOf(reversed), ['HourlyWindow End must be later than Start.']);
    const good = await call(
      sb.url,
      BOL,
      create(editBol(bolRequest(), (b) => withChild(level(b), 'HourlyWindow', el('HourlyWindow', [el('Start', '01:00 PM'), el('End', '03:00 PM')])))),
    );
    assert.equal(textAt(good, 'WasSuccess'), 'true');
  });

  it('needs ExpeditedQuoteNumber with ExpeditedService', async () => {
    const r = await call(sb.url, BOL, create(editBol(bolRequest(), (b) => withChild(b, 'ServiceLevel', el('ServiceLevel', 'ExpeditedService')))));
    assert.deepEqual(messagesOf(r), ['ExpeditedQuoteNumber is required if ExpeditedService is selected.']);
  });

  it('needs HazmatInformation (with EmergenyNumber, spelled so) when any item is hazmat', async () => {
    const missing = await call(
      sb.url,
      BOL,
      create(
        editBol(bolRequest(), (b) =>
          withChild(
            b,
            'Items',
            el('Items', [
              el('Item', [
                el('IsHazmat', 'true'),
                el('Pieces', '1'),
                el('PackageType', 'DRM'),
                el('Class', '55'),
                el('Weight', '440'),
                el('Description', 'UN1263, Paint, 3, PG III'),
              ]),
            ]),
          ),
        ),
      ),
    );
    assert.deepEqual(messagesOf(missing), ['HazmatInformation is required if any item is marked IsHazmat.']);
    const misspelled = await call(
      sb.url,
      BOL,
      create(editBol(bolRequest({ hazmat: true }), (b) => withChild(b, 'HazmatInformation', el('HazmatInformation', [el('EmergencyNumber', '800-555-0199')])))),
    );
    assert.deepEqual(messagesOf(misspelled), ['HazmatInformation EmergenyNumber is required if any item is marked IsHazmat.']);
    const ok = await call(sb.url, BOL, create(bolRequest({ hazmat: true })));
    assert.equal(textAt(ok, 'WasSuccess'), 'true');
  });

  it('checks each item: pieces, weight, package type, class, description', async () => {
    const r = await call(
      sb.url,
      BOL,
      create(editBol(bolRequest(), (b) => withChild(b, 'Items', el('Items', [el('Item', [el('Pieces', '0'), el('Class', '45'), el('Weight', '10')])])))),
    );
    assert.deepEqual(messagesOf(r), [
      'Item 1 PackageType is required.',
      'Item 1 Description is required.',
      'Item 1 Pieces must be greater than 0.',
      'Item 1 Class 45 is not a valid freight class. Valid classes: 50.0, 55.0, 60.0, 65.0, 70.0, 77.5, 85.0, 92.5, 100.0, 110.0, 125.0, 150.0, 175.0, 200.0, 250.0, 300.0, 400.0, 500.0.',
    ]);
  });

  it('needs PickupRequestInfo with AddPickupRequest, on a working day, not in the past', async () => {
    const info = (date: string) => el('PickupRequestInfo', [el('PickupDate', date), el('ReadyTime', '09:00 AM'), el('CloseTime', '05:00 PM')]);
    const req = (p: Node | undefined) => withChild(withChild(bolRequest(), 'AddPickupRequest', el('AddPickupRequest', 'true')), 'PickupRequestInfo', p);
    assert.deepEqual(messagesOf(await call(sb.url, BOL, create(req(undefined)))), ['PickupRequestInfo is required when AddPickupRequest is true.']);
    assert.deepEqual(messagesOf(await call(sb.url, BOL, create(req(info('11/26/2026'))))), [
      'PickupRequestInfo PickupDate 11/26/2026 is a carrier holiday (Thanksgiving Day): no pickups that day.',
    ]);
    assert.deepEqual(messagesOf(await call(sb.url, BOL, create(req(info('11/21/2026'))))), [
      'PickupRequestInfo PickupDate 11/21/2026 is a Saturday: no pickups on weekends.',
    ]);
    assert.match(messagesOf(await call(sb.url, BOL, create(req(info('11/17/2026')))))[0]!, /is in the past/);
    // The request is dated 11/19: a pickup the day before is refused (issue 19), one dated today needs a BOL dated today.
    assert.deepEqual(messagesOf(await call(sb.url, BOL, create(req(info('11/18/2026'))))), [
      'PickupRequestInfo PickupDate 11/18/2026 is before the BOLDate 11/19/2026: freight is picked up on or after the day its bill of lading is dated.',
    ]);
    const today = editBol(req(info('11/18/2026')), (b) => withChild(b, 'BOLDate', el('BOLDate', '11/18/2026')));
    assert.equal(textAt(await call(sb.url, BOL, create(today)), 'WasSuccess'), 'true', 'today is fine');
  });

  it('needs ThirdParty ContactName and CompanyName once any ThirdParty field is filled', async () => {
    const info = el('PickupRequestInfo', [
      el('PickupDate', '11/20/2026'),
      el('ReadyTime', '09:00 AM'),
      el('CloseTime', '05:00 PM'),
      el('ThirdParty', [el('PhoneNumber', '615-555-0123')]),
    ]);
    const r = await call(
      sb.url,
      BOL,
      create(withChild(withChild(bolRequest(), 'AddPickupRequest', el('AddPickupRequest', 'true')), 'PickupRequestInfo', info)),
    );
    assert.deepEqual(messagesOf(r), [
      'ThirdParty ContactName is required when any ThirdParty field is filled out.',
      'ThirdParty CompanyName is required when any ThirdParty field is filled out.',
    ]);
  });
});

describe('sandbox CreatePickupRequest', () => {
  let sb: SandboxHandle;
  let pickupNs: string;
  before(async () => {
    sb = await startSandbox({ namespaces: NS_DISTINCT, now: new Clock().now });
    pickupNs = NS_DISTINCT.pickup;
  });
  after(() => sb.close());

  it('links a bill of lading created here and returns its real PDF with IncludeBolPdf', async () => {
    const bol = await call(sb.url, BOL, create(bolRequest()));
    const id = Number(textAt(bol, 'BolID'));
    const r = await call(sb.url, PICKUP, pickup(pickupRequest(id, { bol: true, pdf: true })));
    assert.equal(textAt(r, 'Pickup', 'WasSuccess'), 'true', textAt(r, 'Pickup', 'Message'));
    assert.ok((await pdfPages(textAt(r, 'BolPdf'))) >= 1);
    assert.equal(textAt(r, 'Pickup', 'Result', 'ParentId'), String(id));
    assert.equal(textAt(r, 'Pickup', 'Result', 'BOL', 'WebProNumber'), textAt(bol, 'WebProNumber'));
    assert.equal(textAt(r, 'Pickup', 'Result', 'BOL', 'Items', 'Item', 'Weight'), '1500');
    assert.equal(textAt(r, 'Pickup', 'Result', 'TerminalCode').length > 0, true);
    assert.match(textAt(r, 'Pickup', 'Message'), /scheduled for 11\/20\/2026 between 03:00 PM and 05:00 PM/);
  });

  it('puts the pickup record in the pickup namespace, the reply wrapper in the service namespace', async () => {
    const r = await call(sb.url, PICKUP, pickup(pickupRequest()));
    const p = child(r, 'Pickup')!;
    assert.equal(r.ns, NS_DISTINCT.service);
    assert.equal(p.ns, NS_DISTINCT.service);
    assert.ok(p.children.length > 0 && p.children.every((c) => c.ns === pickupNs), 'Id, WasSuccess, Message, Result in {pickup_namespace}');
    assert.ok(at(p, 'Result')!.children.every((c) => c.ns === pickupNs));
    assert.equal(child(r, 'BolPdf'), undefined, 'no PDF unless asked');
  });

  it('refuses an unknown LinkedBolId in the body', async () => {
    const r = await call(sb.url, PICKUP, pickup(pickupRequest(987654)));
    assert.equal(textAt(r, 'Pickup', 'WasSuccess'), 'false');
    assert.match(textAt(r, 'Pickup', 'Message'), /LinkedBolId 987654 does not match any bill of lading/);
    assert.equal(child(r, 'PickupRequestID'), undefined);
  });

  it('refuses IncludeBolPdf without a linked bill of lading, and a pickup with missing parts', async () => {
    const noLink = await call(sb.url, PICKUP, pickup(pickupRequest(undefined, { pdf: true })));
    assert.match(textAt(noLink, 'Pickup', 'Message'), /IncludeBolPdf needs a LinkedBolId/);
    const empty = await call(sb.url, PICKUP, pickup(el('request', [el('Pickup', [el('Shipper', [el('Name', 'A')])])])));
    assert.equal(textAt(empty, 'Pickup', 'WasSuccess'), 'false');
    const message = textAt(empty, 'Pickup', 'Message');
    for (const part of ['Shipper AddressLine1 is required.', 'Shipper ZipCode is required.', 'PickupInformation is required.'])
      assert.ok(message.includes(part), message);
  });

  it('issues distinct pickup ids that differ from BOL pickup numbers', async () => {
    const withPickup = await call(sb.url, BOL, create(bolRequest({ pickup: true })));
    const a = await call(sb.url, PICKUP, pickup(pickupRequest()));
    const b = await call(sb.url, PICKUP, pickup(pickupRequest()));
    const ids = [textAt(withPickup, 'PickupRequestNumber'), textAt(a, 'PickupRequestID'), textAt(b, 'PickupRequestID')];
    assert.equal(new Set(ids).size, 3, ids.join());
  });
});
