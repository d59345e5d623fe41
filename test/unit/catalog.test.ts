/**
 * The catalog against the contract. Every expectation below is written out by hand — the
 * operations, paths and bindings as docs/wire.md#operations-and-versions lists them, the parameters,
 * records and enumerations as the contract gives them — not derived from the catalog, so a slip in
 * either shows up here. Where the catalog follows the reference carrier instead, the test says so
 * (docs/carrier-facts.md#contract-first).
 */
import * as assert from 'node:assert/strict';
import {
  catalogProblems,
  fieldRecord,
  findShape,
  getEnumeration,
  getRecord,
  operations,
  parametersRecord,
  servicePath,
  shapesOf,
  type Binding,
  type FieldDef,
  type OperationDef,
  type RecordDef,
} from '../../src/core/catalog';

const SOAP: Binding[] = ['soap11', 'soap12'];
const ALL: Binding[] = ['soap11', 'soap12', 'get', 'post'];

/** The operation index and each operation's "Parameters (in order)". */
const SHAPES: Array<{ operation: string; version: string; path: string; bindings: Binding[]; params: string[]; httpReplyRoot?: string }> = [
  {
    operation: 'GetTerminalInformation',
    version: '1.0.2',
    path: '/1.0.2/TerminalInformationService.asmx',
    bindings: ALL,
    params: ['APIKey', 'ZipCode', 'CountryCode', 'CustomerData'],
    httpReplyRoot: 'TerminalInformationReply',
  },
  {
    operation: 'GetDocumentTypes',
    version: '1.0.0',
    path: '/1.0.0/DocumentRetrievalService.asmx',
    bindings: ALL,
    params: ['APIKey', 'ProNumber', 'CustomerData'],
    httpReplyRoot: 'DocumentRetrievalReply',
  },
  {
    operation: 'GetDocuments',
    version: '1.0.3',
    path: '/1.0.3/DocumentRetrievalService.asmx',
    bindings: SOAP,
    params: ['APIKey', 'ProNumber', 'documentTypes', 'CustomerData'],
  },
  {
    operation: 'GetHazmatDescription',
    version: 'sandbox',
    path: '/sandbox/BillOfLadingService.asmx',
    bindings: ALL,
    params: ['APIKey', 'UNNANumber'],
    httpReplyRoot: 'GetHazmatDescriptionReply',
  },
  {
    operation: 'GetBillOfLadingLabelPDF',
    version: 'sandbox',
    path: '/sandbox/BillOfLadingService.asmx',
    bindings: ALL,
    params: ['APIKey', 'billOfLadingId', 'style', 'startPosition', 'numLabels'],
    httpReplyRoot: 'BillOfLadingPDFReply',
  },
  {
    operation: 'GetBillOfLadingPdf',
    version: 'sandbox',
    path: '/sandbox/BillOfLadingService.asmx',
    bindings: ALL,
    params: ['APIKey', 'billOfLadingId'],
    httpReplyRoot: 'BillOfLadingPDFReply',
  },
  { operation: 'CreateBillOfLading', version: '1.0.1', path: '/1.0.1/BillOfLadingService.asmx', bindings: SOAP, params: ['APIKey', 'request'] },
  { operation: 'GetRateQuote', version: '1.0.0', path: '/1.0.0/RateQuoteService.asmx', bindings: SOAP, params: ['APIKey', 'request'] },
  { operation: 'GetRateQuote', version: '1.0.1', path: '/1.0.1/RateQuoteService.asmx', bindings: SOAP, params: ['APIKey', 'request'] },
  { operation: 'GetRateQuote', version: '1.0.3', path: '/1.0.3/RateQuoteService.asmx', bindings: SOAP, params: ['APIKey', 'request'] },
  { operation: 'CreatePickupRequest', version: '1.0.3', path: '/1.0.3/PickupRequestService.asmx', bindings: SOAP, params: ['APIKey', 'request'] },
  { operation: 'TraceShipment', version: '1.0.2', path: '/1.0.2/ShipmentTracingService.asmx', bindings: SOAP, params: ['APIKey', 'request'] },
  { operation: 'GetTransitTimes', version: '1.0.0', path: '/1.0.0/TransitTimesService.asmx', bindings: SOAP, params: ['APIKey', 'input'] },
];

