/** Records used by more than one service. */
import { COUNTRY_CODES } from './enumerations';
import { inNamespace, record, simpleList, str, bool } from './define';
import type { FieldDef, RecordDef } from './types';

export const apiKey: FieldDef = str('APIKey', {
  secret: true,
  required: true,
  doc: "The API key that identifies the caller. Leave it out of request files: it comes from the environment's secret.",
});

/** Location point: rate quote Origin/Destination. */
export const LocationPoint = record('LocationPoint', 'service', [
  str('City'),
  str('StateOrProvince', { doc: 'Two-letter state or province abbreviation.' }),
  str('ZipOrPostalCode'),
  str('CountryCode', { required: true, suggestions: COUNTRY_CODES, doc: 'ISO 3166 alpha-3 country code (USA, CAN, PRI).' }),
]);

/** The same point with its children in {data_namespace}: transit OriginPoint and ServicePoint. */
export const TransitPoint = inNamespace(LocationPoint, 'TransitPoint', 'data');

export const HourlyWindow = record('HourlyWindow', 'service', [str('Start', { format: 'hh:mm AM/PM' }), str('End', { format: 'hh:mm AM/PM' })]);

export const ReferenceNumbers = record('ReferenceNumbers', 'service', [str('ShipperNumber'), str('QuoteNumber'), str('PONumber')]);

/** Message {Title, Text} inside a rate quote Result: informational notes, not strings (docs/carrier-facts.md#shared-shapes). */
export const Message = record('Message', 'service', [str('Title'), str('Text')], { source: 'facts' });

/**
 * BaseReply fields the reference carrier puts before `Result` (docs/carrier-facts.md#shared-shapes,
 * docs/carrier-facts.md#errors). The contract leaves in-body error conditions open; the workbench
 * reads these as in-body errors (docs/wire.md#in-body-error-carriers).
 */
export const baseReplyFields = (withCustomerData: boolean): FieldDef[] => [
  ...(withCustomerData ? [str('CustomerData', { source: 'facts', doc: "Echo of the request's CustomerData." })] : []),
  bool('WasSuccess', { source: 'facts', doc: 'false when the request was refused; the reasons are in Messages.' }),
  simpleList('Messages', 'string', 'string', { source: 'facts', doc: 'Validation errors, one string each.' }),
];

export const sharedRecords: RecordDef[] = [LocationPoint, TransitPoint, HourlyWindow, ReferenceNumbers, Message];
