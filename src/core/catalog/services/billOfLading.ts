import { FREIGHT_CLASSES, COUNTRY_CODES } from '../enumerations';
import { apiKey, baseReplyFields } from '../shared';
import { base64, bool, enumList, enumOf, float, int, list, openRecord, rec, record, str } from '../define';
import type { FieldDef, OperationDef, RecordDef } from '../types';

const req = { required: true } as const;

/** The address block (Shipper, BillTo, Broker); which fields are required differs by party. */
const party = (required: readonly string[]): FieldDef[] =>
  ['Name', 'EmailAddress', 'AddressLine1', 'AddressLine2', 'ISO3Country', 'ZipCode', 'City', 'State', 'PhoneNumber', 'PhoneExtension'].map((name) =>
    str(name, {
      ...(required.includes(name) ? req : {}),
      ...(name === 'ISO3Country' ? { suggestions: COUNTRY_CODES, doc: 'Three-letter country code (USA, CAN, PRI).' } : {}),
      ...(name === 'State' ? { doc: 'State or province abbreviation.' } : {}),
    }),
  );

export const records: RecordDef[] = [
  record('GetHazmatDescriptionReply', 'service', [list('UNNAList', 'UNorNA', 'UNorNA')]),
  record('UNorNA', 'data', [str('Number'), str('Description'), str('NOS', { doc: 'Whether the entry is an n.o.s. (not otherwise specified) entry.' })]),
  record('BillOfLadingPDFReply', 'service', [base64('PdfDocument', { document: true, doc: 'The PDF document, base64-encoded.' })]),

  record('CreateBillOfLadingRequest', 'service', [
    rec('BillOfLading', 'BillOfLading', req),
    bool('AddPickupRequest', { ...req, doc: 'Also request a pickup; PickupRequestInfo is then required.' }),
    rec('PickupRequestInfo', 'PickupRequestInfo', { doc: 'Required when AddPickupRequest is true.' }),
  ]),
  record('BillOfLading', 'service', [
    str('BOLDate', { ...req, format: 'MM/DD/YYYY' }),
    rec('Shipper', 'BolShipper', req),
    rec('Consignee', 'BolConsignee', req),
    rec('BillTo', 'BolParty'),
    rec('Broker', 'BolParty'),
    rec('RemitCOD', 'RemitCOD'),
    enumList('AdditionalServices', 'BOLAccessorial', 'BOLAccessorial'),
    enumOf('ServiceLevel', 'ServiceLevel'),
    rec('HourlyWindow', 'HourlyWindow', { doc: 'Required when ServiceLevel is GuaranteedHourlyWindow.' }),
    str('ExpeditedQuoteNumber', { doc: 'Required when ServiceLevel is ExpeditedService.' }),
    list('Items', 'Item', 'BolItem', { ...req, doc: 'At least one item.' }),
    rec('HazmatInformation', 'HazmatInformation', { doc: 'Required when any item is hazmat.' }),
    rec('DeclaredValue', 'BolDeclaredValue'),
    str('SpecialInstructions'),
    rec('ReferenceNumbers', 'ReferenceNumbers'),
    enumOf('FreightChargePaymentMethod', 'FreightChargePaymentMethod', req),
    bool('NoSignatureDelivery'),
    rec('NoSignatureNotificationContacts', 'NoSignatureNotificationContacts'),
  ]),
  record('BolShipper', 'service', party(['Name', 'EmailAddress', 'AddressLine1', 'ISO3Country', 'ZipCode', 'City', 'PhoneNumber']), { source: 'facts' }),
  // The contract shows Consignee with Attention only; the reference carrier's consignee is the
  // address block plus Attention (docs/carrier-facts.md#contract-first, docs/carrier-facts.md#parties).
  // A real BOL needs the address, and a file with Attention alone stays valid, so the catalog
  // takes the superset.
  record('BolConsignee', 'service', [...party(['Name', 'AddressLine1', 'ISO3Country', 'ZipCode', 'City', 'State']), str('Attention')], { source: 'facts' }),
  record('BolParty', 'service', party([])),
  // Likewise RemitCOD: the address block, then the contract's three COD fields.
  record('RemitCOD', 'service', [...party([]), str('CODAmount'), enumOf('CheckType', 'CheckType'), enumOf('FeeType', 'FeeType')], { source: 'facts' }),
  record(
    'BolItem',
    'service',
    [
      bool('IsHazmat', req),
      int('Pieces', req),
      enumOf('PackageType', 'PackageType', req),
      str('NMFCItemNumber'),
      str('NMFCClass', { doc: 'NMFC sub number.' }),
      str('Class', { ...req, suggestions: FREIGHT_CLASSES, doc: 'Freight class, e.g. 50.0 … 500.0.' }),
      float('Weight', { ...req, doc: 'Weight in pounds.' }),
      str('Description', req),
    ],
    { source: 'facts' },
  ),
  record('HazmatInformation', 'service', [
    str('EmergenyNumber', { doc: 'Emergency phone number. The element name is spelled exactly so (no "c").' }),
    str('ContractNumber'),
    str('ContractHolder'),
  ]),
  record('BolDeclaredValue', 'service', [str('Value'), str('Per')]),
  record('NoSignatureNotificationContacts', 'service', [rec('PhoneNumbers', 'NotificationPhoneNumbers'), rec('EmailAddresses', 'NotificationEmailAddresses')]),
  openRecord('NotificationPhoneNumbers', 'service', 'Phone numbers to notify (inner fields not expanded).'),
  openRecord('NotificationEmailAddresses', 'service', 'E-mail addresses to notify (inner fields not expanded).'),
  record('PickupRequestInfo', 'service', [
    str('PickupDate', { format: 'MM/DD/YYYY' }),
    str('ReadyTime', { format: 'hh:mm AM/PM' }),
    str('CloseTime', { format: 'hh:mm AM/PM' }),
    str('AdditionalInstructions'),
    rec('ThirdParty', 'ThirdParty', { doc: 'ContactName and CompanyName are required if any field is filled out.' }),
  ]),
  record('ThirdParty', 'service', [str('ContactName'), str('CompanyName'), str('PhoneNumber'), str('PhoneExtension'), str('EmailAddress')]),
  record('CreateBillOfLadingResult', 'service', [
    ...baseReplyFields(false),
    str('WebProNumber', { doc: 'The PRO number assigned to the shipment (9 digits).' }),
    int('BolID', { doc: 'Identifier of the bill of lading, for its PDF and labels.' }),
    rec('BillOfLading', 'BillOfLading'),
    str('PickupRequestNumber'),
  ]),
];

