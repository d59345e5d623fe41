/**
 * What a History row says (src/extension/history/historyRow.ts): the call, binding, environment
 * and where it came from, a word never twice, the details in the tooltip.
 */
import * as assert from 'node:assert/strict';
import type { Exchange } from '../../src/core/exchange';
import { toHistoryEntry } from '../../src/extension/history/historyEntry';
import { historyRow } from '../../src/extension/history/historyRow';

const NOW = Date.parse('2026-11-23T10:00:05.000Z');

function exchange(over: Partial<Exchange> = {}): Exchange {
  return {
    id: 'x1',
    startedAt: '2026-11-23T10:00:00.000Z',
    operation: 'GetBillOfLadingPdf',
    version: 'sandbox',
    binding: 'soap12',
    environment: 'sandbox',
    source: 'file:///ws/requests/bol%20pdf.carrier.json',
    request: { method: 'POST', url: 'http://127.0.0.1:1/x.asmx', headers: [['User-Agent', 'python-requests/2.31.0']], body: '' },
    reply: { status: 200, statusText: 'OK', headers: [], bodyText: '<ok/>', size: 5 },
    timing: { totalMs: 12.4 },
    findings: [],
    documents: [],
    judgement: { verdict: { kind: 'success', ok: true, label: '200 OK', reason: 'HTTP 200: the service answered', tone: 'ok' } },
    ...over,
  };
}

describe('History rows', () => {
  it('a send: binding and file, the environment left out where the version already says it', () => {
    const row = historyRow(toHistoryEntry(exchange()), NOW);
    assert.equal(row.label, 'GetBillOfLadingPdf sandbox');
    assert.equal(row.description, 'bol pdf.carrier.json · SOAP 1.2 · 200 OK · 12 ms · just now');
    assert.deepEqual(new Map(row.details).get('Environment'), 'sandbox');
    assert.equal(new Map(row.details).get('Request file'), '/ws/requests/bol pdf.carrier.json');
    assert.equal(row.contextValue, 'exchange.resendable.known');
  });

  it('another environment is said', () => {
    const row = historyRow(toHistoryEntry(exchange({ version: '1.0.3', environment: 'staging' })), NOW);
    assert.equal(row.description, 'bol pdf.carrier.json · SOAP 1.2 · staging · 200 OK · 12 ms · just now');
  });

  it('a recorded exchange: the Traffic Inspector and the program, no file, not resendable', () => {
    const { source: _source, ...rest } = exchange();
    const x: Exchange = { ...rest, recorded: { direction: 'recorded', seq: 4, target: 'http://127.0.0.1:9', client: '127.0.0.1:50000', recognised: true } };
    const row = historyRow(toHistoryEntry(x), NOW);
    assert.equal(row.description, 'Traffic Inspector (python-requests) · SOAP 1.2 · 200 OK · 12 ms · just now');
    const details = new Map(row.details);
    assert.equal(details.get('Sent by'), 'another program, recorded by the Traffic Inspector (#4)');
    assert.equal(details.get('Client'), '127.0.0.1:50000');
    assert.equal(details.get('User-Agent'), 'python-requests/2.31.0');
    assert.equal(row.contextValue, 'exchange.known');
  });

  it('traffic of no known operation, and an entry kept before rows named their parts', () => {
    const unknown = historyRow(toHistoryEntry(exchange({ operation: undefined, version: undefined, binding: undefined, source: undefined })), NOW);
    assert.equal(unknown.label, 'POST /x.asmx');
    assert.equal(unknown.contextValue, 'exchange');
    const old = historyRow({ id: 'o', startedAt: '2026-11-23T09:00:00.000Z', title: 'GetTerminalInformation 1.0.2', environment: 'sandbox', status: 200 }, NOW);
    assert.equal(old.description, 'sandbox · 200 · 1 h ago');
  });
});
