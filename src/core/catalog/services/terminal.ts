import { apiKey } from '../shared';
import { dateTime, int, list, openRecord, rec, record, str } from '../define';
import type { OperationDef, RecordDef } from '../types';

export const records: RecordDef[] = [
  record('TerminalInformationReply', 'service', [list('Result', 'TerminalInfo', 'TerminalInfo')]),
  record('TerminalInfo', 'data', [rec('TerminalDetails', 'TerminalDetails'), list('TerminalPhoneNumbers', 'TerminalPhone', 'TerminalPhone')]),
  record('TerminalDetails', 'data', [
    int('TerminalDetailID'),
    int('TerminalLocationID'),
    str('TerminalLocationName'),
    str('TerminalName'),
    str('TerminalType'),
    str('TerminalCode'),
    str('TerminalMailingAddress1'),
    str('TerminalMailingAddress2'),
    str('TerminalMailingCity'),
    str('TerminalMailingState'),
    str('TerminalMailingZip'),
    str('TerminalMailingCountry'),
    dateTime('DateCreated'),
  ]),
  openRecord('TerminalPhone', 'data', 'A terminal phone entry (inner fields not expanded).'),
];

export const operations: OperationDef[] = [
  {
    operation: 'GetTerminalInformation',
    version: '1.0.2',
    service: 'TerminalInformationService',
    bindings: ['soap11', 'soap12', 'get', 'post'],
    description: 'Look up carrier terminals for a postal code and country.',
    parameters: [
      apiKey,
      str('ZipCode', { required: true }),
      str('CountryCode', { required: true, suggestions: ['USA', 'CAN'] }),
      str('CustomerData', { doc: 'Free text echoed by the service.' }),
    ],
    result: 'TerminalInformationReply',
    httpReplyRoot: 'TerminalInformationReply',
  },
];
