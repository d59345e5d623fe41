import { COUNTRY_CODES } from '../enumerations';
import { apiKey } from '../shared';
import { base64, bool, dateTime, enumList, enumOf, float, int, list, openRecord, rec, record, str } from '../define';
import type { OperationDef, RecordDef } from '../types';

const req = { required: true } as const;

/** Pickup result sub-records the contract names but does not expand (docs/carrier-facts.md#pickup-requests). */
const openResultRecords = [
  'ExtensionData',
  'BOL',
  'Channel',
  'CommunicationStatus',
  'Constraints',
  'LoadDetails',
  'References',
  'Requestor',
  'RequestorType',
  'Shipper',
  'TaskStatus',
];

export const records: RecordDef[] = [
  record('CreatePickupRequestRequest', 'service', [
    rec('Pickup', 'Pickup', req),
    bool('IncludeBol', { doc: 'Include the linked bill of lading in the reply.' }),
    bool('IncludeBolPdf', { doc: 'Include the linked bill of lading as a PDF (BolPdf) in the reply.' }),
  ]),
  record('Pickup', 'service', [
    rec('Shipper', 'PickupShipper', req),
    rec('Contact', 'PickupContact'),
    list('Destinations', 'Destination', 'PickupDestination'),
    rec('PickupInformation', 'PickupInformation', req),
    enumList('ServiceOptions', 'PURAccessorial', 'PURAccessorial'),
    enumOf('ServiceLevel', 'ServiceLevel'),
    rec('HourlyWindow', 'HourlyWindow', { doc: 'Required when ServiceLevel is GuaranteedHourlyWindow.' }),
    rec('ReferenceNumbers', 'ReferenceNumbers'),
    str('ExpeditedQuoteNumber', { doc: 'Required when ServiceLevel is ExpeditedService.' }),
    int('LinkedBolId', { doc: 'BolID of a bill of lading to link to this pickup.' }),
  ]),
  record('PickupShipper', 'service', [
    str('Name', req),
    str('AddressLine1', req),
    str('AddressLine2'),
    str('ISO3Country', { ...req, suggestions: COUNTRY_CODES }),
    str('ZipCode', req),
    str('City', req),
    str('State', req),
    str('PhoneNumber', req),
    str('PhoneExtension'),
    str('ContactName'),
    str('ContactEmailAddress'),
  ]),
  record('PickupContact', 'service', [str('Name'), str('CompanyName'), str('PhoneNumber'), str('PhoneExtension'), str('EmailAddress')]),
  record(
    'PickupDestination',
    'service',
    [
      str('ISO3Country', { suggestions: COUNTRY_CODES }),
      str('ZipCode'),
      str('City'),
      str('State'),
      float('Weight', { doc: 'Weight in pounds.' }),
      int('Pieces'),
    ],
    { source: 'facts' },
  ),
  record('PickupInformation', 'service', [
    str('PickupDate', { ...req, format: 'MM/DD/YYYY' }),
    str('ReadyTime', { ...req, format: 'hh:mm AM/PM' }),
    str('CloseTime', { ...req, format: 'hh:mm AM/PM' }),
    str('AdditionalInstructions'),
    rec('LoadAttributes', 'LoadAttributes'),
    bool('SendEmailConfirmation'),
  ]),
  openRecord('LoadAttributes', 'service', 'Load attributes (inner fields not expanded).'),

  record('CreatePickupRequestResult', 'service', [
    str('PickupRequestID'),
    rec('Pickup', 'PickupResult'),
    base64('BolPdf', { document: true, doc: 'The linked bill of lading as a PDF, when IncludeBolPdf was true.' }),
  ]),
  record('PickupResult', 'pickup', [str('Id'), bool('WasSuccess'), str('Message'), rec('Result', 'PickupResultDetails')]),
  record('PickupResultDetails', 'pickup', [
    ...openResultRecords.map((name) => rec(name, `PickupResult${name}`)),
    bool('BOLAvailableFlag'),
    bool('CustomsDocumentRequirementsFlag'),
    bool('LatePickupFlag'),
    str('CloseTime'),
    str('Comment'),
    str('ContactEmail'),
    str('ContactExtension'),
    str('ContactName'),
    str('ContactPhone'),
    str('PickupDate'),
    str('ReadyTime'),
    str('TerminalCode'),
    int('Id'),
    int('ParentId'),
    int('VersionNumber'),
    dateTime('TerminalLocalDateTime'),
  ]),
  ...openResultRecords.map((name) => openRecord(`PickupResult${name}`, 'pickup', `Pickup result ${name} (inner fields not expanded).`)),
];

export const operations: OperationDef[] = [
  {
    operation: 'CreatePickupRequest',
    version: '1.0.3',
    service: 'PickupRequestService',
    bindings: ['soap11', 'soap12'],
    description: 'Create a pickup request, optionally including the linked bill of lading and its PDF.',
    parameters: [apiKey, rec('request', 'CreatePickupRequestRequest', req)],
    result: 'CreatePickupRequestResult',
  },
];
