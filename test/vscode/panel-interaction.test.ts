/**
 * The results panel used the way a person uses it: clicks and keys inside the real webview,
 * driven through the runner's browser. Skipped on a desktop host, which has no page to drive.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { Exchange } from '../../src/core/exchange';
import type { CarrierApi } from '../../src/extension/api';
import { faultExchange, largeExchange, pdfExchange } from './fixtures/exchanges';
import { acceptInWorkbench, hasBrowserHost, screenshot, webview } from './support/control';
import { carrierApi } from './support/extension';
import { nextEvent, waitFor } from './support/wait';
import { openWorkspaceFile, workspaceRoot } from './support/workspace';

async function show(api: CarrierApi, exchange: Exchange) {
  const rendered = nextEvent(api.onDidRenderResults, (r) => r.exchangeId === exchange.id, `render of ${exchange.operation}`);
  await api.showExchange(exchange);
  return rendered;
}

describe('results panel, by keyboard and mouse', function () {
  before(function () {
    if (!hasBrowserHost()) this.skip();
  });

  it('moves between tabs with the arrow keys, Home and End', async () => {
    const api = await carrierApi();
    await show(api, await pdfExchange());
    await webview({ action: 'click', selector: '#tab-summary' });
    await webview({ action: 'press', key: 'ArrowRight' });
    let focused = await webview({ action: 'focused' });
    assert.equal(focused.id, 'tab-tree');
    assert.equal(focused.selected, 'true');
    await webview({ action: 'press', key: 'End' });
    assert.equal((await webview({ action: 'focused' })).id, 'tab-timing');
    await webview({ action: 'press', key: 'Home' });
    focused = await webview({ action: 'focused' });
    assert.equal(focused.id, 'tab-summary');
    assert.equal(await visibleText('#panel-summary h2'), 'Findings');
  });

  it('jumps from a finding to its node in the parsed tree, and walks the tree by keyboard', async () => {
    const api = await carrierApi();
    const exchange = largeExchange(2_000);
    await show(api, exchange);
    await webview({ action: 'click', selector: '.finding-path' });
    let focused = await webview({ action: 'focused' });
    assert.equal(focused.role, 'treeitem');
    assert.match(focused.text ?? '', /ErrorMessage: PRO not found/);
    assert.equal(focused.inView, true, 'the row is scrolled into view');
    await screenshot('panel-tree');

    await webview({ action: 'press', key: 'ArrowLeft' });
    focused = await webview({ action: 'focused' });
    assert.match(focused.text ?? '', /^\[1997\]/, 'ArrowLeft goes to the parent');
    assert.equal(focused.expanded, 'true');
    await webview({ action: 'press', key: 'ArrowLeft' });
    assert.equal((await webview({ action: 'focused' })).expanded, 'false', 'a second ArrowLeft collapses it');
    await webview({ action: 'press', key: 'ArrowDown' });
    assert.match((await webview({ action: 'focused' })).text ?? '', /^\[1998\]/);
  });

  it('searches the parsed reply', async () => {
    const api = await carrierApi();
    await show(api, largeExchange(2_000));
    await webview({ action: 'click', selector: '#tab-tree' });
    await webview({ action: 'fill', selector: '#panel-tree input[type=search]', text: 'Consignee 1999' });
    await waitFor(async () => /1 of 1/.test((await webview({ action: 'text', selector: '.search-status' })).text ?? ''), 'one search match');
    assert.match((await webview({ action: 'text', selector: '.row.current > .row-line' })).text ?? '', /Name: Consignee 1999/);
  });

  it('caps the raw body and opens the full body in an editor', async () => {
    const api = await carrierApi();
    const exchange = largeExchange(30_000);
    await show(api, exchange);
    await webview({ action: 'click', selector: '#tab-reply' });
    assert.match(await visibleText('#panel-reply .notice'), /Showing the first 1\.0 MB of 3\.\d MB/);
    await webview({ action: 'click', selector: '#panel-reply button:has-text("Open in Editor")' });
    const full = exchange.reply!.bodyText.length;
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.scheme === 'carrier-body', 'the body editor');
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.getText().length, full, 'the whole body, not the capped copy');
    assert.equal(doc.languageId, 'xml');
    assert.equal(doc.isDirty, false);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('saves a PDF through the save dialog', async () => {
    const api = await carrierApi();
    const exchange = await pdfExchange();
    await show(api, exchange);
    // The dialog proposes the document's own (sanitised) name in the workspace folder. The
    // browser's simple file dialog rewrites typed paths while it lists the folder, so the test
    // accepts the proposal, which checks the proposal too.
    const target = vscode.Uri.joinPath(workspaceRoot(), exchange.documents[0].name).fsPath;
    fs.rmSync(target, { force: true });
    await webview({ action: 'click', selector: 'button:has-text("Save PDF")' });
    assert.ok(await acceptInWorkbench(), 'accepted the proposed path in the save dialog');
    await waitFor(() => fs.existsSync(target) && fs.statSync(target).size === exchange.documents[0].size, 'the PDF on disk').catch((err: Error) => {
      throw new Error(`${err.message}; workspace holds ${fs.readdirSync(workspaceRoot().fsPath).join(', ')}`);
    });
    assert.equal(fs.readFileSync(target).subarray(0, 5).toString('latin1'), '%PDF-');
  });

  it('comes back after being hidden behind another editor', async () => {
    const api = await carrierApi();
    const exchange = await pdfExchange();
    await show(api, exchange);
    const panelColumn = vscode.window.tabGroups.activeTabGroup.viewColumn;
    assert.ok(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview, 'the panel has focus');
    // The panel keeps no context while hidden; showing it again must render the same exchange.
    const again = nextEvent(api.onDidRenderResults, (r) => r.exchangeId === exchange.id, 'the re-render after reveal');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), 'README.md'));
    await vscode.window.showTextDocument(doc, { viewColumn: panelColumn });
    await vscode.commands.executeCommand('carrier.showResults');
    const report = await again;
    assert.equal(report.documents[0].nonBlank, true);
  });

  it('spells out a SOAP fault, and shows reply values as text, never as markup', async () => {
    const api = await carrierApi();
    const report = await show(api, faultExchange());
    assert.equal(report.tab, 'summary');
    assert.match(await visibleText('#panel-summary .callout-error strong'), /^SOAP 1\.1 fault: Server was unable to read request\. ---> There is an error/);
    assert.match(await visibleText('header .pill'), /500 SOAP fault/);
    // The fault detail holds a '<script>' key: it must arrive as characters, not as an element.
    assert.equal((await webview({ action: 'count', selector: '#panel-summary script' })).count, 0);
    await webview({ action: 'click', selector: '#panel-summary details > summary' });
    assert.match(await visibleText('#panel-summary details pre'), /"<script>": "alert\(1\)"/);
    await webview({ action: 'click', selector: '#tab-timing' });
    assert.match(await visibleText('#panel-timing tr.total'), /Total\s*13\.9\d? ms|Total\s*14 ms/);
    await screenshot('panel-fault-timing');
  });

  it('follows the colour theme', async () => {
    const api = await carrierApi();
    await openWorkspaceFile('requests/bol-pdf.carrier.json');
    await show(api, await pdfExchange());
    const config = vscode.workspace.getConfiguration('workbench');
    try {
      for (const [theme, bodyClass, shot] of [
        ['Default Dark Modern', 'vscode-dark', 'panel-dark'],
        ['Default High Contrast', 'vscode-high-contrast', 'panel-high-contrast'],
      ] as const) {
        await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
        await waitFor(
          async () => ((await webview({ action: 'attr', selector: 'body', name: 'class' })).value ?? '').includes(bodyClass),
          `${bodyClass} on the webview body`,
        );
        await new Promise((r) => setTimeout(r, 300));
        await screenshot(shot);
      }
    } finally {
      await config.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

describe('results panel tells the truth, and its buttons do what they say', function () {
  before(function () {
    if (!hasBrowserHost()) this.skip();
  });

  it('names a sandbox-path operation once in the header, says a fault once, and names a PDF in the Parsed tab', async () => {
    const api = await carrierApi();
    await show(api, await pdfExchange());
    assert.equal(await visibleText('header h1'), 'GetBillOfLadingPdf');
    const header = await visibleText('header');
    assert.equal(header.split('sandbox').length - 1, 1, header);
    await webview({ action: 'click', selector: '#tab-tree' });
    const row = await visibleText('#panel-tree .v-document');
    assert.match(row, /^PDF, 2 pages, [\d.]+ KB \(base64\)/);
    await webview({ action: 'click', selector: '#panel-tree .v-document button' });
    assert.equal((await webview({ action: 'attr', selector: '#tab-documents', name: 'aria-selected' })).value, 'true');

    await show(api, faultExchange());
    assert.equal((await webview({ action: 'count', selector: '#panel-summary .callout-error' })).count, 1);
    assert.equal((await webview({ action: 'count', selector: '#panel-summary .finding' })).count, 0, 'the fault is not listed again under Findings');
  });

  it('says on the Timing tab that a connection never opened', async () => {
    const api = await carrierApi();
    await show(api, refusedExchange());
    await webview({ action: 'click', selector: '#tab-timing' });
    assert.match(await visibleText('#panel-timing .timing-note'), /^The connection never opened \(connect\)/);
    await screenshot('panel-timing-refused');
  });

  it('"Trace this PRO" opens a new request file for the PRO beside the panel, and it sends', async () => {
    const api = await carrierApi();
    await openWorkspaceFile('collections/bill-of-lading/01-create-bill-of-lading.carrier.json');
    const created = nextEvent(api.onDidRenderResults, (r) => r.summary.domain === 'bill-of-lading', 'the new bill of lading', 60_000);
    await vscode.commands.executeCommand('carrier.send');
    await created;
    const pro = ((await webview({ action: 'text', selector: '[data-path="WebProNumber"] .number-value' })).text ?? '').trim();
    assert.match(pro, /^\d{9}$/);
    await screenshot('panel-bill-of-lading');

    await webview({ action: 'click', selector: 'button:has-text("Trace this PRO")' });
    await waitFor(
      () =>
        vscode.window.activeTextEditor?.document.uri.path.endsWith(`trace-pro-${pro}.carrier.json`) === true &&
        vscode.window.activeTextEditor.document.getText() !== '',
      'the new request file',
    );
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.scheme, 'untitled');
    assert.equal(editor.document.languageId, 'carrier-request');
    const text = editor.document.getText();
    assert.match(text, /"operation": "TraceShipment"/);
    assert.match(text, new RegExp(`"TraceNumbers": \\[\\s*"${pro}"\\s*\\]`));
    assert.match(text, /"TraceType": "PRO"/);
    const panelGroup = vscode.window.tabGroups.all.find((g) =>
      g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('carrier.results')),
    );
    assert.ok(panelGroup, 'the panel is open');
    assert.notEqual(editor.viewColumn, panelGroup.viewColumn, 'the new file does not cover the panel');

    const traced = nextEvent(api.onDidRenderResults, (r) => r.summary.domain === 'trace', 'the trace of the new PRO', 60_000);
    await vscode.commands.executeCommand('carrier.send');
    await traced;
    assert.equal(await visibleText('.domain-trace .card h3'), `PRO ${pro}`);
    await screenshot('panel-trace-follow-up');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});

/** What core reports when nothing listens at the address: a connect error before any phase. */
function refusedExchange(): Exchange {
  const url = 'http://127.0.0.1:9/1.0.2/TerminalInformationService.asmx';
  const message = `Connection refused by 127.0.0.1:9 (${url}): is the service running, and is the environment's baseUrl right?`;
  return {
    id: `refused-${Date.now()}`,
    startedAt: new Date().toISOString(),
    operation: 'GetTerminalInformation',
    version: '1.0.2',
    binding: 'soap11',
    environment: 'gone',
    endpoint: url,
    request: { method: 'POST', url, headers: [['Content-Type', 'text/xml; charset=utf-8']], body: '<soap:Envelope/>' },
    timing: { totalMs: 2.4 },
    sizes: { requestBytes: 480, replyBytes: 0 },
    findings: [{ severity: 'error', kind: 'transport', message }],
    documents: [],
    error: { kind: 'connect', message },
  };
}

async function visibleText(selector: string): Promise<string> {
  await webview({ action: 'waitFor', selector });
  return ((await webview({ action: 'text', selector })).text ?? '').trim();
}
