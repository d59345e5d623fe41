/**
 * The generated WSDL: what it declares (checked by reading it) and that a WSDL-driven SOAP
 * library builds a working client from it for every service path and calls every operation.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- node-soap builds its clients from the WSDL at run time: they have no static type */
import { strict as assert } from 'node:assert';
import * as soap from 'soap';
import { servicePaths, shapesAtPath } from '../../src/core/catalog';
import type { XmlElement } from '../../src/core/xml/dom';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { children, Clock, http, KEY, NS_DISTINCT, NS_SAME, pdfPages, xml } from './sandbox-kit';

const WSDL = 'http://schemas.xmlsoap.org/wsdl/';
const XS = 'http://www.w3.org/2001/XMLSchema';

const wsdlChildren = (root: XmlElement, local: string) => root.children.filter((c) => c.ns === WSDL && c.local === local);
const attr = (el: XmlElement | undefined, name: string) => el?.attrs.find((a) => a.local === name && !a.ns)?.value;

function schemas(root: XmlElement): XmlElement[] {
  return wsdlChildren(root, 'types').flatMap((t) => t.children.filter((c) => c.ns === XS && c.local === 'schema'));
}

function typeNamed(root: XmlElement, kind: 'complexType' | 'simpleType', name: string): XmlElement | undefined {
  for (const s of schemas(root)) {
    const t = s.children.find((c) => c.local === kind && attr(c, 'name') === name);
    if (t) return t;
  }
  return undefined;
}

function sequenceOf(type: XmlElement | undefined): XmlElement[] {
  return children(children(type, 'sequence')[0], 'element');
}

/** Arguments for every SOAP operation, as a WSDL-driven client fills them (plain objects). */
const ARGS: Record<string, Record<string, unknown>> = {
  GetTerminalInformation: { APIKey: KEY, ZipCode: '68507', CountryCode: 'USA', CustomerData: 'node-soap' },
  GetDocumentTypes: { APIKey: KEY, ProNumber: '056391174' },
  GetDocuments: { APIKey: KEY, ProNumber: '056391174', documentTypes: { DocumentType: ['Invoice'] } },
  GetHazmatDescription: { APIKey: KEY, UNNANumber: 'UN1203' },
  GetBillOfLadingLabelPDF: { APIKey: KEY, billOfLadingId: 1, style: 'STYLE_4', startPosition: 1, numLabels: 1 },
  GetBillOfLadingPdf: { APIKey: KEY, billOfLadingId: 1 },
  CreateBillOfLading: {
    APIKey: KEY,
    request: {
      BillOfLading: {
        BOLDate: '11/19/2026',
        Shipper: {
          Name: 'Volunteer Plastics Inc',
          EmailAddress: 'ship@volunteer.example',
          AddressLine1: '401 Industrial Dr',
          ISO3Country: 'USA',
          ZipCode: '37029',
          City: 'Burns',
          State: 'TN',
          PhoneNumber: '615-555-0101',
        },
        Consignee: {
          Name: 'Gulf Coast Supply',
          AddressLine1: '5000 W Linebaugh Ave',
          ISO3Country: 'USA',
          ZipCode: '33635',
          City: 'Tampa',
          State: 'FL',
          Attention: 'Receiving',
        },
        AdditionalServices: { BOLAccessorial: ['DestinationLiftgate'] },
        ServiceLevel: 'StandardService',
        Items: { Item: [{ IsHazmat: false, Pieces: 2, PackageType: 'PLT', Class: '85', Weight: 1500, Description: 'Plastic containers' }] },
        ReferenceNumbers: { ShipperNumber: 'SH-1', PONumber: 'PO-1' },
        FreightChargePaymentMethod: 'Prepaid',
      },
      AddPickupRequest: false,
    },
  },
  'GetRateQuote 1.0.0': {
    APIKey: KEY,
    request: {
      QuoteType: 'Domestic',
      CODAmount: 0,
      Origin: { ZipOrPostalCode: '37029', CountryCode: 'USA' },
      Destination: { ZipOrPostalCode: '33635', CountryCode: 'USA' },
      HandlingUnits: { HandlingUnit: [{ Class: '50', Weight: 1000 }] },
      DeclaredValue: 0,
    },
  },
  'GetRateQuote 1.0.1': {
    APIKey: KEY,
    request: {
      QuoteType: 'Domestic',
      CODAmount: 0,
      Origin: { ZipOrPostalCode: '66227', CountryCode: 'USA' },
      Destination: { ZipOrPostalCode: '71671', CountryCode: 'USA' },
      Items: { Item: [{ Class: '70', Weight: 800, Width: 0, Height: 0, Length: 0 }] },
      DeclaredValue: 1,
      Accessorials: { Accessorial: ['ResidentialDelivery'] },
      OverDimensionPcs: 0,
    },
  },
  'GetRateQuote 1.0.3': {
    APIKey: KEY,
    request: {
      QuoteType: 'Domestic',
      Origin: { ZipOrPostalCode: '37029', CountryCode: 'USA' },
      Destination: { ZipOrPostalCode: '33635', CountryCode: 'USA' },
      Items: { Item: [{ Class: '50.0', Weight: 1500, Width: 48, Height: 40, Length: 48 }] },
      DeclaredValue: 0,
      Accessorials: { RQAccessorial: ['DestinationLiftgate'] },
    },
  },
  CreatePickupRequest: {
    APIKey: KEY,
    request: {
      Pickup: {
        Shipper: {
          Name: 'Volunteer Plastics Inc',
          AddressLine1: '401 Industrial Dr',
          ISO3Country: 'USA',
          ZipCode: '37029',
          City: 'Burns',
          State: 'TN',
          PhoneNumber: '615-555-0101',
        },
        PickupInformation: { PickupDate: '11/20/2026', ReadyTime: '03:00 PM', CloseTime: '05:00 PM' },
        ServiceOptions: { PURAccessorial: ['LiftGate'] },
        // Set per sandbox to a bill of lading created there: bill of lading 1 is delivered, and
        // linking a delivered one is refused (issue 19).
        LinkedBolId: 0,
      },
      IncludeBol: true,
      IncludeBolPdf: true,
    },
  },
  TraceShipment: { APIKey: KEY, request: { TraceNumbers: { string: ['056391174', 'nope'] }, TraceType: 'PRO', OutputFormat: 'Standard' } },
  GetTransitTimes: {
    APIKey: KEY,
    input: {
      DateOfPickup: '2026-11-20T00:00:00',
      OriginPoint: { City: 'Lincoln', ZipOrPostalCode: '68507', CountryCode: 'USA' },
      Destinations: { DestinationPoint: { ServicePoint: [{ ZipOrPostalCode: '33635', CountryCode: 'USA' }] } },
    },
  },
};

