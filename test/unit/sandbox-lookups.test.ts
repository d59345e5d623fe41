/**
 * TraceShipment over the seeded history as time passes, GetTransitTimes over weekends and
 * holidays, GetTerminalInformation, GetHazmatDescription, the document archive and the PDFs.
 */
import { strict as assert } from 'node:assert';
import { addBusinessDays, isBusinessDay } from '../../src/core/calendar';
import { seededShipments } from '../../src/sandbox/history/seeded';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { at, call, callFault, child, children, Clock, el, KEY, messagesOf, NS_DISTINCT, pdfPages, textAt, type Node } from './sandbox-kit';

const TRACE = '/1.0.2/ShipmentTracingService.asmx';
const TRANSIT = '/1.0.0/TransitTimesService.asmx';
const DOCS0 = '/1.0.0/DocumentRetrievalService.asmx';
const DOCS3 = '/1.0.3/DocumentRetrievalService.asmx';
const SBOL = '/sandbox/BillOfLadingService.asmx';

const trace = (numbers: string[], type = 'PRO', extra: Node[] = []) =>
  el('TraceShipment', [
    el('APIKey', KEY),
    el('request', [
      el(
        'TraceNumbers',
        numbers.map((n) => el('string', n)),
      ),
      el('TraceType', type),
      ...extra,
    ]),
  ]);

const transit = (date: string, destinations: Array<[string, string, string?]>, origin: [string, string] = ['37029', 'USA']) =>
  el('GetTransitTimes', [
    el('APIKey', KEY),
    el('input', [
      el('DateOfPickup', date),
      el('OriginPoint', [el('d:ZipOrPostalCode', origin[0]), el('d:CountryCode', origin[1])]),
      el('Destinations', [
        el(
          'd:DestinationPoint',
          destinations.map(([zip, country, state]) =>
            el('d:ServicePoint', [...(state ? [el('d:StateOrProvince', state)] : []), el('d:ZipOrPostalCode', zip), el('d:CountryCode', country)]),
          ),
        ),
      ]),
    ]),
  ]);

