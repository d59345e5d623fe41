import { apiKey } from '../shared';
import { enumList, list, record, str } from '../define';
import type { OperationDef, RecordDef } from '../types';

export const records: RecordDef[] = [
  record('DocumentRetrievalReply', 'service', [
    list('Documents', 'ArchiveDocument', 'ArchiveDocument'),
    enumList('AvailableDocumentTypes', 'DocumentType', 'DocumentType'),
  ]),
  record('ArchiveDocument', 'service', [str('DocumentName'), str('DocumentData', { document: true, doc: 'The document, base64-encoded.' })]),
];

const proNumber = str('ProNumber', { required: true, doc: 'The shipment (PRO) number, e.g. 056391174.' });
const customerData = str('CustomerData', { doc: 'Free text echoed by the service.' });

export const operations: OperationDef[] = [
  {
    operation: 'GetDocumentTypes',
    version: '1.0.0',
    service: 'DocumentRetrievalService',
    bindings: ['soap11', 'soap12', 'get', 'post'],
    description: 'List which document types exist for a shipment (PRO) number.',
    parameters: [apiKey, proNumber, customerData],
    result: 'DocumentRetrievalReply',
    httpReplyRoot: 'DocumentRetrievalReply',
  },
  {
    operation: 'GetDocuments',
    version: '1.0.3',
    service: 'DocumentRetrievalService',
    bindings: ['soap11', 'soap12'],
    description: 'Fetch the documents of a shipment (PRO) number.',
    // Optional, decided once with the sandbox and the manual: none asked for means every one there is.
    parameters: [
      apiKey,
      proNumber,
      enumList('documentTypes', 'DocumentType', 'DocumentType', { doc: 'The document types to fetch; left out or empty, every type the shipment has.' }),
      customerData,
    ],
    result: 'DocumentRetrievalReply',
  },
];
