/**
 * Sending for real: the request files of the test workspace go to the embedded sandbox (started
 * on demand) and what comes back is what the results panel shows.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RenderReport } from '../../src/webview/protocol';
import { carrierApi } from './support/extension';
import { hasBrowserHost, screenshot, webview } from './support/control';
import { nextEvent, waitFor } from './support/wait';
import { openWorkspaceFile, workspaceRoot } from './support/workspace';

function rendered(api: Awaited<ReturnType<typeof carrierApi>>, title: string, timeoutMs = 60_000): Promise<RenderReport> {
  return nextEvent(api.onDidRenderResults, (r) => r.summary.title === title, `the results of ${title}`, timeoutMs);
}

describe('sending', () => {
  it('sends the active request file to the embedded sandbox and shows its PDF', async () => {
    const api = await carrierApi();
    await openWorkspaceFile('requests/bol-pdf.carrier.json');
    const before = api.historyIds().length;
    const shown = rendered(api, 'GetBillOfLadingPdf sandbox');
    await vscode.commands.executeCommand('carrier.send');
    const report = await shown;
    assert.equal(report.tab, 'documents');
    assert.equal(report.documents.length, 1);
    assert.equal(report.documents[0].error, undefined);
    assert.ok(report.documents[0].pages >= 1);
    assert.equal(report.documents[0].nonBlank, true);
    assert.equal(api.historyIds().length, before + 1, 'the exchange went into history');
    await screenshot('send-bol-pdf');
  });

  it('opens the results panel beside the editor that sent, never over it', async () => {
    const api = await carrierApi();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const isPanel = (t: vscode.Tab) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('carrier.results');
    const groupOf = (match: (t: vscode.Tab) => boolean) => vscode.window.tabGroups.all.find((g) => g.tabs.some(match));
    const isFile = (uri: vscode.Uri) => (t: vscode.Tab) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString();

    const terminal = await openWorkspaceFile('requests/terminal.carrier.json');
    let shown = rendered(api, 'GetTerminalInformation 1.0.2');
    await vscode.commands.executeCommand('carrier.send');
    await shown;
    const panelColumn = groupOf(isPanel)?.viewColumn;
    assert.notEqual(panelColumn, groupOf(isFile(terminal.uri))?.viewColumn, 'the first send opens the panel beside the file');

    // The path: focus in the panel's group, a file opened there covers the panel, Send.
    const pdf = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), 'requests/bol-pdf.carrier.json'));
    await vscode.window.showTextDocument(pdf, { viewColumn: panelColumn, preview: false });
    assert.equal(groupOf(isFile(pdf.uri))?.viewColumn, panelColumn);
    shown = rendered(api, 'GetBillOfLadingPdf sandbox');
    await vscode.commands.executeCommand('carrier.send');
    await shown;
    const senderGroup = groupOf(isFile(pdf.uri))!;
    const panelGroup = groupOf(isPanel)!;
    assert.notEqual(panelGroup.viewColumn, senderGroup.viewColumn, "the panel moved out of the sender's group");
    assert.ok(senderGroup.activeTab && isFile(pdf.uri)(senderGroup.activeTab), 'the file that sent is still in front in its group');
    assert.ok(panelGroup.activeTab && isPanel(panelGroup.activeTab), 'the panel is in front in its own group');
    await screenshot('results-beside-sender');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('sends again from the History view', async () => {
    const api = await carrierApi();
    await openWorkspaceFile('requests/terminal.carrier.json');
    let shown = rendered(api, 'GetTerminalInformation 1.0.2');
    await vscode.commands.executeCommand('carrier.send');
    const first = await shown;
    assert.ok(first.tree.totalNodes > 10, `parsed reply has ${first.tree.totalNodes} nodes`);

    shown = rendered(api, 'GetTerminalInformation 1.0.2');
    await vscode.commands.executeCommand('carrier.history.resend', {
      id: first.exchangeId,
      source: vscode.Uri.joinPath(workspaceRoot(), 'requests/terminal.carrier.json').toString(),
    });
    const again = await shown;
    assert.notEqual(again.exchangeId, first.exchangeId, 'a new exchange');
  });

  it('Send anyway sends a file whose errors are in values, as written, and the sandbox answers it', async function () {
    const api = await carrierApi();
    const doc = await openWorkspaceFile('requests/wrong-value.carrier.json');
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
    const anyway = lenses.find((l) => l.command?.title === '$(play) Send anyway SOAP 1.1')?.command;
    assert.ok(anyway, lenses.map((l) => l.command?.title).join(' | '));
    const before = api.historyIds().length;
    const shown = rendered(api, 'GetRateQuote 1.0.3');
    await vscode.commands.executeCommand(anyway.command, ...(anyway.arguments ?? []));
    const report = await shown;
    assert.ok(report.rawBodyChars > 0, 'a reply came back');
    assert.equal(api.historyIds().length, before + 1);
    if (!hasBrowserHost()) return;
    // The sandbox read the wrong value off the wire and refused it by name: the request reached it as written.
    const pill = await webview({ action: 'attr', selector: '.header .pill', name: 'title' });
    assert.match(pill.value ?? '', /"heavy"|Sideways/);
  });

  it('reports request-file problems as diagnostics', async () => {
    const doc = await openWorkspaceFile('requests/broken.carrier.json');
    await waitFor(() => vscode.languages.getDiagnostics(doc.uri).some((d) => d.source === 'carrier'), 'carrier diagnostics');
    const diagnostics = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'carrier');
    const unknown = diagnostics.find((d) => d.severity === vscode.DiagnosticSeverity.Error);
    assert.ok(unknown, 'an error for the unknown parameter');
    assert.match(unknown.message, /did you mean "ZipCode"/);
    assert.equal(unknown.range.start.line, 4, 'located on the ZipCod line');
  });

  it('shows no problem for a valid file with comments', async () => {
    const doc = await openWorkspaceFile('requests/terminal.carrier.json');
    // The JSON language server starts lazily: wait until it has certainly looked at the file
    // (it answers a completion request), then give its diagnostics a moment to arrive.
    await waitFor(
      async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(6, 4));
        return list.items.length > 0;
      },
      'the JSON language server',
      30_000,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const problems = vscode.languages.getDiagnostics(doc.uri).map((d) => `${d.source}: ${d.message}`);
    assert.deepEqual(problems, []);
  });

  it('completes parameter names from the request-file schema', async () => {
    const uri = vscode.Uri.joinPath(workspaceRoot(), 'requests/new.carrier.json');
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode('{\n  "operation": "GetTerminalInformation",\n  "version": "1.0.2",\n  "params": {\n    \n  }\n}\n'),
    );
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    let labels: string[] = [];
    // The JSON language server starts lazily and fetches the schema: ask until it answers.
    await waitFor(
      async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(4, 4));
        labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
        return labels.some((l) => l.includes('ZipCode'));
      },
      'ZipCode among the completions',
      30_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; got ${labels.slice(0, 20).join(', ')}`);
    });
  });

  it('shows the envelope with the key masked, and copies it as curl without the key', async () => {
    await openWorkspaceFile('requests/terminal.carrier.json');
    await vscode.commands.executeCommand('carrier.showEnvelope');
    await waitFor(() => vscode.window.activeTextEditor?.document.languageId === 'xml', 'the envelope editor');
    const envelope = vscode.window.activeTextEditor!.document.getText();
    assert.match(envelope, /<GetTerminalInformation /);
    assert.match(envelope, /<APIKey>••••<\/APIKey>/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    await openWorkspaceFile('requests/terminal.carrier.json');
    await vscode.commands.executeCommand('carrier.copyAsCurl');
    const curl = await vscode.env.clipboard.readText();
    assert.match(curl, /^curl /);
    assert.ok(curl.includes(`'"$CARRIER_API_KEY"'`), 'the key is a shell variable');
    assert.ok(!curl.includes('••••'));
  });
});
