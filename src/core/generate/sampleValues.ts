/**
 * Realistic values for generated samples (snippets, the schema's defaultSnippets, New Request…,
 * the sandbox), taken from docs/carrier-facts.md#samples: the Burns TN 37029 → Tampa FL 33635 lane, class
 * 50.0 at 1500 lb, PRO 056391174, UN1203, pickup 03:00 PM – 05:00 PM.
 *
 * This is realism data, not structure: a field not named here still gets a valid value from its
 * catalog type, enumeration, suggestions or format. Keys are an element name, or `Parent.Element`
 * where one record plays two roles (Origin and Destination are both location points); a key that
 * names no catalog field fails test/unit/generated.test.ts, so the table cannot drift unnoticed.
 */
export type SampleLeaf = string | number | boolean;

/** The pickup day every sample uses (a Monday), so generated files are stable. */
export const SAMPLE_DATE = { us: '11/23/2026', iso: '2026-11-23' } as const;

export const SAMPLE_VALUES: Readonly<Record<string, SampleLeaf | readonly SampleLeaf[]>> = {
  // Terminals: the terminal that serves Lincoln NE.
  ZipCode: '68507',
  CustomerData: 'carrier-workbench',
  // Documents, tracing.
  ProNumber: '056391174',
  documentTypes: ['WeightCertificate'],
  TraceNumbers: ['056391174'],
  // Hazmat, BOL PDF and labels (the sandbox seeds BolID 1).
  UNNANumber: 'UN1203',
  billOfLadingId: 1,
  style: 'STYLE_4',
  startPosition: 1,
  numLabels: 2,
  // Rate quote: Burns TN → Tampa FL, one pallet of class 50.0.
  QuoteType: 'Domestic',
  CODAmount: 0,
  DeclaredValue: 0,
  'Origin.City': 'Burns',
  'Origin.StateOrProvince': 'TN',
  'Origin.ZipOrPostalCode': '37029',
  'Destination.City': 'Tampa',
  'Destination.StateOrProvince': 'FL',
  'Destination.ZipOrPostalCode': '33635',
  Class: '50.0',
  Weight: 1500,
  Width: 48,
  Height: 40,
  Length: 48,
  Accessorials: ['OriginLiftgate'],
  OverDimensionPcs: 0,
  // Transit times from Lincoln NE.
  DateOfPickup: `${SAMPLE_DATE.iso}T00:00:00`,
  'OriginPoint.City': 'Lincoln',
  'OriginPoint.StateOrProvince': 'NE',
  'OriginPoint.ZipOrPostalCode': '68507',
  'DestinationPoint.City': 'Tampa',
  'DestinationPoint.StateOrProvince': 'FL',
  'DestinationPoint.ZipOrPostalCode': '33635',
  // Bill of lading and pickup: shipper in Burns TN, consignee in Tampa FL.
  'Shipper.Name': 'Volunteer Machine Works',
  'Shipper.EmailAddress': 'shipping@volunteer-machine.example',
  'Shipper.AddressLine1': '100 Industrial Park Dr',
  'Shipper.ZipCode': '37029',
  'Shipper.City': 'Burns',
  'Shipper.State': 'TN',
  'Shipper.PhoneNumber': '615-555-0142',
  'Consignee.Name': 'Gulf Coast Supply Co',
  'Consignee.AddressLine1': '5200 W Linebaugh Ave',
  'Consignee.ZipCode': '33635',
  'Consignee.City': 'Tampa',
  'Consignee.State': 'FL',
  'Consignee.Attention': 'Receiving',
  'Destinations.ZipCode': '33635',
  'Destinations.City': 'Tampa',
  'Destinations.State': 'FL',
  IsHazmat: false,
  Pieces: 1,
  PackageType: 'PLT',
  Description: 'Machine parts, 1 pallet',
  ServiceLevel: 'StandardService',
  AddPickupRequest: true,
  PickupDate: SAMPLE_DATE.us,
  ReadyTime: '03:00 PM',
  CloseTime: '05:00 PM',
  Start: '01:00 PM',
  End: '03:00 PM',
  IncludeBol: false,
  IncludeBolPdf: false,
};

/** Optional records and lists a sample includes; required ones always are. */
export const SAMPLE_INCLUDES: readonly string[] = [
  'Origin',
  'Destination',
  'Items',
  'HandlingUnits',
  'Accessorials',
  'PickupRequestInfo',
  'Destinations',
  'DestinationPoint',
];
