/**
 * GetTransitTimes. OriginPoint and Destinations are in {service_namespace}; their contents, and
 * everything inside the reply's Result, are in {data_namespace} (docs/wire.md#namespaces,
 * docs/carrier-facts.md#transit-times).
 */
import { apiKey, baseReplyFields } from '../shared';
import { dateTime, int, list, rec, record, str } from '../define';
import type { OperationDef, RecordDef } from '../types';

export const records: RecordDef[] = [
  record('TransitTimesInput', 'service', [
    str('CustomerData', { doc: 'Free text echoed by the service.' }),
    str('LineOfBusiness'),
    dateTime('DateOfPickup', { required: true, doc: 'Pickup date as an XML Schema dateTime, e.g. 2026-11-23T00:00:00.' }),
    rec('OriginPoint', 'TransitPoint', { required: true }),
    rec('Destinations', 'TransitDestinationPoints', { required: true }),
  ]),
  record('TransitDestinationPoints', 'data', [list('DestinationPoint', 'ServicePoint', 'TransitPoint')]),

  record('TransitTimesReply', 'service', [...baseReplyFields(true), rec('Result', 'TransitTimesResult')]),
  record('TransitTimesResult', 'data', [
    int('TransitTimesID'),
    str('MyCarrierID', { doc: 'The carrier-specific customer id.' }),
    dateTime('PickupDate'),
    rec('Origin', 'TransitOrigin'),
    list('Destinations', 'Destination', 'TransitDestination'),
  ]),
  record('TransitOrigin', 'data', [rec('OriginPoint', 'TransitPoint'), rec('ServiceCenterInfo', 'ServiceCenterInfo')], { source: 'facts' }),
  record('ServiceCenterInfo', 'data', [str('ServiceCenterCode'), str('ServiceCenterLocation'), str('ServiceCenterPhone')], { source: 'facts' }),
  record(
    'TransitDestination',
    'data',
    [
      rec('DestinationPoint', 'TransitPoint'),
      rec('ServiceCenterInfo', 'ServiceCenterInfo'),
      list('ServiceLevels', 'ServiceLevel', 'TransitServiceLevel'),
      int('ServiceDays'),
      dateTime('DeliveryDate'),
      str('DestinationNotes'),
      rec('Result', 'ErrorResult', { doc: 'A per-destination error.' }),
    ],
    { source: 'facts' },
  ),
  record('TransitServiceLevel', 'data', [str('ServiceLevelCode'), str('ServiceLevelName')], { source: 'facts' }),
  record('ErrorResult', 'data', [str('Level'), str('Message')], { source: 'facts' }),
];

export const operations: OperationDef[] = [
  {
    operation: 'GetTransitTimes',
    version: '1.0.0',
    service: 'TransitTimesService',
    bindings: ['soap11', 'soap12'],
    description: 'Gets the transit times from an origin point to destination points for a pickup date.',
    parameters: [apiKey, rec('input', 'TransitTimesInput', { required: true })],
    result: 'TransitTimesReply',
  },
];
