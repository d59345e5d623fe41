/**
 * History rows that can be told apart: a send from a request file and an exchange a program of
 * the user's made through the Traffic Inspector each say operation, version, binding,
 * environment and where they came from, without saying a word twice; Save as Request File and
 * Copy as curl work from History. And the Request tab lists every header that went.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import type { Exchange } from '../../src/core/exchange';
import { hasErrors, validateRequestText } from '../../src/core/validation/validate';
import { toHistoryEntry } from '../../src/extension/history/historyEntry';
import { historyRow } from '../../src/extension/history/historyRow';
import type { InspectorRow } from '../../src/extension/inspector/inspectorCommands';
import type { RenderReport } from '../../src/webview/protocol';
import { hasBrowserHost, screenshot, webview, workbench } from './support/control';
import { carrierApi } from './support/extension';
import { executeTestCommand, INSPECTOR_ROWS_COMMAND } from './support/testCommands';
import { nextEvent, waitFor } from './support/wait';
import { openWorkspaceFile, workspaceRoot } from './support/workspace';

/** A program's own key: it must reach neither History, its rows, a saved file nor a copied curl. */
const KEY = 'Hist0ry-Rows-Key-Of-The-Program-7f3a9c';

const repeated = (text: string) => {
  const words = text
    .toLowerCase()
    .split(/[\s·,()]+/)
    .filter(Boolean);
  return words.filter((w, i) => words.indexOf(w) !== i && !/^\d|^(ms|ok|min|ago|just|now|h)$/.test(w));
};

