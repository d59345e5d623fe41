/**
 * The whole life of a shipment across bindings: a bill of lading created over SOAP 1.2, its PDF
 * over HTTP GET, labels over HTTP POST, a pickup over SOAP 1.1 with the PDF included, tracing by
 * every reference it carries, and its documents once delivered.
 */
import { strict as assert } from 'node:assert';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import {
  actionOf,
  call,
  child,
  children,
  Clock,
  el,
  envelope,
  http,
  KEY,
  NS_SAME,
  pdfPages,
  pdfTitle,
  soapHeaders,
  soapResult,
  textAt,
  xml,
} from './sandbox-kit';
import { bolRequest, pickupRequest } from './sandbox-requests';

const ns = NS_SAME;

describe('sandbox flow: bill of lading → PDF → labels → pickup → trace → documents', () => {
  const clock = new Clock();
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ namespaces: ns, now: clock.now });
  });
  after(() => sb.close());

  let bolId = 0;
  let pro = '';

  it('creates the bill of lading over SOAP 1.2', async () => {
    const r = await http(`${sb.url}/1.0.1/BillOfLadingService.asmx`, {
      method: 'POST',
      body: envelope('1.2', el('CreateBillOfLading', [el('APIKey', KEY), bolRequest({ po: 'PO-FLOW-77', shipperNumber: 'SH-FLOW-77' })]), ns, 'prefix-every'),
      headers: soapHeaders('1.2', actionOf(ns, 'CreateBillOfLading'), 'quoted'),
    });
    assert.equal(r.status, 200, r.text);
    const result = soapResult(r.text, 'CreateBillOfLading', '1.2');
    assert.equal(textAt(result, 'WasSuccess'), 'true');
    bolId = Number(textAt(result, 'BolID'));
    pro = textAt(result, 'WebProNumber');
    assert.ok(bolId > 1 && /^\d{9}$/.test(pro));
  });

  it('prints that bill of lading over HTTP GET', async () => {
    const r = await http(`${sb.url}/sandbox/BillOfLadingService.asmx/GetBillOfLadingPdf?APIKey=${KEY}&billOfLadingId=${bolId}`);
    assert.equal(r.status, 200, r.text);
    const pdf = textAt(xml(r.text), 'PdfDocument');
    assert.ok((await pdfPages(pdf)) >= 1);
    assert.equal(await pdfTitle(pdf), `Bill of Lading ${bolId}`);
  });

  it('prints its labels over HTTP POST', async () => {
    const r = await http(`${sb.url}/sandbox/BillOfLadingService.asmx/GetBillOfLadingLabelPDF`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ APIKey: KEY, billOfLadingId: String(bolId), style: 'STYLE_1', startPosition: '1', numLabels: '2' }).toString(),
    });
    assert.equal(r.status, 200, r.text);
    const pdf = textAt(xml(r.text), 'PdfDocument');
    assert.equal(await pdfPages(pdf), 2, 'STYLE_1 is one label per page');
    assert.match(await pdfTitle(pdf), new RegExp(pro));
  });

  it('asks for a pickup over SOAP 1.1 and gets the bill of lading PDF back', async () => {
    const r = await call(sb.url, '/1.0.3/PickupRequestService.asmx', el('CreatePickupRequest', [el('APIKey', KEY), pickupRequest(bolId, { pdf: true })]), ns);
    assert.equal(textAt(r, 'Pickup', 'WasSuccess'), 'true', textAt(r, 'Pickup', 'Message'));
    assert.equal(await pdfTitle(textAt(r, 'BolPdf')), `Bill of Lading ${bolId}`);
  });

  it('traces it over SOAP 1.1 by PRO, BolID, PO, shipper number and quote number', async () => {
    const lookups: Array<[string, string]> = [
      ['PRO', pro],
      ['BOL', String(bolId)],
      ['PO', 'PO-FLOW-77'],
      ['CustomerPO', 'po-flow-77'],
      ['Order', 'SH-FLOW-77'],
      ['CustomerOrder', 'SH-FLOW-77'],
      ['Reference', 'SH-FLOW-77'],
      ['Reference', 'PO-FLOW-77'],
      ['Sales', '7301122'],
    ];
    for (const [type, number] of lookups) {
      const r = await call(
        sb.url,
        '/1.0.2/ShipmentTracingService.asmx',
        el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', number)]), el('TraceType', type)])]),
        ns,
      );
      const found = children(child(r, 'Result'), 'Shipment').map((s) => textAt(s, 'ShipmentNumber'));
      assert.ok(found.includes(pro), `${type} ${number} → ${found.join()}`);
    }
  });

  it("is scheduled for pickup on the pickup request's day, with no documents yet", async () => {
    const r = await call(
      sb.url,
      '/1.0.2/ShipmentTracingService.asmx',
      el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', pro)]), el('TraceType', 'PRO'), el('FormatResults', 'true')])]),
      ns,
    );
    const shipment = child(child(r, 'Result'), 'Shipment');
    assert.equal(textAt(shipment, 'ShortStatus'), 'Pickup Scheduled');
    // The BOL is dated 11/19; the pickup that links it is on 11/20, ready at 3 PM.
    assert.equal(textAt(shipment, 'ShipmentDates', 'PickupDate'), '11/20/2026 04:00 PM');
    const types = await call(sb.url, '/1.0.0/DocumentRetrievalService.asmx', el('GetDocumentTypes', [el('APIKey', KEY), el('ProNumber', pro)]), ns);
    assert.deepEqual(
      children(child(types, 'AvailableDocumentTypes'), 'DocumentType').map((t) => t.text),
      [],
    );
  });

  it('two weeks later is delivered, and its documents are real PDFs of this shipment', async () => {
    clock.advanceHours(14 * 24);
    const r = await call(
      sb.url,
      '/1.0.2/ShipmentTracingService.asmx',
      el('TraceShipment', [el('APIKey', KEY), el('request', [el('TraceNumbers', [el('string', pro)]), el('TraceType', 'PRO')])]),
      ns,
    );
    assert.equal(textAt(child(child(r, 'Result'), 'Shipment'), 'ShortStatus'), 'Delivered');
    const docs = await call(
      sb.url,
      '/1.0.3/DocumentRetrievalService.asmx',
      el('GetDocuments', [el('APIKey', KEY), el('ProNumber', pro), el('documentTypes', [])]),
      ns,
    );
    const available = children(child(docs, 'AvailableDocumentTypes'), 'DocumentType').map((t) => t.text);
    for (const t of ['BillOfLading', 'Invoice', 'DeliveryReceipt']) assert.ok(available.includes(t), available.join());
    const archive = children(child(docs, 'Documents'), 'ArchiveDocument');
    assert.equal(archive.length, available.length, 'no documentTypes means every available one');
    const titles = await Promise.all(archive.map((d) => pdfTitle(textAt(d, 'DocumentData'))));
    assert.equal(titles[0], `Bill of Lading ${bolId}`);
    assert.ok(
      titles.slice(1).every((t) => t.includes(pro)),
      titles.join(' | '),
    );
  });
});