type Args = { APIKey: string; request: { Pickup: Record<string, unknown> } & Record<string, unknown> };

/** The pickup's arguments, linked to a bill of lading created for it in the same sandbox (same shipper). */
async function linkedToNewBol(url: string, args: Args): Promise<Args> {
  const client = await soap.createClientAsync(`${url}/1.0.1/BillOfLadingService.asmx?WSDL`);
  const port = (client as any).BillOfLadingService.BillOfLadingServiceSoap;
  const created = await new Promise<any>((resolve, reject) =>
    port.CreateBillOfLading(ARGS.CreateBillOfLading, (err: Error | null, res: unknown) => (err ? reject(err) : resolve(res))),
  );
  return { ...args, request: { ...args.request, Pickup: { ...args.request.Pickup, LinkedBolId: Number(created.CreateBillOfLadingResult.BolID) } } };
}

/** What a successful reply holds, as node-soap parses it. */
const CHECKS: Record<string, (r: any) => Promise<void> | void> = {
  GetTerminalInformation: (r) => assert.ok(r.GetTerminalInformationResult.Result.TerminalInfo.length >= 1),
  GetDocumentTypes: (r) => assert.ok(r.GetDocumentTypesResult.AvailableDocumentTypes.DocumentType.includes('Invoice')),
  GetDocuments: async (r) => assert.ok((await pdfPages(r.GetDocumentsResult.Documents.ArchiveDocument[0].DocumentData)) >= 1),
  GetHazmatDescription: (r) => assert.equal(r.GetHazmatDescriptionResult.UNNAList.UNorNA[0].Description, 'Gasoline'),
  GetBillOfLadingLabelPDF: async (r) => assert.equal(await pdfPages(r.GetBillOfLadingLabelPDFResult.PdfDocument), 1),
  GetBillOfLadingPdf: async (r) => assert.ok((await pdfPages(r.GetBillOfLadingPdfResult.PdfDocument)) >= 1),
  CreateBillOfLading: (r) => {
    assert.equal(r.CreateBillOfLadingResult.WasSuccess, true, JSON.stringify(r.CreateBillOfLadingResult.Messages));
    assert.match(r.CreateBillOfLadingResult.WebProNumber, /^\d{9}$/);
  },
  GetRateQuote: (r) => {
    assert.equal(r.GetRateQuoteResult.WasSuccess, true, JSON.stringify(r.GetRateQuoteResult.Messages));
    assert.equal(r.GetRateQuoteResult.Result.ServiceLevels.ServiceLevel[0].Code, 'STD');
  },
  CreatePickupRequest: async (r) => {
    assert.equal(r.CreatePickupRequestResult.Pickup.WasSuccess, true, r.CreatePickupRequestResult.Pickup.Message);
    assert.ok((await pdfPages(r.CreatePickupRequestResult.BolPdf)) >= 1);
  },
  TraceShipment: (r) => {
    const s = r.TraceShipmentResult.Result.Shipment;
    assert.equal(s[0].ShortStatus, 'Delivered');
    assert.match(s[1].ErrorMessage, /No shipment found/);
  },
  GetTransitTimes: (r) => {
    assert.equal(r.GetTransitTimesResult.WasSuccess, true, JSON.stringify(r.GetTransitTimesResult.Messages));
    assert.ok(r.GetTransitTimesResult.Result.Destinations.Destination[0].ServiceDays >= 1);
  },
};

