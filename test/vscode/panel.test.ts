import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { Exchange } from '../../src/core/exchange';
import { findShape } from '../../src/core/catalog';
import { sampleRequestFile, TEMPLATE } from '../../src/core/generate/samples';
import { validateRequestText } from '../../src/core/validation/validate';
import { followUpFile } from '../../src/extension/panel/followUp';
import { pdfExchange, largeExchange } from './fixtures/exchanges';
import { carrierApi } from './support/extension';
import { hasBrowserHost, screenshot, webview, workbench } from './support/control';
import { nextEvent } from './support/wait';
import { workspaceRoot } from './support/workspace';

describe('results panel', () => {
  it('renders an exchange with a PDF: tree rows and a painted first page', async () => {
    const api = await carrierApi();
    const exchange = await pdfExchange();
    const rendered = nextEvent(api.onDidRenderResults, (r) => r.exchangeId === exchange.id, 'the panel to render the PDF exchange');
    await api.showExchange(exchange);
    const report = await rendered;

    assert.equal(report.summary.title, 'GetBillOfLadingPdf sandbox');
    assert.equal(report.tab, 'documents', 'a reply with documents opens on them');
    assert.ok(report.tree.renderedNodes >= 5, `tree rows built: ${report.tree.renderedNodes}`);
    assert.equal(report.tree.totalNodes, 9);
    assert.equal(report.documents.length, 1);
    const [doc] = report.documents;
    assert.equal(doc.error, undefined, `PDF error: ${doc.error}`);
    assert.equal(doc.pages, 2);
    assert.equal(doc.pagesRendered, 1, 'pages are drawn one at a time');
    assert.equal(doc.nonBlank, true, 'the canvas has ink on it');
    assert.ok(api.historyIds().includes(exchange.id), 'the exchange is in history');

    await screenshot('panel-pdf');
  });

  it('stays lazy on a multi-megabyte reply', async function () {
    this.timeout(120_000);
    const api = await carrierApi();
    const exchange = largeExchange(30_000);
    assert.ok(exchange.reply!.bodyText.length > 3_000_000, 'the fixture is large');
    const rendered = nextEvent(api.onDidRenderResults, (r) => r.exchangeId === exchange.id, 'the panel to render the large exchange', 60_000);
    await api.showExchange(exchange);
    const report = await rendered;

    assert.equal(report.tab, 'summary', 'an in-body error opens the summary');
    assert.ok(report.tree.totalNodes > 300_000, `counted ${report.tree.totalNodes} nodes`);
    assert.ok(report.tree.renderedNodes < 1_000, `only visible rows are built (${report.tree.renderedNodes})`);
    assert.ok(report.rawBodyChars <= 1_048_576, `the raw body sent to the webview is capped (${report.rawBodyChars})`);

    // Memory gives it back: History holds it as disk does (trimmed), its whole body in a file
    // of its own that Open Full Body reads (src/extension/history/historyStore.ts).
    const held = await api.testing.historyExchange(exchange.id);
    assert.ok(held?.reply && held.reply.bodyText.length <= 1_000_000, `held in memory trimmed (${held?.reply?.bodyText.length} characters)`);
    assert.notStrictEqual(held, exchange, 'History does not hold on to the whole exchange');
    const whole = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'carrier-body', path: `/${exchange.id}/reply.xml` }));
    assert.equal(whole.getText().length, exchange.reply!.bodyText.length, 'Open Full Body still has every character');
    assert.equal(whole.getText().slice(-40), exchange.reply!.bodyText.slice(-40));

    await screenshot('panel-large');
  });
});

