/**
 * The day the key arrives, in the editor: Check Contract of Environment… against a live service
 * (the sandbox with other namespaces behind altered WSDLs) shows the report as a page, Apply sets
 * the namespaces in carrier.environments.json with its comment kept and stores the contract, and
 * the open request file's diagnostics, completion and hovers follow it at once. Compare With
 * Environment… opens the two replies side by side and names the element one side lacks.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { keyDestination } from '../../src/core/environments';
import { alterLiveReply, alterLiveWsdl, liveRequest, LIVE_NAMESPACES, startLiveService, type LiveService } from '../unit/contract-kit';
import { hasBrowserHost, screenshot, typeIntoWorkbench } from './support/control';
import { carrierApi } from './support/extension';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

interface CheckResult {
  exitCode: number;
  report: { environment: string; namespaces: Record<string, { live?: string; differs: boolean }>; summary: { differences: number } };
  html: string;
}
interface CompareResult {
  environments: [string, string];
  differences: Array<{ kind: string; path: string; side?: number }>;
  left: string;
  right: string;
}

const QUOTE = `{
  "operation": "GetRateQuote",
  "version": "1.0.3",
  "environment": "live",
  "params": {
    "request": {
      "QuoteType": "Domestic",
      "Origin": { "ZipOrPostalCode": "37029", "CountryCode": "USA" },
      "Destination": { "ZipOrPostalCode": "33635", "CountryCode": "USA" },
      "Items": [ { "Class": "50.0", "Weight": 1500, "Pieces": 2, "Width": 48, "Height": 40, "Length": 48 } ],
      "DeclaredValue": 0
    }
  }
}
`;

describe('the live contract in the editor', () => {
  let live: LiveService;
  let envFile: vscode.Uri;
  let quote: vscode.Uri;
  let original: string | undefined;

  before(async () => {
    live = await startLiveService({ alterWsdl: alterLiveWsdl, alterReply: alterLiveReply, alterRequest: liveRequest });
    envFile = vscode.Uri.joinPath(workspaceRoot(), 'carrier.environments.json');
    original = fs.existsSync(envFile.fsPath) ? fs.readFileSync(envFile.fsPath, 'utf8') : undefined;
    await vscode.workspace.fs.writeFile(envFile, new TextEncoder().encode(`{\n  // the carrier, day one\n  "live": {\n    "baseUrl": "${live.url}"\n  }\n}\n`));
    quote = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'live-quote.carrier.json');
    await vscode.workspace.fs.writeFile(quote, new TextEncoder().encode(QUOTE));
    await carrierApi();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (original === undefined) fs.rmSync(envFile.fsPath, { force: true });
    else fs.writeFileSync(envFile.fsPath, original);
    fs.rmSync(quote.fsPath, { force: true });
    fs.rmSync(path.join(workspaceRoot().fsPath, '.carrier'), { recursive: true, force: true });
    await live?.close();
  });

  const diagnostics = () => vscode.languages.getDiagnostics(quote).map((d) => `${vscode.DiagnosticSeverity[d.severity]}: ${d.message}`);

  it('checks the contract, shows it as a page, applies it, and the open request file follows it', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(quote));
    // Before: the catalog alone, where Pieces is no field of an item.
    await waitFor(() => diagnostics().some((d) => /^Error: .*Pieces is not a field of RateItem/.test(d)), "the catalog's error on Pieces");

    const result = await vscode.commands.executeCommand<CheckResult>('carrier.checkContract', 'live');
    assert.ok(result, 'the check returned its result');
    assert.equal(result.exitCode, 1);
    assert.equal(result.report.namespaces.data.live, LIVE_NAMESPACES.data);
    assert.equal(result.report.namespaces.data.differs, true);
    // A page to read, not JSON: the namespaces table and a row per difference, grouped by service path.
    assert.match(result.html, /<h1>Contract of “live”<\/h1>/);
    // When it was checked, as a person reads it; the ISO stamp only in the tooltip (issue 38, item 8).
    const when = /checked <time datetime="([^"]+)" title="\1">([^<]+)<\/time>/.exec(result.html);
    assert.ok(when, 'the check time is a <time> with the ISO stamp as its tooltip');
    assert.ok(!Number.isNaN(Date.parse(when[1])), when[1]);
    assert.notEqual(when[2], when[1], 'the shown time is not the raw ISO stamp');
    assert.match(result.html, /<h2>\/1\.0\.3\/RateQuoteService\.asmx <small>RateQuoteService 1\.0\.3<\/small><\/h2>/);
    assert.match(result.html, /request\.Items\[\*\]\.Pieces: the live contract adds Pieces/);
    assert.match(result.html, /<button id="apply">/);
    await waitFor(() => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === 'Contract: live')), 'the contract page');
    await screenshot('contract-report');

    const applied = await vscode.commands.executeCommand<{ changed: string[]; contractFile: string }>('carrier.applyContract', 'live');
    assert.deepEqual(applied?.changed, ['serviceNamespace', 'dataNamespace', 'pickupNamespace']);
    const text = fs.readFileSync(envFile.fsPath, 'utf8');
    assert.match(text, /^\{\n {2}\/\/ the carrier, day one\n {2}"live": \{\n/);
    for (const uri of Object.values(LIVE_NAMESPACES)) assert.ok(text.includes(`"${uri}"`), uri);
    assert.ok(fs.existsSync(path.join(workspaceRoot().fsPath, '.carrier', 'contracts', 'live.json')));

    // After: the open file's problems follow the stored contract without an edit.
    await waitFor(
      () => diagnostics().some((d) => /^Information: .*Pieces is not in the catalog; the live contract of environment "live"/.test(d)),
      "the contract's note on Pieces",
      20_000,
    );
    assert.ok(!diagnostics().some((d) => d.startsWith('Error')), diagnostics().join('\n'));

    const doc = await vscode.workspace.openTextDocument(quote);
    const onPieces = doc.positionAt(QUOTE.indexOf('"Pieces"') + 2);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', quote, onPieces);
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(hoverText, /\*\*Pieces\*\* — not in the catalog/);
    const inRequest = doc.positionAt(QUOTE.indexOf('"QuoteType"'));
    const completions = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', quote, inRequest);
    assert.ok(
      completions.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'CustomerData'),
      'CustomerData is offered in the request record',
    );
  });

  it("compares a request file's replies with another environment, side by side", async function () {
    // A send to "live" needs its key, which only the browser host can type.
    if (!hasBrowserHost()) this.skip();
    const api = await carrierApi();
    const done = vscode.commands.executeCommand('carrier.setApiKey', 'live', keyDestination({ embedded: false, baseUrl: live.url }));
    assert.ok(await typeIntoWorkbench('LiveContractTestKey0123456789abcdefghijklmnopqrstu'), 'typed the key');
    await done;
    await waitFor(() => api.hasApiKey('live'), 'the key to be stored');

    const terminal = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'terminal.carrier.json');
    const result = await vscode.commands.executeCommand<CompareResult>('carrier.compareWithEnvironment', terminal, 'live');
    assert.ok(result, 'the comparison returned its result');
    assert.deepEqual(result.environments, ['sandbox', 'live']);
    assert.deepEqual(
      result.differences.map((d) => [d.kind, d.path, d.side]),
      [['only-in', 'Result[*].TerminalDetails.TerminalType', 0]],
    );
    assert.match(result.left, /\/\/ {3}only in sandbox: Result\[\*\]\.TerminalDetails\.TerminalType/);
    assert.match(result.left, /"TerminalType"/);
    assert.doesNotMatch(result.right, /"TerminalType"/);
    await waitFor(
      () =>
        vscode.window.tabGroups.all.some((g) =>
          g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'carrier-compare'),
        ),
      'the diff editor of the two replies',
    );
    await screenshot('contract-compare');
    await vscode.commands.executeCommand('carrier.clearApiKey', 'live');
  });
});
