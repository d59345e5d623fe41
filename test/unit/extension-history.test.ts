import * as assert from 'node:assert/strict';
import type { Exchange } from '../../src/core/exchange';
import { MASK } from '../../src/core/redact';
import { toHistoryEntry } from '../../src/extension/history/historyEntry';
import { KEEP_BODY_CHARS, trimForStorage, type StoredExchange } from '../../src/extension/history/trimExchange';
import { RAW_BODY_CAP_CHARS, toExchangeView } from '../../src/extension/panel/exchangeView';
import { curlWithKeyVariable } from '../../src/extension/curl';

function exchange(over: Partial<Exchange> = {}): Exchange {
  return {
    id: 'x1',
    startedAt: '2026-11-23T10:00:00.000Z',
    operation: 'GetTerminalInformation',
    version: '1.0.2',
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:1/1.0.2/TerminalInformationService.asmx',
      headers: [
        ['Content-Type', 'text/xml'],
        ['Content-Length', '42'],
      ],
      body: '<APIKey>••••</APIKey>',
    },
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

  describe('the judgement made when it was sent', () => {
    /** An exchange as a send from the editor leaves it: core's verdict, the file's expect judged (core's judgeSentFile). */
    const judged = (over: Partial<Exchange> = {}): Exchange =>
      exchange({
        source: '/ws/requests/terminal.carrier.json',
        findings: [
          {
            severity: 'error',
            kind: 'contract',
            code: 'not-of-type',
            path: 'Result[0].TerminalDetails.TerminalDetailID',
            message: 'Result[0].TerminalDetails.TerminalDetailID: "abc" is not an int; kept as text',
          },
        ],
        parsed: { Result: [{ TerminalDetails: { TerminalDetailID: 'abc' } }] },
        judgement: {
          verdict: {
            kind: 'contract-error',
            ok: false,
            label: '200 OK · breaks the contract',
            reason: 'Result[0].TerminalDetails.TerminalDetailID: "abc" is not an int; kept as text',
            tone: 'error',
          },
          expectations: {
            file: '/ws/requests/terminal.carrier.json',
            total: 2,
            held: 2,
            passed: false,
            strictContract: false,
            checked: [
              { text: 'status 200', line: 7, column: 15, held: true },
              { text: 'Result[0].TerminalCode exists', line: 8, column: 49, held: true },
            ],
            failures: [
              {
                message: 'contract: Result[0].TerminalDetails.TerminalDetailID: "abc" is not an int; kept as text',
                path: 'Result[0].TerminalDetails.TerminalDetailID',
                line: 1,
                column: 1,
                implied: true,
              },
            ],
          },
        },
        ...over,
      });

    it('the History entry takes the stored verdict and the expectations counts', () => {
      const entry = toHistoryEntry(judged());
      assert.equal(entry.verdict, 'contract-error');
      assert.equal(entry.label, '200 OK · breaks the contract');
      assert.deepEqual(entry.expectations, {
        held: 2,
        total: 2,
        passed: false,
        failures: ['contract: Result[0].TerminalDetails.TerminalDetailID: "abc" is not an int; kept as text'],
      });
      // The verdict kept is the one judged, not one decided again from the findings.
      const kept = judged({ findings: [] });
      assert.equal(toHistoryEntry(kept).verdict, 'contract-error');
      assert.equal(toHistoryEntry(exchange()).expectations, undefined, 'a file without expect has no counts');
    });

    it('keeps the judgement through trimming and a reload', () => {
      const big = judged({
        reply: { status: 200, statusText: 'OK', headers: [], bodyText: 'x'.repeat(KEEP_BODY_CHARS + 10), size: 1 },
        parsed: {
          Result: Array.from({ length: 200_000 }, (_, i) => ({ TerminalDetails: { TerminalDetailID: `abc${i}`, Name: 'A terminal name long enough' } })),
        },
      });
      const stored = trimForStorage(big);
      assert.equal(stored.trimmed, true);
      assert.equal(stored.exchange.parsed, undefined, 'the parsed reply is dropped');
      assert.deepEqual(stored.exchange.judgement, big.judgement);
      assert.deepEqual(stored.exchange.findings, big.findings, 'the contract findings stay');
      // What the store writes and reads back after a window reload (historyStore.ts).
      const reloaded = (JSON.parse(JSON.stringify(stored)) as StoredExchange).exchange;
      assert.deepEqual(reloaded.judgement, big.judgement);
      assert.deepEqual(toHistoryEntry(reloaded), toHistoryEntry(big));
      assert.deepEqual(trimForStorage(judged()).exchange.judgement, judged().judgement, 'an exchange kept whole keeps it too');
    });

    it('the panel shows the judgement it carries, its file named for display', () => {
      const view = toExchangeView(judged(), false, (f) => f.replace('/ws/', ''));
      assert.equal(view.expectations?.file, 'requests/terminal.carrier.json');
      assert.equal(view.expectations?.held, 2);
      assert.deepEqual(
        view.expectations?.checked.map((c) => c.text),
        ['status 200', 'Result[0].TerminalCode exists'],
      );
      assert.equal(toExchangeView(exchange()).expectations, undefined, 'nothing judged: nothing shown');
    });
  });

  it('copies curl with the key as $CARRIER_API_KEY and without a stale Content-Length', () => {
    const curl = curlWithKeyVariable(exchange().request);
    assert.ok(curl.includes(`'<APIKey>'"$CARRIER_API_KEY"'</APIKey>'`), curl);
    assert.ok(!/content-length/i.test(curl));
    assert.ok(!curl.includes(MASK));
  });
});