describe('sandbox TraceShipment', () => {
  it('moves a seeded shipment through scheduled, picked up, in transit, out for delivery and delivered as the clock advances', async () => {
    const clock = new Clock();
    const shipment = seededShipments(clock.now())[1]!;
    const sb = await startSandbox({ now: clock.now });
    try {
      const seen: string[] = [];
      const times = [clock.now(), ...shipment.events.map((e) => new Date(e.at.getTime() + 60_000))];
      for (const t of times) {
        clock.current = t;
        const s = child(child(await call(sb.url, TRACE, trace([shipment.proNumber])), 'Result'), 'Shipment')!;
        const status = textAt(s, 'ShortStatus');
        if (seen[seen.length - 1] !== status) seen.push(status);
      }
      assert.deepEqual(seen, ['Pickup Scheduled', 'Picked Up', 'In Transit', 'Out For Delivery', 'Delivered']);
    } finally {
      await sb.close();
    }
  });

  describe('at one moment', () => {
    const clock = new Clock();
    const history = seededShipments(clock.now());
    let sb: SandboxHandle;
    before(async () => {
      sb = await startSandbox({ now: clock.now });
    });
    after(() => sb.close());

    it('shows exceptions (consignee closed, refused) with a long status that says why', async () => {
      const closed = history.find(
        (s) =>
          s.exception === 'ConsigneeClosed' &&
          s.events.some((e) => e.code === 'EX' && e.at <= clock.now() && e.at.getTime() > clock.now().getTime() - 6 * 3_600_000),
      )!;
      const s = child(child(await call(sb.url, TRACE, trace([closed.proNumber])), 'Result'), 'Shipment')!;
      assert.equal(textAt(s, 'ShortStatus'), 'Exception');
      assert.match(textAt(s, 'LongStatus'), /consignee closed|Returned to/);
    });

    it('answers a number that matches nothing with a Shipment carrying ErrorMessage', async () => {
      const r = await call(sb.url, TRACE, trace(['999999999', '056391174']));
      const [missing, found] = children(child(r, 'Result'), 'Shipment');
      assert.equal(textAt(missing, 'ShipmentNumber'), '999999999');
      assert.equal(textAt(missing, 'ErrorMessage'), 'No shipment found for PRO number 999999999.');
      assert.equal(textAt(found, 'ErrorMessage'), '');
    });

    it('finds seeded shipments by every kind of reference number they carry', async () => {
      const s = history[5]!;
      for (const type of ['PRO', 'BOL', 'Job', 'Manifest', 'PO', 'Sales', 'Account', 'CustomerOrder', 'CustomerPO', 'Lot', 'Order', 'Reference'] as const) {
        const r = await call(sb.url, TRACE, trace([s.references[type]], type));
        const pros = children(child(r, 'Result'), 'Shipment').map((x) => textAt(x, 'ShipmentNumber'));
        assert.ok(pros.includes(s.proNumber), `${type} ${s.references[type]} → ${pros.join()}`);
      }
      const byBolId = await call(sb.url, TRACE, trace(['1'], 'BOL'));
      assert.equal(textAt(child(child(byBolId, 'Result'), 'Shipment'), 'ShipmentNumber'), '056391174', 'BolID 1 is the sample shipment');
      const noZero = await call(sb.url, TRACE, trace(['56391174']));
      assert.equal(textAt(child(child(noZero, 'Result'), 'Shipment'), 'ShipmentNumber'), '056391174', 'a PRO without its leading zero');
    });

    it('formats dates and weights only with FormatResults, and lists the status history', async () => {
      const formatted = child(child(await call(sb.url, TRACE, trace(['056391174'], 'PRO', [el('FormatResults', 'true')])), 'Result'), 'Shipment')!;
      const raw = child(child(await call(sb.url, TRACE, trace(['056391174'], 'PRO', [el('FormatResults', 'false')])), 'Result'), 'Shipment')!;
      assert.match(textAt(formatted, 'ShipmentDates', 'DeliveryDate'), /^\d\d\/\d\d\/\d{4} \d\d:\d\d [AP]M$/);
      assert.match(textAt(raw, 'ShipmentDates', 'DeliveryDate'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      assert.match(textAt(formatted, 'Weight'), /^[\d,]+ lb$/);
      assert.match(textAt(raw, 'Weight'), /^\d+$/);
      const events = children(child(formatted, 'StatusHistory'), 'StatusEvent');
      assert.ok(events.length >= 4);
      assert.equal(textAt(events[events.length - 1], 'Code'), 'DL');
      assert.equal(textAt(formatted, 'ShortStatus'), 'Delivered');
    });

    it('speaks in the IVR format: short words, spaced digits, no history tables', async () => {
      const s = child(child(await call(sb.url, TRACE, trace(['056391174'], 'PRO', [el('OutputFormat', 'IVR')])), 'Result'), 'Shipment')!;
      assert.equal(textAt(s, 'ShortStatus'), 'Delivered');
      assert.match(
        textAt(s, 'LongStatus'),
        /^Pro number 0 5 6 3 9 1 1 7 4 was delivered on (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [A-Z][a-z]+ \d{1,2} at \d{1,2}:\d\d [AP]M\.$/,
      );
      assert.match(textAt(s, 'Weight'), /^\d+ pounds$/);
      assert.equal(child(s, 'StatusHistory'), undefined);
      assert.equal(child(s, 'Parties'), undefined);
      const missing = child(child(await call(sb.url, TRACE, trace(['1'], 'PRO', [el('OutputFormat', 'IVR')])), 'Result'), 'Shipment')!;
      assert.equal(textAt(missing, 'ErrorMessage'), 'We could not find a shipment with that number.');
    });

    it('puts every Shipment child in {data_namespace}', async () => {
      const s = child(child(await call(sb.url, TRACE, trace(['056391174'])), 'Result'), 'Shipment')!;
      assert.equal(s.ns, NS_DISTINCT.service);
      assert.ok(s.children.every((c) => c.ns === NS_DISTINCT.data));
    });

    it("hides a blind shipment's shipper unless IncludeBlind", async () => {
      const blind = history.find((s) => s.blind);
      assert.ok(blind, 'the history has a blind shipment');
      const hidden = child(child(await call(sb.url, TRACE, trace([blind.proNumber])), 'Result'), 'Shipment')!;
      const shown = child(child(await call(sb.url, TRACE, trace([blind.proNumber], 'PRO', [el('IncludeBlind', 'true')])), 'Result'), 'Shipment')!;
      assert.equal(textAt(hidden, 'Blind'), 'Y');
      assert.equal(textAt(hidden, 'Parties', 'Shipper', 'Name'), 'BLIND SHIPMENT');
      assert.equal(textAt(shown, 'Parties', 'Shipper', 'Name'), blind.shipper.Name);
    });
  });
});

describe('sandbox GetTransitTimes, GetTerminalInformation, GetHazmatDescription', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ now: new Clock().now });
  });
  after(() => sb.close());

  it('counts business days only: Thanksgiving and the day after are skipped and named', async () => {
    const r = await call(sb.url, TRANSIT, transit('2026-11-25T00:00:00', [['33635', 'USA']]));
    const d = child(at(r, 'Result', 'Destinations'), 'Destination')!;
    const days = Number(textAt(d, 'ServiceDays'));
    const expected = addBusinessDays(new Date(Date.UTC(2026, 10, 25)), days);
    assert.equal(textAt(d, 'DeliveryDate'), `${expected.toISOString().slice(0, 10)}T00:00:00`);
    assert.ok(expected.getTime() >= Date.UTC(2026, 10, 30), 'no delivery on Thanksgiving, the day after or the weekend');
    assert.match(textAt(d, 'DestinationNotes'), /Thanksgiving Day \(11\/26\/2026\), Day after Thanksgiving \(11\/27\/2026\)/);
  });

  it('moves a weekend pickup to Monday and says so', async () => {
    const r = await call(sb.url, TRANSIT, transit('2026-11-21T00:00:00', [['33635', 'USA']]));
    assert.equal(textAt(r, 'Result', 'PickupDate'), '2026-11-23T00:00:00');
    const d = child(at(r, 'Result', 'Destinations'), 'Destination')!;
    assert.match(textAt(d, 'DestinationNotes'), /Pickup moved from 11\/21\/2026 to 11\/23\/2026/);
    assert.ok(isBusinessDay(new Date(textAt(d, 'DeliveryDate') + 'Z')));
  });

  it('answers each destination with service days, levels and its service center; a bad one gets its own error', async () => {
    const r = await call(
      sb.url,
      TRANSIT,
      transit('2026-11-19T00:00:00', [
        ['33635', 'USA'],
        ['00000', 'USA'],
        ['98108', 'USA'],
        ['45414', 'USA', 'FL'],
      ]),
    );
    const ds = children(at(r, 'Result', 'Destinations'), 'Destination');
    assert.equal(ds.length, 4);
    assert.ok(Number(textAt(ds[2], 'ServiceDays')) > Number(textAt(ds[0], 'ServiceDays')), 'Seattle is farther than Tampa');
    assert.ok(textAt(ds[0], 'ServiceCenterInfo', 'ServiceCenterCode'));
    assert.deepEqual(
      children(child(ds[0], 'ServiceLevels'), 'ServiceLevel').map((l) => textAt(l, 'ServiceLevelCode')),
      ['STD', 'GSDS', 'GSAM', 'GSHW', 'EXPD'],
    );
    assert.equal(textAt(ds[1], 'Result', 'Level'), 'Error');
    assert.match(textAt(ds[1], 'Result', 'Message'), /00000 is not a valid postal code/);
    assert.equal(textAt(ds[1], 'ServiceDays'), '0');
    assert.match(textAt(ds[3], 'DestinationNotes'), /StateOrProvince FL does not match ZIP 45414 \(OH\)/, "the .NET client's wrong-state bug is flagged");
    assert.equal(textAt(r, 'Result', 'Origin', 'OriginPoint', 'StateOrProvince'), 'TN');
  });

  it('puts Result in {service_namespace} and everything inside it in {data_namespace}', async () => {
    const r = await call(sb.url, TRANSIT, transit('2026-11-19T00:00:00', [['33635', 'USA']]));
    const result = child(r, 'Result')!;
    assert.equal(result.ns, NS_DISTINCT.service);
    assert.ok(result.children.every((c) => c.ns === NS_DISTINCT.data));
  });

  it('fails the whole request for a bad origin or a missing date', async () => {
    const r = await call(
      sb.url,
      TRANSIT,
      el('GetTransitTimes', [el('APIKey', KEY), el('input', [el('OriginPoint', [el('d:ZipOrPostalCode', '37029')]), el('Destinations', [])])]),
    );
    assert.equal(textAt(r, 'WasSuccess'), 'false');
    assert.deepEqual(messagesOf(r), [
      'DateOfPickup is required.',
      'OriginPoint CountryCode is required.',
      'At least one destination ServicePoint is required.',
    ]);
  });

  it("faults a DateOfPickup that is not an xs:dateTime (the carrier's own 1.0.2 took MM/DD/YYYY)", async () => {
    const f = await callFault(sb.url, TRANSIT, transit('11/20/2026', [['33635', 'USA']]));
    assert.match(f.reason, /DateOfPickup.*not an xs:dateTime/);
  });

  it('finds the terminals serving a US ZIP and a Canadian postal code; refuses one that does not exist', async () => {
    const ne = await call(
      sb.url,
      '/1.0.2/TerminalInformationService.asmx',
      el('GetTerminalInformation', [el('APIKey', KEY), el('ZipCode', '68507'), el('CountryCode', 'USA')]),
    );
    const infos = children(child(ne, 'Result'), 'TerminalInfo');
    assert.equal(infos.length, 3);
    assert.equal(textAt(infos[0], 'TerminalDetails', 'TerminalMailingState'), 'NE');
    const ca = await call(
      sb.url,
      '/1.0.2/TerminalInformationService.asmx',
      el('GetTerminalInformation', [el('APIKey', KEY), el('ZipCode', 'M9W 1H1'), el('CountryCode', 'CAN')]),
    );
    assert.equal(textAt(child(child(ca, 'Result'), 'TerminalInfo'), 'TerminalDetails', 'TerminalMailingCountry'), 'CAN');
    const f = await callFault(
      sb.url,
      '/1.0.2/TerminalInformationService.asmx',
      el('GetTerminalInformation', [el('APIKey', KEY), el('ZipCode', '00000'), el('CountryCode', 'USA')]),
    );
    assert.equal(f.code, 'soap:Client');
    assert.match(f.reason, /00000 is not a valid ZIP or postal code for USA/);
  });

  it('looks up hazmat entries by UN number with or without the prefix; an unlisted number is an empty list', async () => {
    const get = (n: string) => call(sb.url, SBOL, el('GetHazmatDescription', [el('APIKey', KEY), el('UNNANumber', n)]));
    const a = children(child(await get('UN1203'), 'UNNAList'), 'UNorNA');
    const b = children(child(await get('1203'), 'UNNAList'), 'UNorNA');
    assert.deepEqual(
      a.map((e) => textAt(e, 'Description')),
      b.map((e) => textAt(e, 'Description')),
    );
    assert.equal(textAt(a[0], 'Description'), 'Gasoline');
    assert.equal(children(child(await get('UN0000'), 'UNNAList'), 'UNorNA').length, 0);
    const f = await callFault(sb.url, SBOL, el('GetHazmatDescription', [el('APIKey', KEY), el('UNNANumber', 'gasoline')]));
    assert.match(f.reason, /is not a UN or NA number/);
  });
});