const ACCESSORIALS_100 = [
  'InsideDelivery',
  'ResidentialPickup',
  'ResidentialDelivery',
  'OriginLiftgate',
  'DestinationLiftgate',
  'DeliveryNotification',
  'Freezable',
  'Hazmat',
  'InsidePickup',
  'LimitedAccessPickup',
  'DockPickup',
  'DockDelivery',
  'AirportPickup',
  'AirportDelivery',
  'LimitedAccessDelivery',
  'CubicFeet',
  'KeepFromFreezing',
  'DoorToDoor',
  'COD',
  'FZ',
];
const ACCESSORIALS_101 = [
  'InsideDelivery',
  'ResidentialPickup',
  'ResidentialDelivery',
  'OriginLiftgate',
  'DestinationLiftgate',
  'DeliveryNotification',
  'Freezable',
  'Hazmat',
  'InsidePickup',
  'LimitedAccessPickup',
  'DockPickup',
  'DockDelivery',
  'AirportPickup',
  'AirportDelivery',
  'LimitedAccessDelivery',
  'CubicFeet',
  'KeepFromFreezing',
  'DoorToDoor',
  'COD',
  'SortAndSegregate',
  'OverDimension',
  'ZeroFuelSurcharge',
  'Tradeshow',
  'DishMachineInsideDelivery',
];
const RQ_ACCESSORIALS = [
  'InsideDelivery',
  'ResidentialPickup',
  'ResidentialDelivery',
  'OriginLiftgate',
  'DestinationLiftgate',
  'DeliveryNotification',
  'SortAndSegregate',
  'Freezable',
  'Hazmat',
  'InsidePickup',
  'LimitedAccessPickup',
  'DockPickup',
  'DockDelivery',
  'AirportPickup',
  'AirportDelivery',
  'LimitedAccessDelivery',
  'CubicFeet',
  'KeepFromFreezing',
  'DoorToDoor',
  'OverDimension',
];
const SERVICE_LEVELS = ['StandardService', 'GuaranteedService', 'GuaranteedByNoon', 'GuaranteedHourlyWindow', 'ExpeditedService', 'WeekendExpress'];

/** Follows field names from an operation's parameters: `field(op, 'request', 'Items')`. */
function field(op: OperationDef, ...names: string[]): FieldDef {
  let record: RecordDef = parametersRecord(op);
  let found: FieldDef | undefined;
  for (const name of names) {
    found = record.fields.find((f) => f.name === name);
    assert.ok(found, `${op.operation} ${op.version}: no field ${names.join('.')} (stuck at ${name} in ${record.name})`);
    const next = fieldRecord(found);
    if (next) record = next;
  }
  return found!;
}
const fieldsOf = (f: FieldDef) => getRecord(f.record!).fields.map((x) => x.name);
const typesOf = (f: FieldDef) => Object.fromEntries(getRecord(f.record!).fields.map((x) => [x.name, x.type]));
const valuesOf = (f: FieldDef) => [...getEnumeration(f.enumeration!).values];
const shape = (operation: string, version?: string) => {
  const s = findShape(operation, version);
  assert.ok(s, `${operation} ${version ?? ''} exists`);
  return s;
};