describe("results panel: the request file's expectations", () => {
  // Each case its own file: a file rewritten on disk may reach an open editor after the send.
  const FILES = ['requests/expect-fault.carrier.json', 'requests/expect-fault-wrong-reason.carrier.json'];
  /** Three expectations (status, fault, a reply path) of a BOL that does not exist. */
  const text = (reason: string) => `{
  // A BOL nobody created: the sandbox answers with a SOAP fault, which this file expects.
  "operation": "GetBillOfLadingPdf",
  "version": "sandbox",
  "params": { "billOfLadingId": 99999999 },
  "expect": {
    "status": 500,
    "fault": { "code": "Client", "reason": "${reason}" },
    "reply": { "PdfDocument": { "absent": true } }
  }
}
`;

  async function sendFile(api: Awaited<ReturnType<typeof carrierApi>>, file: string, contents: string) {
    const uri = vscode.Uri.joinPath(workspaceRoot(), file);
    fs.writeFileSync(uri.fsPath, contents);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
    const before = new Set(api.historyIds());
    const shown = nextEvent(
      api.onDidRenderResults,
      (r) => r.summary.title === 'GetBillOfLadingPdf sandbox' && !before.has(r.exchangeId),
      'the results of the expect file',
      60_000,
    );
    await vscode.commands.executeCommand('carrier.send');
    return shown;
  }

  after(() => FILES.forEach((f) => fs.rmSync(vscode.Uri.joinPath(workspaceRoot(), f).fsPath, { force: true })));

  it('a file that expects the fault it gets: "3/3 expectations held", on the Summary', async () => {
    const api = await carrierApi();
    const report = await sendFile(api, FILES[0], text('No bill of lading with billOfLadingId 99999999'));
    assert.equal(report.summary.expectations, '3/3 expectations held');
    assert.equal(report.tab, 'summary');
    await screenshot('panel-expectations-held');
  });

  it('an expectation that does not hold is counted and named', async () => {
    const api = await carrierApi();
    const report = await sendFile(api, FILES[1], text('Some other reason'));
    assert.equal(report.summary.expectations, '2/3 expectations held');
  });
});

describe('results panel and History: the judgement made at send time', () => {
  const FILE = 'requests/expect-judged-once.carrier.json';
  /** Two expectations the sandbox's terminal reply meets; `status` is the one the test edits. */
  const TEXT = `{
  // The terminal that serves Lincoln NE; sent once, then its expect is changed without sending.
  "operation": "GetTerminalInformation",
  "version": "1.0.2",
  "params": { "ZipCode": "68507", "CountryCode": "USA", "CustomerData": "carrier-workbench test" },
  "expect": {
    "status": 200,
    "reply": { "Result[0].TerminalDetails.TerminalCode": { "exists": true } }
  }
}
`;
  const CHECKED = ['✓ status 200 (line 7)', '✓ Result[0].TerminalDetails.TerminalCode exists (line 8)'];

  after(() => fs.rmSync(vscode.Uri.joinPath(workspaceRoot(), FILE).fsPath, { force: true }));

  it("a send shows its expectations and Contract section; History reopens that judgement after the file's expect changed", async function () {
    this.timeout(120_000);
    const api = await carrierApi();
    const uri = vscode.Uri.joinPath(workspaceRoot(), FILE);
    fs.writeFileSync(uri.fsPath, TEXT);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
    const before = new Set(api.historyIds());
    const shown = nextEvent(
      api.onDidRenderResults,
      (r) => r.summary.title === 'GetTerminalInformation 1.0.2' && !before.has(r.exchangeId),
      'the results of the send',
      60_000,
    );
    await vscode.commands.executeCommand('carrier.send');
    const sent = await shown;

    // Judged once, at send time, by core's runner: the panel and History show that judgement.
    assert.equal(sent.summary.expectations, '2/2 expectations held');
    assert.deepEqual(sent.summary.checked, CHECKED);
    assert.equal(sent.summary.contract, 'The reply matches its contract.');
    const kept = await api.testing.historyExchange(sent.exchangeId);
    assert.equal(kept?.judgement?.verdict.kind, 'success');
    assert.equal(kept?.judgement?.expectations?.held, 2);
    assert.equal(kept?.judgement?.expectations?.file, uri.fsPath);
    if (hasBrowserHost()) {
      assert.match((await webview({ action: 'text', selector: '#panel-summary section.contract' })).text ?? '', /Contract\s*The reply matches its contract\./);
      assert.equal((await webview({ action: 'count', selector: '#panel-summary .expectation-check.held' })).count, 2);
      assert.equal(
        (await webview({ action: 'attr', selector: '#panel-summary section.contract', name: 'aria-label' })).value,
        'Contract: The reply matches its contract.',
      );
    }
    await screenshot('panel-judged-at-send');

    // The file's expect now says 500: a judge of the file as it is would count 1/2. Nothing is sent.
    const edit = new vscode.WorkspaceEdit();
    const at = doc.getText().indexOf('"status": 200') + '"status": '.length;
    edit.replace(uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 3)), '500');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    assert.match(fs.readFileSync(uri.fsPath, 'utf8'), /"status": 500/);
    assert.equal(api.historyIds().filter((id) => !before.has(id)).length, 1, 'the edit sent nothing');

    // Something else in the panel, then the History entry opened again.
    const other = await pdfExchange();
    const otherShown = nextEvent(api.onDidRenderResults, (r) => r.exchangeId === other.id, 'another exchange in the panel');
    await api.showExchange(other);
    await otherShown;
    const reopened = nextEvent(api.onDidRenderResults, (r) => r.exchangeId === sent.exchangeId, 'the History entry reopened');
    await vscode.commands.executeCommand('carrier.history.open', { id: sent.exchangeId });
    const again = await reopened;
    assert.equal(again.summary.expectations, '2/2 expectations held', 'the judgement made at send time, not the file as it is now');
    assert.deepEqual(again.summary.checked, CHECKED);
    assert.equal(again.summary.contract, 'The reply matches its contract.');

    if (hasBrowserHost()) {
      assert.match((await webview({ action: 'text', selector: 'header .pill-expect' })).text ?? '', /2\/2 expectations held/);
      assert.match((await webview({ action: 'text', selector: '#panel-summary .expectation-check' })).text ?? '', /status 200/);
      // The History row says the same: its verdict and the expectations kept with it.
      await vscode.commands.executeCommand('carrier.history.focus');
      const row = await workbench({ action: 'text', selector: '.monaco-list-row', hasText: '2/2 expectations held' });
      assert.match(row.text ?? '', /GetTerminalInformation 1\.0\.2.*200 OK.*✓ 2\/2 expectations held/);
    }
    await screenshot('panel-history-reopened');
  });
});