describe('sandbox documents and PDFs', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ now: new Clock().now });
  });
  after(() => sb.close());

  it('lists the archive of a delivered PRO, delivery receipt included, and returns each as a real PDF', async () => {
    const types = await call(sb.url, DOCS0, el('GetDocumentTypes', [el('APIKey', KEY), el('ProNumber', '056391174')]));
    const available = children(child(types, 'AvailableDocumentTypes'), 'DocumentType').map((t) => t.text);
    assert.ok(available.includes('DeliveryReceipt'));
    assert.deepEqual(
      children(child(types, 'Documents'), 'ArchiveDocument').map((d) => textAt(d, 'DocumentName')),
      available.map((t) => `${t}_056391174.pdf`),
    );
    const docs = await call(
      sb.url,
      DOCS3,
      el('GetDocuments', [
        el('APIKey', KEY),
        el('ProNumber', '056391174'),
        el(
          'documentTypes',
          available.map((t) => el('DocumentType', t)),
        ),
      ]),
    );
    const archive = children(child(docs, 'Documents'), 'ArchiveDocument');
    assert.equal(archive.length, available.length);
    for (const d of archive) assert.ok((await pdfPages(textAt(d, 'DocumentData'))) >= 1, textAt(d, 'DocumentName'));
  });

  it('has no delivery receipt for freight not yet delivered', async () => {
    const clock = new Clock();
    const pending = seededShipments(clock.now()).find(
      (s) => s.events.some((e) => e.code === 'PU' && e.at <= clock.now()) && !(s.deliveredAt && s.deliveredAt <= clock.now()),
    )!;
    const types = await call(sb.url, DOCS0, el('GetDocumentTypes', [el('APIKey', KEY), el('ProNumber', pending.proNumber)]));
    const available = children(child(types, 'AvailableDocumentTypes'), 'DocumentType').map((t) => t.text);
    assert.ok(available.includes('BillOfLading'));
    assert.ok(!available.includes('DeliveryReceipt'));
    const docs = await call(
      sb.url,
      DOCS3,
      el('GetDocuments', [el('APIKey', KEY), el('ProNumber', pending.proNumber), el('documentTypes', [el('DocumentType', 'DeliveryReceipt')])]),
    );
    assert.equal(children(child(docs, 'Documents'), 'ArchiveDocument').length, 0, 'asking for it gives nothing');
  });

  it('refuses an unknown PRO with a client fault', async () => {
    const f = await callFault(sb.url, DOCS0, el('GetDocumentTypes', [el('APIKey', KEY), el('ProNumber', '000000001')]));
    assert.equal(f.code, 'soap:Client');
    assert.match(f.reason, /No shipment with ProNumber 000000001/);
  });

  it('refuses an unknown bill of lading and impossible label requests with client faults', async () => {
    const label = (id: string, style: string, start: string, count: string) =>
      el('GetBillOfLadingLabelPDF', [el('APIKey', KEY), el('billOfLadingId', id), el('style', style), el('startPosition', start), el('numLabels', count)]);
    const cases: Array<[Node, RegExp]> = [
      [el('GetBillOfLadingPdf', [el('APIKey', KEY), el('billOfLadingId', '31337')]), /No bill of lading with billOfLadingId 31337/],
      [el('GetBillOfLadingPdf', [el('APIKey', KEY)]), /No bill of lading with billOfLadingId \(missing\)/],
      [label('1', 'STYLE_99', '1', '1'), /Unknown label style "STYLE_99"/],
      [label('1', 'STYLE_4', '7', '1'), /startPosition must be between 1 and 6 for STYLE_4/],
      [label('1', 'STYLE_1', '2', '1'), /startPosition must be 1 for STYLE_1/],
      [label('1', 'STYLE_4', '1', '0'), /numLabels must be between 1 and 100/],
      [label('1', 'STYLE_4', '1', '101'), /numLabels must be between 1 and 100/],
      [label('404', 'STYLE_4', '1', '1'), /No bill of lading/],
    ];
    for (const [wrapper, reason] of cases) {
      const f = await callFault(sb.url, SBOL, wrapper);
      assert.equal(f.code, 'soap:Client');
      assert.match(f.reason, reason);
    }
  });

  it('prints labels across sheets from the start position', async () => {
    const r = await call(
      sb.url,
      SBOL,
      el('GetBillOfLadingLabelPDF', [el('APIKey', KEY), el('billOfLadingId', '1'), el('style', 'STYLE_4'), el('startPosition', '4'), el('numLabels', '6')]),
    );
    assert.equal(await pdfPages(textAt(r, 'PdfDocument')), 2, 'positions 4-6 on the first sheet, 1-3 on the second');
  });
});