describe('History rows', () => {
  after(async () => {
    await vscode.commands.executeCommand('carrier.inspector.stop');
    await vscode.commands.executeCommand('carrier.inspector.clear');
  });

  it('a send and an inspector-recorded exchange: rows that differ, name binding, file or source, and do not repeat a word', async () => {
    const api = await carrierApi();

    // The workbench's own send: GetBillOfLadingPdf, version "sandbox", to the environment "sandbox".
    await openWorkspaceFile('requests/bol-pdf.carrier.json');
    const sentShown = nextEvent<RenderReport>(api.onDidRenderResults, (r) => r.summary.title === 'GetBillOfLadingPdf sandbox', 'the PDF send');
    await vscode.commands.executeCommand('carrier.send');
    const sentId = (await sentShown).exchangeId;
    const sent = (await api.testing.historyExchange(sentId))!;
    const sentRow = historyRow(toHistoryEntry(sent));
    assert.equal(sentRow.label, 'GetBillOfLadingPdf sandbox');
    assert.match(sentRow.description, /^bol-pdf\.carrier\.json · SOAP 1\.2 · 200 OK · \d+ ms · just now$/);
    assert.deepEqual(repeated(`${sentRow.label} ${sentRow.description}`), []);
    const sentDetails = new Map(sentRow.details);
    assert.equal(sentDetails.get('Environment'), 'sandbox', 'the tooltip names the environment the row leaves out');
    assert.equal(sentDetails.get('Version'), 'sandbox');
    assert.equal(sentDetails.get('Sent by'), 'the workbench');
    assert.match(sentDetails.get('Request file') ?? '', /requests[/\\]bol-pdf\.carrier\.json$/);
    assert.equal(sentRow.contextValue, 'exchange.resendable.known');

    // The headers as they went: Host, Connection and Content-Length too.
    const names = sent.request.headers.map(([n]) => n.toLowerCase());
    for (const n of ['host', 'connection', 'content-length', 'content-type']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);

    // A program of the user's, through the Traffic Inspector.
    const url = await vscode.commands.executeCommand<string>('carrier.inspector.start');
    const op = findShape('GetHazmatDescription')!;
    const spec = buildHttpRequest({ op, binding: 'soap12', baseUrl: url!, namespaces: DEFAULT_NAMESPACES, params: { UNNANumber: '1203' }, apiKey: KEY });
    const reply = await fetch(spec.url, {
      method: 'POST',
      headers: [...(spec.headers as Array<[string, string]>), ['User-Agent', 'acme-shipper/2.1']],
      body: spec.body,
    });
    assert.equal(reply.status, 200);
    await reply.text();
    let call: InspectorRow | undefined;
    await waitFor(async () => {
      call = ((await executeTestCommand<InspectorRow[]>(INSPECTOR_ROWS_COMMAND)) ?? []).find((r) => r.operation === 'GetHazmatDescription');
      return call !== undefined;
    }, 'the recorded call in the Traffic Inspector view');
    // Opening it puts it in History.
    const recordedShown = nextEvent<RenderReport>(api.onDidRenderResults, (r) => r.exchangeId === call!.id, 'the recorded call in the panel');
    await vscode.commands.executeCommand('carrier.inspector.open', call!.id);
    await recordedShown;
    assert.ok(api.historyIds().includes(call!.id));
    const recorded = (await api.testing.historyExchange(call!.id))!;
    const recordedRow = historyRow(toHistoryEntry(recorded));
    assert.equal(recordedRow.label, 'GetHazmatDescription sandbox');
    assert.match(recordedRow.description, /^Traffic Inspector \(acme-shipper\) · SOAP 1\.2 · 200 OK · \d+ ms · just now$/);
    assert.deepEqual(repeated(`${recordedRow.label} ${recordedRow.description}`), []);
    const recordedDetails = new Map(recordedRow.details);
    assert.match(recordedDetails.get('Sent by') ?? '', /recorded by the Traffic Inspector \(#\d+\)/);
    assert.match(recordedDetails.get('Client') ?? '', /^127\.0\.0\.1:\d+$/);
    assert.equal(recordedDetails.get('User-Agent'), 'acme-shipper/2.1');
    assert.equal(recordedDetails.get('Request file'), undefined);
    assert.equal(recordedRow.contextValue, 'exchange.known', 'no request file to send again');
    assert.ok(!JSON.stringify([recordedRow, recorded]).includes(KEY), 'the key is nowhere in History');

    if (hasBrowserHost()) {
      await vscode.commands.executeCommand('carrier.history.focus');
      const shownSent = await workbench({ action: 'text', selector: '.monaco-list-row', hasText: 'bol-pdf.carrier.json' });
      assert.match(shownSent.text ?? '', /GetBillOfLadingPdf sandbox\s*bol-pdf\.carrier\.json · SOAP 1\.2 · 200 OK/);
      const shownRecorded = await workbench({ action: 'text', selector: '.monaco-list-row', hasText: 'acme-shipper' });
      assert.match(shownRecorded.text ?? '', /GetHazmatDescription sandbox\s*Traffic Inspector \(acme-shipper\) · SOAP 1\.2/);
    }
    await vscode.commands.executeCommand('carrier.history.focus');
    await new Promise((r) => setTimeout(r, 500));
    await screenshot('history-rows');
  });

  it('Save as Request File and Copy as curl from History, for a send and for a recorded exchange', async () => {
    const api = await carrierApi();
    const ids = api.historyIds();
    const exchanges = (await Promise.all(ids.map((id) => api.testing.historyExchange(id)))).filter((x): x is Exchange => x !== undefined);
    const sent = exchanges.find((x) => x.operation === 'GetBillOfLadingPdf' && !x.recorded)!;
    const recorded = exchanges.find((x) => x.operation === 'GetHazmatDescription' && x.recorded)!;
    assert.ok(sent && recorded, 'both exchanges of the test before are in History');

    for (const [x, name, params] of [
      [sent, 'from-history-bol.carrier.json', { billOfLadingId: 1 }],
      [recorded, 'from-history-hazmat.carrier.json', { UNNANumber: '1203' }],
    ] as const) {
      const target = vscode.Uri.joinPath(workspaceRoot(), 'requests', name);
      const saved = await vscode.commands.executeCommand<vscode.Uri>('carrier.history.saveAsRequestFile', x.id, target);
      assert.equal(saved?.toString(), target.toString());
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      assert.ok(!text.includes(KEY) && !text.includes('APIKey'), text);
      const { findings, request } = validateRequestText(text, target.fsPath);
      assert.ok(request && !hasErrors(findings), findings.map((f) => f.message).join('\n'));
      assert.equal(request.operation, x.operation);
      assert.equal(request.binding, x.binding);
      assert.deepEqual(request.params, params);
      if (x.recorded) assert.match(text, /Recorded by the Carrier traffic inspector/);
      else assert.match(text, /From Carrier History/);

      const curl = await vscode.commands.executeCommand<string>('carrier.history.copyAsCurl', x.id);
      assert.ok(curl, 'a curl command');
      assert.equal(await vscode.env.clipboard.readText(), curl);
      assert.match(curl, /\$CARRIER_API_KEY/);
      assert.ok(!curl.includes(KEY));
      assert.ok(!/-H '(host|content-length|connection):/i.test(curl), 'curl computes those itself');
      assert.ok(curl.includes(x.request.url.replace(/\?.*$/, '')), curl);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the Request tab lists every header that went', async function () {
    const api = await carrierApi();
    const sent = (await Promise.all(api.historyIds().map((id) => api.testing.historyExchange(id)))).find(
      (x) => x?.operation === 'GetBillOfLadingPdf' && !x.recorded,
    )!;
    const shown = nextEvent<RenderReport>(api.onDidRenderResults, (r) => r.exchangeId === sent.id, 'the send reopened');
    await vscode.commands.executeCommand('carrier.history.open', { id: sent.id });
    await shown;
    if (!hasBrowserHost()) return this.skip();
    await webview({ action: 'click', selector: '#tab-request' });
    await webview({ action: 'waitFor', selector: '#panel-request table.headers' });
    const table = (await webview({ action: 'text', selector: '#panel-request table.headers' })).text ?? '';
    for (const n of ['host', 'connection', 'content-length', 'Content-Type']) assert.ok(table.includes(n), `${n} in ${table}`);
    const count = await webview({ action: 'count', selector: '#panel-request table.headers tr' });
    assert.equal(count.count, sent.request.headers.length);
    await screenshot('request-tab-headers');
  });
});