for (const [label, ns] of [
  ['distinct namespaces', NS_DISTINCT],
  ['one namespace for every role', NS_SAME],
] as const) {
  describe(`sandbox WSDL with node-soap (${label})`, () => {
    let sb: SandboxHandle;
    before(async () => {
      sb = await startSandbox({ namespaces: ns, now: new Clock().now });
    });
    after(() => sb.close());

    for (const [path, shapes] of servicePaths()) {
      it(`builds a client from ${path}?WSDL and calls ${shapes.map((s) => s.operation).join(', ')} over SOAP 1.1`, async () => {
        const client = await soap.createClientAsync(`${sb.url}${path}?WSDL`);
        const service = shapes[0]!.service;
        const port = (client as any)[service][`${service}Soap`];
        for (const op of shapes) {
          let args = ARGS[`${op.operation} ${op.version}`] ?? ARGS[op.operation];
          if (op.operation === 'CreatePickupRequest') args = await linkedToNewBol(sb.url, args as Args);
          const result = await new Promise<any>((resolve, reject) =>
            port[op.operation](args, (err: Error | null, res: unknown) => (err ? reject(err) : resolve(res))),
          );
          await CHECKS[op.operation]!(result);
          // node-soap put every element where the schema says: nothing was left unbound.
          assert.equal(
            client.lastResponseHeaders?.['x-carrier-sandbox-ignored'],
            undefined,
            `${op.operation}: ${client.lastResponseHeaders?.['x-carrier-sandbox-ignored']}`,
          );
        }
      });
    }

    it('calls over SOAP 1.2 with forceSoap12Headers', async () => {
      const client = await soap.createClientAsync(`${sb.url}/1.0.2/ShipmentTracingService.asmx?WSDL`, { forceSoap12Headers: true });
      const port = (client as any).ShipmentTracingService.ShipmentTracingServiceSoap12;
      const result = await new Promise<any>((resolve, reject) =>
        port.TraceShipment(ARGS.TraceShipment, (err: Error | null, res: unknown) => (err ? reject(err) : resolve(res))),
      );
      CHECKS.TraceShipment!(result);
      assert.match(String(client.lastRequest), /http:\/\/www\.w3\.org\/2003\/05\/soap-envelope/);
      assert.match(String(client.lastResponseHeaders?.['content-type']), /^application\/soap\+xml; charset=utf-8/);
    });
  });
}