describe('catalog against the contract', () => {
  it('gives each shape one parameters record, so a reader compiled for it (kept by record) is compiled once, not per request read', () => {
    for (const op of operations) assert.equal(parametersRecord(op), parametersRecord(op), `${op.operation} ${op.version}`);
  });

  it('has no dangling record or enumeration references', () => {
    assert.deepEqual(catalogProblems(), []);
  });

  it('has exactly the 13 shapes of the operation index, in any order', () => {
    const got = operations.map((o) => `${o.operation} ${o.version}`).sort();
    assert.deepEqual(got, SHAPES.map((s) => `${s.operation} ${s.version}`).sort());
  });

  for (const expected of SHAPES) {
    describe(`${expected.operation} ${expected.version}`, () => {
      const op = () => shape(expected.operation, expected.version);
      it(`is served at ${expected.path}`, () => assert.equal(servicePath(op()), expected.path));
      it(`offers ${expected.bindings.join(', ')}`, () => assert.deepEqual([...op().bindings], expected.bindings));
      it("takes its parameters in the contract's order, APIKey first", () =>
        assert.deepEqual(
          op().parameters.map((p) => p.name),
          expected.params,
        ));
      it('names the HTTP reply root where HTTP bindings exist', () => assert.equal(op().httpReplyRoot, expected.httpReplyRoot));
    });
  }

  it('APIKey is a secret string everywhere', () => {
    for (const op of operations) {
      const key = op.parameters[0];
      assert.equal(key.name, 'APIKey');
      assert.equal(key.type, 'string');
      assert.equal(key.secret, true, `${op.operation} ${op.version}`);
    }
  });

  it('types the simple parameters as the contract does', () => {
    const label = shape('GetBillOfLadingLabelPDF');
    assert.deepEqual(
      label.parameters.map((p) => p.type),
      ['string', 'int', 'string', 'int', 'int'],
    );
    assert.equal(field(shape('GetBillOfLadingPdf'), 'billOfLadingId').type, 'int');
    assert.equal(field(shape('GetHazmatDescription'), 'UNNANumber').type, 'string');
    const docs = field(shape('GetDocuments'), 'documentTypes');
    assert.equal(docs.list, 'DocumentType');
    assert.deepEqual(valuesOf(docs), ['BillOfLading', 'WeightCertificate', 'Invoice', 'DeliveryReceipt']);
  });

  describe('GetRateQuote requests per version', () => {
    it('1.0.0: LineOfBusiness … Accessorials, with HandlingUnits', () => {
      const op = shape('GetRateQuote', '1.0.0');
      const request = field(op, 'request');
      assert.deepEqual(fieldsOf(request), [
        'LineOfBusiness',
        'QuoteType',
        'CODAmount',
        'CustomerDiscount',
        'Origin',
        'Destination',
        'HandlingUnits',
        'DeclaredValue',
        'Accessorials',
      ]);
      assert.deepEqual(typesOf(request), {
        LineOfBusiness: 'string',
        QuoteType: 'string',
        CODAmount: 'decimal',
        CustomerDiscount: 'decimal',
        Origin: 'record',
        Destination: 'record',
        HandlingUnits: 'record',
        DeclaredValue: 'decimal',
        Accessorials: 'string',
      });
      const units = field(op, 'request', 'HandlingUnits');
      assert.equal(units.list, 'HandlingUnit');
      assert.deepEqual(typesOf(units), {
        Class: 'string',
        Weight: 'float',
        Width: 'float',
        Height: 'float',
        Length: 'float',
        CubicFeet: 'float',
        RateValue: 'decimal',
        TotalValue: 'decimal',
      });
      assert.deepEqual(fieldsOf(units), ['Class', 'Weight', 'Width', 'Height', 'Length', 'CubicFeet', 'RateValue', 'TotalValue']);
      const acc = field(op, 'request', 'Accessorials');
      assert.equal(acc.list, 'Accessorial');
      assert.deepEqual(valuesOf(acc), ACCESSORIALS_100);
    });

    it('1.0.1: QuoteType … OverDimensionPcs, with Items', () => {
      const op = shape('GetRateQuote', '1.0.1');
      const request = field(op, 'request');
      assert.deepEqual(fieldsOf(request), ['QuoteType', 'CODAmount', 'Origin', 'Destination', 'Items', 'DeclaredValue', 'Accessorials', 'OverDimensionPcs']);
      assert.equal(field(op, 'request', 'OverDimensionPcs').type, 'int');
      const items = field(op, 'request', 'Items');
      assert.equal(items.list, 'Item');
      assert.deepEqual(typesOf(items), { Class: 'string', Weight: 'float', Width: 'float', Height: 'float', Length: 'float' });
      assert.deepEqual(fieldsOf(items), ['Class', 'Weight', 'Width', 'Height', 'Length']);
      const acc = field(op, 'request', 'Accessorials');
      assert.equal(acc.list, 'Accessorial');
      assert.deepEqual(valuesOf(acc), ACCESSORIALS_101);
    });

    it('1.0.3: no CODAmount, RQAccessorial, OverDimensionList and Pallets', () => {
      const op = shape('GetRateQuote', '1.0.3');
      const request = field(op, 'request');
      assert.deepEqual(fieldsOf(request), ['QuoteType', 'Origin', 'Destination', 'Items', 'DeclaredValue', 'Accessorials', 'OverDimensionList', 'Pallets']);
      const acc = field(op, 'request', 'Accessorials');
      assert.equal(acc.list, 'RQAccessorial');
      assert.deepEqual(valuesOf(acc), RQ_ACCESSORIALS);
      assert.ok(!valuesOf(acc).includes('COD'), 'COD is not an RQAccessorial in the contract');
      const over = field(op, 'request', 'OverDimensionList');
      assert.equal(over.list, 'OverDimension');
      assert.deepEqual(typesOf(over), { Pieces: 'int', Inches: 'int' });
      const pallets = field(op, 'request', 'Pallets');
      assert.equal(pallets.list, 'Pallet');
      assert.deepEqual(typesOf(pallets), { Code: 'string', Weight: 'int', Quantity: 'int' });
      assert.deepEqual(fieldsOf(pallets), ['Code', 'Weight', 'Quantity']);
    });

    it('QuoteType is AlaskaHawaii, Domestic, International in every version; the points have four string fields', () => {
      for (const op of shapesOf('GetRateQuote')) {
        assert.deepEqual(valuesOf(field(op, 'request', 'QuoteType')), ['AlaskaHawaii', 'Domestic', 'International']);
        for (const point of ['Origin', 'Destination'])
          assert.deepEqual(typesOf(field(op, 'request', point)), {
            City: 'string',
            StateOrProvince: 'string',
            ZipOrPostalCode: 'string',
            CountryCode: 'string',
          });
      }
    });

    it('SortAndSegregate exists in 1.0.1 and 1.0.3, not in 1.0.0', () => {
      const has = (v: string) => valuesOf(field(shape('GetRateQuote', v), 'request', 'Accessorials')).includes('SortAndSegregate');
      assert.deepEqual(['1.0.0', '1.0.1', '1.0.3'].map(has), [false, true, true]);
    });

    it('results: 1.0.0 service centers without City/State, 1.0.1 and 1.0.3 with them', () => {
      assert.deepEqual(
        getRecord('ServiceCenterV100').fields.map((f) => f.name),
        ['Code', 'Location', 'ZipCode', 'Phone', 'Address1', 'Address2'],
      );
      const withCityState = ['Code', 'Location', 'ZipCode', 'Phone', 'Address1', 'Address2', 'City', 'State'];
      for (const v of ['1.0.1', '1.0.3']) {
        const result = getRecord(shape('GetRateQuote', v).result).fields.find((f) => f.name === 'Result')!;
        const centre = getRecord(result.record!).fields.find((f) => f.name === 'OriginServiceCenter')!;
        assert.deepEqual(
          getRecord(centre.record!).fields.map((f) => f.name),
          withCityState,
        );
      }
    });
  });

  describe('bill of lading', () => {
    const op = () => shape('CreateBillOfLading');
    it('request holds BillOfLading, AddPickupRequest (boolean), PickupRequestInfo', () => {
      assert.deepEqual(fieldsOf(field(op(), 'request')), ['BillOfLading', 'AddPickupRequest', 'PickupRequestInfo']);
      assert.equal(field(op(), 'request', 'AddPickupRequest').type, 'boolean');
    });
    it("BillOfLading has the contract's fields in order", () => {
      assert.deepEqual(fieldsOf(field(op(), 'request', 'BillOfLading')), [
        'BOLDate',
        'Shipper',
        'Consignee',
        'BillTo',
        'Broker',
        'RemitCOD',
        'AdditionalServices',
        'ServiceLevel',
        'HourlyWindow',
        'ExpeditedQuoteNumber',
        'Items',
        'HazmatInformation',
        'DeclaredValue',
        'SpecialInstructions',
        'ReferenceNumbers',
        'FreightChargePaymentMethod',
        'NoSignatureDelivery',
        'NoSignatureNotificationContacts',
      ]);
    });
    it('address blocks, Attention on the consignee, EmergenyNumber spelled as the service spells it', () => {
      const address = ['Name', 'EmailAddress', 'AddressLine1', 'AddressLine2', 'ISO3Country', 'ZipCode', 'City', 'State', 'PhoneNumber', 'PhoneExtension'];
      for (const party of ['Shipper', 'BillTo', 'Broker']) assert.deepEqual(fieldsOf(field(op(), 'request', 'BillOfLading', party)), address);
      assert.ok(fieldsOf(field(op(), 'request', 'BillOfLading', 'Consignee')).includes('Attention'));
      assert.deepEqual(fieldsOf(field(op(), 'request', 'BillOfLading', 'HazmatInformation')), ['EmergenyNumber', 'ContractNumber', 'ContractHolder']);
      assert.deepEqual(fieldsOf(field(op(), 'request', 'BillOfLading', 'DeclaredValue')), ['Value', 'Per']);
      assert.deepEqual(fieldsOf(field(op(), 'request', 'BillOfLading', 'ReferenceNumbers')), ['ShipperNumber', 'QuoteNumber', 'PONumber']);
      const cod = fieldsOf(field(op(), 'request', 'BillOfLading', 'RemitCOD'));
      assert.deepEqual(cod.slice(-3), ['CODAmount', 'CheckType', 'FeeType']);
      assert.equal(field(op(), 'request', 'BillOfLading', 'NoSignatureDelivery').type, 'boolean');
    });
    it('enumerations', () => {
      const bol = (...names: string[]) => valuesOf(field(op(), 'request', 'BillOfLading', ...names));
      assert.deepEqual(bol('AdditionalServices'), [
        'OriginLiftgate',
        'DestinationLiftgate',
        'InsidePickup',
        'InsideDelivery',
        'LimitedAccessPickup',
        'LimitedAccessDelivery',
        'FreezeProtection',
        'DeliveryNotification',
      ]);
      assert.equal(field(op(), 'request', 'BillOfLading', 'AdditionalServices').list, 'BOLAccessorial');
      assert.deepEqual(bol('ServiceLevel'), SERVICE_LEVELS);
      assert.deepEqual(bol('RemitCOD', 'CheckType'), ['Company', 'Certified']);
      assert.deepEqual(bol('RemitCOD', 'FeeType'), ['Prepaid', 'Collect']);
      assert.deepEqual(bol('FreightChargePaymentMethod'), ['Prepaid', 'Collect']);
    });
    it('PickupRequestInfo and ThirdParty', () => {
      assert.deepEqual(fieldsOf(field(op(), 'request', 'PickupRequestInfo')), ['PickupDate', 'ReadyTime', 'CloseTime', 'AdditionalInstructions', 'ThirdParty']);
      assert.deepEqual(fieldsOf(field(op(), 'request', 'PickupRequestInfo', 'ThirdParty')), [
        'ContactName',
        'CompanyName',
        'PhoneNumber',
        'PhoneExtension',
        'EmailAddress',
      ]);
    });
    it('reply: WebProNumber, BolID (int), BillOfLading, PickupRequestNumber', () => {
      const result = getRecord(op().result).fields;
      const names = result.map((f) => f.name);
      for (const name of ['WebProNumber', 'BolID', 'BillOfLading', 'PickupRequestNumber']) assert.ok(names.includes(name), name);
      assert.equal(result.find((f) => f.name === 'BolID')!.type, 'int');
    });
  });

  describe('pickup request', () => {
    const op = () => shape('CreatePickupRequest');
    it('request holds Pickup, IncludeBol, IncludeBolPdf', () => assert.deepEqual(fieldsOf(field(op(), 'request')), ['Pickup', 'IncludeBol', 'IncludeBolPdf']));
    it("Pickup has the contract's fields in order, LinkedBolId an int", () => {
      assert.deepEqual(fieldsOf(field(op(), 'request', 'Pickup')), [
        'Shipper',
        'Contact',
        'Destinations',
        'PickupInformation',
        'ServiceOptions',
        'ServiceLevel',
        'HourlyWindow',
        'ReferenceNumbers',
        'ExpeditedQuoteNumber',
        'LinkedBolId',
      ]);
      assert.equal(field(op(), 'request', 'Pickup', 'LinkedBolId').type, 'int');
    });
    it('Shipper, Contact, PickupInformation', () => {
      assert.deepEqual(fieldsOf(field(op(), 'request', 'Pickup', 'Shipper')), [
        'Name',
        'AddressLine1',
        'AddressLine2',
        'ISO3Country',
        'ZipCode',
        'City',
        'State',
        'PhoneNumber',
        'PhoneExtension',
        'ContactName',
        'ContactEmailAddress',
      ]);
      assert.deepEqual(fieldsOf(field(op(), 'request', 'Pickup', 'Contact')), ['Name', 'CompanyName', 'PhoneNumber', 'PhoneExtension', 'EmailAddress']);
      assert.deepEqual(fieldsOf(field(op(), 'request', 'Pickup', 'PickupInformation')), [
        'PickupDate',
        'ReadyTime',
        'CloseTime',
        'AdditionalInstructions',
        'LoadAttributes',
        'SendEmailConfirmation',
      ]);
      assert.equal(field(op(), 'request', 'Pickup', 'PickupInformation', 'SendEmailConfirmation').type, 'boolean');
      assert.equal(field(op(), 'request', 'Pickup', 'Destinations').list, 'Destination');
    });
    it('ServiceOptions are PURAccessorial LiftGate, NoRollup; ServiceLevel the six values', () => {
      const options = field(op(), 'request', 'Pickup', 'ServiceOptions');
      assert.equal(options.list, 'PURAccessorial');
      assert.deepEqual(valuesOf(options), ['LiftGate', 'NoRollup']);
      assert.deepEqual(valuesOf(field(op(), 'request', 'Pickup', 'ServiceLevel')), SERVICE_LEVELS);
    });
  });

  describe('tracing', () => {
    const op = () => shape('TraceShipment');
    it('request fields, TraceNumbers as repeating elements named string', () => {
      assert.deepEqual(fieldsOf(field(op(), 'request')), ['TraceNumbers', 'TraceType', 'FormatResults', 'IncludeBlind', 'OutputFormat', 'CustomerData']);
      const numbers = field(op(), 'request', 'TraceNumbers');
      assert.equal(numbers.list, 'string');
      assert.equal(numbers.type, 'string');
    });
    it('TraceType and OutputFormat values', () => {
      assert.deepEqual(valuesOf(field(op(), 'request', 'TraceType')), [
        'PRO',
        'BOL',
        'Job',
        'Manifest',
        'PO',
        'Sales',
        'Account',
        'CustomerOrder',
        'CustomerPO',
        'Lot',
        'Order',
        'Reference',
      ]);
      assert.deepEqual(valuesOf(field(op(), 'request', 'OutputFormat')), ['Standard', 'IVR']);
    });
    it('Shipment record fields in order, children in {data_namespace}', () => {
      const shipment = getRecord('Shipment');
      assert.equal(shipment.ns, 'data');
      assert.deepEqual(
        shipment.fields.map((f) => f.name),
        [
          'ErrResponse',
          'Parties',
          'ShipmentNumber',
          'ReferenceNumbers',
          'ShipmentDates',
          'Piece',
          'Weight',
          'Blind',
          'ShortStatus',
          'LongStatus',
          'StatusHistory',
          'Is3PL',
          'ErrorMessage',
          'ServiceLevel',
          'HandlingUnits',
        ],
      );
    });
  });

  describe('transit times', () => {
    const op = () => shape('GetTransitTimes');
    it('input fields in order, DateOfPickup a dateTime', () => {
      assert.deepEqual(fieldsOf(field(op(), 'input')), ['CustomerData', 'LineOfBusiness', 'DateOfPickup', 'OriginPoint', 'Destinations']);
      assert.equal(field(op(), 'input', 'DateOfPickup').type, 'dateTime');
    });
    it("Destinations > DestinationPoint > repeating ServicePoint, in {data_namespace}; OriginPoint's children too", () => {
      const destinations = field(op(), 'input', 'Destinations');
      assert.equal(destinations.list, undefined, 'Destinations is a record, not the list');
      const point = field(op(), 'input', 'Destinations', 'DestinationPoint');
      assert.equal(point.list, 'ServicePoint');
      assert.equal(getRecord(destinations.record!).ns, 'data');
      assert.equal(getRecord(point.record!).ns, 'data');
      assert.deepEqual(fieldsOf(point), ['City', 'StateOrProvince', 'ZipOrPostalCode', 'CountryCode']);
      assert.equal(getRecord(field(op(), 'input', 'OriginPoint').record!).ns, 'data');
    });
  });

  describe('terminals, documents, hazmat, PDFs', () => {
    it('TerminalDetails fields in order, in {data_namespace}', () => {
      const details = getRecord('TerminalDetails');
      assert.equal(details.ns, 'data');
      assert.deepEqual(
        details.fields.map((f) => `${f.name}:${f.type}`),
        [
          'TerminalDetailID:int',
          'TerminalLocationID:int',
          'TerminalLocationName:string',
          'TerminalName:string',
          'TerminalType:string',
          'TerminalCode:string',
          'TerminalMailingAddress1:string',
          'TerminalMailingAddress2:string',
          'TerminalMailingCity:string',
          'TerminalMailingState:string',
          'TerminalMailingZip:string',
          'TerminalMailingCountry:string',
          'DateCreated:dateTime',
        ],
      );
    });
    it('ArchiveDocument, UNorNA and the PDF reply', () => {
      assert.deepEqual(
        getRecord('ArchiveDocument').fields.map((f) => f.name),
        ['DocumentName', 'DocumentData'],
      );
      assert.deepEqual(
        getRecord('UNorNA').fields.map((f) => f.name),
        ['Number', 'Description', 'NOS'],
      );
      assert.equal(getRecord('UNorNA').ns, 'data');
      assert.deepEqual(
        getRecord('BillOfLadingPDFReply').fields.map((f) => `${f.name}:${f.type}`),
        ['PdfDocument:base64Binary'],
      );
    });
  });
});
