import * as assert from 'node:assert/strict';
import type { Exchange } from '../../src/core/exchange';
import { MASK } from '../../src/core/redact';
import { toHistoryEntry } from '../../src/extension/history/historyEntry';
import { KEEP_BODY_CHARS, trimForStorage } from '../../src/extension/history/trimExchange';
import { RAW_BODY_CAP_CHARS, toExchangeView } from '../../src/extension/panel/exchangeView';
import { curlWithKeyVariable } from '../../src/extension/send/curl';

function exchange(over: Partial<Exchange> = {}): Exchange {
  return {
    id: 'x1',
    startedAt: '2026-11-23T10:00:00.000Z',
    operation: 'GetTerminalInformation',
    version: '1.0.2',
    request: { method: 'POST', url: 'http://127.0.0.1:1/1.0.2/TerminalInformationService.asmx', headers: [['Content-Type', 'text/xml'], ['Content-Length', '42']], body: '<APIKey>••••</APIKey>' },
    reply: { status: 200, statusText: 'OK', headers: [], bodyText: '<ok/>', size: 5 },
    findings: [],
    documents: [],
    ...over,
  };
}

describe('extension: history and panel helpers', () => {
  it("keeps core's verdict: transport error, fault, in-body error, HTTP error, success", () => {
    const verdict = (over: Partial<Exchange>) => toHistoryEntry(exchange(over)).verdict;
    assert.equal(verdict({ error: { kind: 'timeout', message: 't' } }), 'transport-error');
    assert.equal(verdict({ fault: { soapVersion: '1.1', code: 'soap:Client', subcodes: [], reason: 'r' } }), 'fault');
    assert.equal(verdict({ findings: [{ severity: 'error', kind: 'in-body', message: 'PRO not found' }] }), 'in-body-error');
    assert.equal(verdict({ reply: { status: 500, statusText: '', headers: [], bodyText: '', size: 0 } }), 'http-error');
    assert.equal(verdict({}), 'success');
    assert.equal(toHistoryEntry(exchange()).title, 'GetTerminalInformation 1.0.2');
  });

  it('trims large exchanges for disk and says so', () => {
    const big = exchange({ reply: { status: 200, statusText: 'OK', headers: [], bodyText: 'x'.repeat(KEEP_BODY_CHARS + 10), size: 1 } });
    const stored = trimForStorage(big);
    assert.equal(stored.trimmed, true);
    assert.equal(stored.exchange.reply!.bodyText.length, KEEP_BODY_CHARS);
    assert.equal(trimForStorage(exchange()).trimmed, false);
  });

  it('caps the body the webview gets and remembers the full length', () => {
    const body = 'y'.repeat(RAW_BODY_CAP_CHARS + 5);
    const view = toExchangeView(exchange({ reply: { status: 200, statusText: 'OK', headers: [], bodyText: body, size: body.length } }));
    assert.equal(view.exchange.reply!.bodyText.length, RAW_BODY_CAP_CHARS);
    assert.equal(view.bodyTruncatedFrom, body.length);
    assert.equal(toExchangeView(exchange()).bodyTruncatedFrom, undefined);
  });

  it('copies curl with the key as $CARRIER_API_KEY and without a stale Content-Length', () => {
    const curl = curlWithKeyVariable(exchange().request);
    assert.ok(curl.includes(`'<APIKey>'"$CARRIER_API_KEY"'</APIKey>'`), curl);
    assert.ok(!/content-length/i.test(curl));
    assert.ok(!curl.includes(MASK));
  });
});