describe('sandbox WSDL content', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ namespaces: NS_DISTINCT });
  });
  after(() => sb.close());
  const get = async (path: string, query = '?WSDL') => {
    const r = await http(`${sb.url}${path}${query}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.contentType, 'text/xml; charset=utf-8');
    return { text: r.text, root: xml(r.text) };
  };

  it('answers ?WSDL in any case, the same document each time', async () => {
    const variants = await Promise.all(['?WSDL', '?wsdl', '?Wsdl'].map((q) => get('/1.0.3/RateQuoteService.asmx', q)));
    assert.equal(variants[1]!.text, variants[0]!.text);
    assert.equal(variants[2]!.text, variants[0]!.text);
  });

  for (const [path] of servicePaths()) {
    it(`${path}: exactly its operations, SOAP 1.1 and 1.2 bindings, HTTP bindings where offered`, async () => {
      const { root } = await get(path);
      const shapes = shapesAtPath(path);
      const service = shapes[0]!.service;
      assert.equal(attr(root, 'targetNamespace'), NS_DISTINCT.service);
      const soapPort = wsdlChildren(root, 'portType').find((p) => attr(p, 'name') === `${service}Soap`)!;
      assert.deepEqual(
        children(soapPort, 'operation').map((o) => attr(o, 'name')),
        shapes.map((s) => s.operation),
      );
      const bindings = wsdlChildren(root, 'binding').map((b) => attr(b, 'name'));
      const expected = [`${service}Soap`, `${service}Soap12`];
      if (shapes.some((s) => s.bindings.includes('get'))) expected.push(`${service}HttpGet`);
      if (shapes.some((s) => s.bindings.includes('post'))) expected.push(`${service}HttpPost`);
      assert.deepEqual(bindings, expected);
      const ports = children(wsdlChildren(root, 'service')[0], 'port');
      assert.deepEqual(
        ports.map((p) => attr(p, 'name')),
        expected,
      );
      assert.equal(attr(ports[0]!.children[0], 'location'), `${sb.url}${path}`);
      for (const s of schemas(root)) assert.equal(attr(s, 'elementFormDefault'), 'qualified');
    });
  }

  it('keeps a schema per namespace URI, importing across them', async () => {
    const transit = schemas((await get('/1.0.0/TransitTimesService.asmx')).root);
    assert.deepEqual(
      transit.map((s) => attr(s, 'targetNamespace')),
      [NS_DISTINCT.service, NS_DISTINCT.data],
    );
    assert.deepEqual(
      children(transit[0], 'import').map((i) => attr(i, 'namespace')),
      [NS_DISTINCT.data],
    );
    const pickup = schemas((await get('/1.0.3/PickupRequestService.asmx')).root);
    assert.deepEqual(
      pickup.map((s) => attr(s, 'targetNamespace')),
      [NS_DISTINCT.service, NS_DISTINCT.pickup],
    );
    const rate = schemas((await get('/1.0.3/RateQuoteService.asmx')).root);
    assert.equal(rate.length, 1, 'rate-quote records are all in the service namespace');
  });

  it('has one schema when every role shares one URI', async () => {
    const same = await startSandbox({ namespaces: NS_SAME });
    try {
      const r = await http(`${same.url}/1.0.0/TransitTimesService.asmx?wsdl`);
      assert.equal(schemas(xml(r.text)).length, 1);
    } finally {
      await same.close();
    }
  });

  it('declares records as sequences in field order, required value types with minOccurs 1, lists as ArrayOf, enumerations as restrictions, open records as xs:any', async () => {
    const { root } = await get('/1.0.3/RateQuoteService.asmx');
    const request = sequenceOf(typeNamed(root, 'complexType', 'RateQuoteRequestV103'));
    assert.deepEqual(
      request.map((e) => attr(e, 'name')),
      ['QuoteType', 'Origin', 'Destination', 'Items', 'DeclaredValue', 'Accessorials', 'OverDimensionList', 'Pallets'],
    );
    assert.deepEqual(
      request.map((e) => attr(e, 'minOccurs')),
      ['1', '0', '0', '0', '1', '0', '0', '0'],
    );
    assert.equal(attr(request[3], 'type'), 'tns:ArrayOfItem');
    const arrayOfItem = sequenceOf(typeNamed(root, 'complexType', 'ArrayOfItem'));
    assert.equal(attr(arrayOfItem[0], 'maxOccurs'), 'unbounded');
    assert.equal(attr(arrayOfItem[0], 'type'), 'tns:RateItem');
    const quoteType = typeNamed(root, 'simpleType', 'QuoteType');
    assert.deepEqual(
      children(children(quoteType, 'restriction')[0], 'enumeration').map((e) => attr(e, 'value')),
      ['AlaskaHawaii', 'Domestic', 'International'],
    );
    const terminal = (await get('/1.0.2/TerminalInformationService.asmx')).root;
    const phone = typeNamed(terminal, 'complexType', 'TerminalPhone');
    assert.equal(children(children(phone, 'sequence')[0], 'any').length, 1);
  });
});