const billOfLadingId = int('billOfLadingId', { required: true, doc: 'BolID returned by CreateBillOfLading.' });

export const operations: OperationDef[] = [
  {
    operation: 'GetHazmatDescription',
    version: 'sandbox',
    service: 'BillOfLadingService',
    bindings: ['soap11', 'soap12', 'get', 'post'],
    description: 'Look up hazardous-material descriptions by UN/NA number.',
    parameters: [apiKey, str('UNNANumber', { required: true, doc: 'UN or NA number, e.g. 1203 or UN1203.' })],
    result: 'GetHazmatDescriptionReply',
    httpReplyRoot: 'GetHazmatDescriptionReply',
  },
  {
    operation: 'GetBillOfLadingLabelPDF',
    version: 'sandbox',
    service: 'BillOfLadingService',
    bindings: ['soap11', 'soap12', 'get', 'post'],
    description: 'Provides a shipping label for a bill of lading in PDF format.',
    parameters: [
      apiKey,
      billOfLadingId,
      str('style', { required: true, suggestions: ['STYLE_1', 'STYLE_2', 'STYLE_3', 'STYLE_4', 'STYLE_5', 'STYLE_6'], doc: 'Label layout, e.g. STYLE_4.' }),
      int('startPosition', { required: true, doc: 'First label position used on the first sheet (1-based).' }),
      int('numLabels', { required: true, doc: 'How many labels to print.' }),
    ],
    result: 'BillOfLadingPDFReply',
    httpReplyRoot: 'BillOfLadingPDFReply',
  },
  {
    operation: 'GetBillOfLadingPdf',
    version: 'sandbox',
    service: 'BillOfLadingService',
    bindings: ['soap11', 'soap12', 'get', 'post'],
    description: 'Fetch a bill of lading as a PDF.',
    parameters: [apiKey, billOfLadingId],
    result: 'BillOfLadingPDFReply',
    httpReplyRoot: 'BillOfLadingPDFReply',
  },
  {
    operation: 'CreateBillOfLading',
    version: '1.0.1',
    service: 'BillOfLadingService',
    bindings: ['soap11', 'soap12'],
    description: 'Create a bill of lading, optionally with a pickup request.',
    parameters: [apiKey, rec('request', 'CreateBillOfLadingRequest', { required: true })],
    result: 'CreateBillOfLadingResult',
  },
];
