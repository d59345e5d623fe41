/**
 * GetRateQuote at three versions. The same operation name has different request and result
 * shapes per version; a client selects the shape by the path (docs/wire.md#operations-and-versions,
 * docs/carrier-facts.md#rate-quote-versions).
 */
import { FREIGHT_CLASSES } from '../enumerations';
import { apiKey, baseReplyFields } from '../shared';
import { dec, enumList, enumOf, float, int, list, openRecord, rec, record, str } from '../define';
import type { OperationDef, RecordDef } from '../types';

const req = { required: true } as const;
const freightClass = str('Class', { suggestions: FREIGHT_CLASSES, doc: 'Freight class, e.g. 50.0 … 500.0 (a string; 50 and 50.0 are both read as 50.0).' });
const quoteType = enumOf('QuoteType', 'QuoteType', req);
const origin = rec('Origin', 'LocationPoint');
const destination = rec('Destination', 'LocationPoint');
const declaredValue = dec('DeclaredValue', req);
const codAmount = dec('CODAmount', req);

export const records: RecordDef[] = [
  record('RateQuoteRequestV100', 'service', [
    str('LineOfBusiness'),
    quoteType,
    codAmount,
    dec('CustomerDiscount'),
    origin,
    destination,
    list('HandlingUnits', 'HandlingUnit', 'HandlingUnit'),
    declaredValue,
    enumList('Accessorials', 'Accessorial', 'AccessorialV100'),
  ]),
  record('HandlingUnit', 'service', [
    freightClass,
    float('Weight'),
    float('Width'),
    float('Height'),
    float('Length'),
    float('CubicFeet'),
    dec('RateValue'),
    dec('TotalValue'),
  ]),
  record('RateQuoteRequestV101', 'service', [
    quoteType,
    codAmount,
    origin,
    destination,
    list('Items', 'Item', 'RateItem'),
    declaredValue,
    enumList('Accessorials', 'Accessorial', 'AccessorialV101'),
    int('OverDimensionPcs', { ...req, doc: 'Number of over-dimension pieces (0 when none).' }),
  ]),
  record('RateItem', 'service', [
    freightClass,
    float('Weight', { ...req, doc: 'Weight in pounds.' }),
    float('Width', { ...req, doc: 'Inches; 0 when unknown.' }),
    float('Height', { ...req, doc: 'Inches; 0 when unknown.' }),
    float('Length', { ...req, doc: 'Inches; 0 when unknown.' }),
  ]),
  record('RateQuoteRequestV103', 'service', [
    quoteType,
    origin,
    destination,
    list('Items', 'Item', 'RateItem'),
    declaredValue,
    enumList('Accessorials', 'RQAccessorial', 'RQAccessorial'),
    list('OverDimensionList', 'OverDimension', 'OverDimension'),
    list('Pallets', 'Pallet', 'Pallet'),
  ]),
  record('OverDimension', 'service', [int('Pieces'), int('Inches')]),
  record('Pallet', 'service', [str('Code', { doc: 'Pallet type code, e.g. 0001.' }), int('Weight'), int('Quantity')]),

  record('RateQuoteReplyV100', 'service', [...baseReplyFields(true), rec('Result', 'QuoteDetailsV100')]),
  record('QuoteDetailsV100', 'service', [
    str('MyCarrierID', { doc: 'The carrier-specific customer id.' }),
    origin,
    destination,
    rec('OriginServiceCenter', 'ServiceCenterV100'),
    rec('DestinationServiceCenter', 'ServiceCenterV100'),
    int('ServiceDays'),
    dec('CustomerDiscounts'),
    list('HandlingUnits', 'HandlingUnit', 'QuotedHandlingUnit'),
    list('ChargeTypes', 'ChargeType', 'ChargeType'),
    rec('Ocean', 'Ocean'),
    list('Messages', 'Message', 'Message'),
    list('ServiceLevels', 'ServiceLevel', 'RateServiceLevel'),
  ]),
  record('ServiceCenterV100', 'service', [str('Code'), str('Location'), str('ZipCode'), str('Phone'), str('Address1'), str('Address2')]),
  openRecord('QuotedHandlingUnit', 'service', 'A handling unit of a 1.0.0 quote result (inner fields not expanded).'),
  openRecord('ChargeType', 'service', 'A charge of a 1.0.0 quote result (inner fields not expanded).'),
  record('Ocean', 'service', [int('ServiceDays'), rec('Entry', 'OceanEntry'), rec('Exit', 'OceanExit'), rec('Messages', 'OceanMessages')]),
  openRecord('OceanEntry', 'service', 'Ocean entry (inner fields not expanded).'),
  openRecord('OceanExit', 'service', 'Ocean exit (inner fields not expanded).'),
  openRecord('OceanMessages', 'service', 'Ocean messages (inner fields not expanded).'),

  record('RateQuoteReply', 'service', [...baseReplyFields(true), rec('Result', 'QuoteDetails')]),
  record('QuoteDetails', 'service', [
    origin,
    destination,
    rec('OriginServiceCenter', 'ServiceCenter'),
    rec('DestinationServiceCenter', 'ServiceCenter'),
    str('CustomerDiscounts'),
    list('Charges', 'Charge', 'Charge'),
    list('Messages', 'Message', 'Message'),
    list('ServiceLevels', 'ServiceLevel', 'RateServiceLevel'),
  ]),
  record('ServiceCenter', 'service', [str('Code'), str('Location'), str('ZipCode'), str('Phone'), str('Address1'), str('Address2'), str('City'), str('State')]),
  record(
    'Charge',
    'service',
    [
      str('Type', { doc: 'GROSS, DISCNT, DISCNF, FUEL, NET, or empty for an item line.' }),
      str('Title'),
      str('Weight'),
      str('Rate'),
      str('Amount', { doc: 'Money as text with a leading $, e.g. $621.43.' }),
    ],
    { source: 'facts' },
  ),
  record(
    'RateServiceLevel',
    'service',
    [
      str('Title'),
      str('Code', { doc: 'STD, GSDS, GSAM, GSHW or EXPD.' }),
      str('QuoteNumber'),
      int('ServiceDays'),
      str('Charge', { doc: 'Money as text with a leading $.' }),
      str('NetCharge', { doc: 'Money as text with a leading $.' }),
      rec('HourlyWindow', 'HourlyWindow'),
    ],
    { source: 'facts' },
  ),
];

const shape = (version: string, request: string, result: string): OperationDef => ({
  operation: 'GetRateQuote',
  version,
  service: 'RateQuoteService',
  bindings: ['soap11', 'soap12'],
  description: 'Gets a rate quote for a lane, items and accessorial services.',
  parameters: [apiKey, rec('request', request, req)],
  result,
});

export const operations: OperationDef[] = [
  shape('1.0.0', 'RateQuoteRequestV100', 'RateQuoteReplyV100'),
  shape('1.0.1', 'RateQuoteRequestV101', 'RateQuoteReply'),
  shape('1.0.3', 'RateQuoteRequestV103', 'RateQuoteReply'),
];