describe('results panel: the requests its actions write', () => {
  it('"Trace this PRO" and "Get this BOL\'s PDF" write request files that validate, over the exchange\'s binding and environment', () => {
    const exchange = { ...faultFreeBol(), binding: 'soap12' as const, environment: 'staging' };
    for (const [request, operation] of [
      [{ kind: 'trace-pro', pro: '200000010' }, 'TraceShipment'],
      [{ kind: 'bol-pdf', bolId: '1001' }, 'GetBillOfLadingPdf'],
    ] as const) {
      // The engine bundle lives beside the extension, not this suite: core's own functions stand in for it.
      const { name, text } = followUpFile(exchange, request, { findShape, sampleRequestFile, TEMPLATE });
      assert.match(name, request.kind === 'trace-pro' ? /^trace-pro-200000010\.carrier\.json$/ : /^bill-of-lading-1001-pdf\.carrier\.json$/);
      const result = validateRequestText(text, name);
      assert.deepEqual(
        result.findings.filter((f) => f.severity === 'error').map((f) => f.message),
        [],
        text,
      );
      assert.equal(result.request?.operation, operation);
      assert.equal(result.request?.binding, 'soap12');
      assert.equal(result.request?.environment, 'staging');
      const params = result.request?.params as { request?: { TraceNumbers?: unknown; TraceType?: unknown }; billOfLadingId?: unknown };
      if (request.kind === 'trace-pro') assert.deepEqual([params.request?.TraceNumbers, params.request?.TraceType], [['200000010'], 'PRO']);
      else assert.equal(params.billOfLadingId, 1001);
    }
  });
});

/** A CreateBillOfLading exchange as the panel holds one (only what the follow-ups read). */
function faultFreeBol(): Exchange {
  return {
    id: 'bol',
    startedAt: '2026-11-25T10:00:00.000Z',
    operation: 'CreateBillOfLading',
    version: '1.0.1',
    source: '/tmp/create.carrier.json',
    request: { method: 'POST', url: 'http://127.0.0.1:1/1.0.1/BillOfLadingService.asmx', headers: [], body: '' },
    findings: [],
    documents: [],
    parsed: { WasSuccess: true, BolID: 1001, WebProNumber: '200000010' },
  };
}
