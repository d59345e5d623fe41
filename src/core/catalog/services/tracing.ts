import { apiKey } from '../shared';
import { bool, enumOf, list, openRecord, rec, record, simpleList, str } from '../define';
import type { OperationDef, RecordDef } from '../types';

/** Shipment sub-records the contract names but does not expand (docs/carrier-facts.md#tracing). */
const openShipmentRecords = ['ErrResponse', 'Parties', 'ReferenceNumbers', 'ShipmentDates', 'StatusHistory', 'HandlingUnits'];
const openName = (name: string) => `Shipment${name}`;

export const records: RecordDef[] = [
  record('TraceShipmentRequest', 'service', [
    simpleList('TraceNumbers', 'string', 'string', { required: true, doc: 'The numbers to trace, of the kind TraceType names.' }),
    enumOf('TraceType', 'TraceType', { required: true }),
    bool('FormatResults'),
    bool('IncludeBlind'),
    enumOf('OutputFormat', 'OutputFormat'),
    str('CustomerData', { doc: 'Free text echoed by the service.' }),
  ]),
  record('TraceShipmentResult', 'service', [list('Result', 'Shipment', 'Shipment')]),
  record('Shipment', 'data', [
    rec('ErrResponse', openName('ErrResponse')),
    rec('Parties', openName('Parties')),
    str('ShipmentNumber'),
    rec('ReferenceNumbers', openName('ReferenceNumbers')),
    rec('ShipmentDates', openName('ShipmentDates')),
    str('Piece'),
    str('Weight'),
    str('Blind'),
    str('ShortStatus'),
    str('LongStatus'),
    rec('StatusHistory', openName('StatusHistory')),
    str('Is3PL'),
    str('ErrorMessage'),
    str('ServiceLevel'),
    rec('HandlingUnits', openName('HandlingUnits')),
  ]),
  ...openShipmentRecords.map((name) => openRecord(openName(name), 'data', `Shipment ${name} (inner fields not expanded).`)),
];

export const operations: OperationDef[] = [
  {
    operation: 'TraceShipment',
    version: '1.0.2',
    service: 'ShipmentTracingService',
    bindings: ['soap11', 'soap12'],
    description: 'Trace shipments by one of several kinds of reference number.',
    parameters: [apiKey, rec('request', 'TraceShipmentRequest', { required: true })],
    result: 'TraceShipmentResult',
  },
];
