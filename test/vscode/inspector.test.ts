/**
 * The traffic inspector in VS Code: started by its command in front of the embedded sandbox, a
 * program's request through it shows up in the Traffic Inspector view, opens in the results
 * panel, and becomes a request file that validates and sends.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import { hasErrors, validateRequestText } from '../../src/core/validation/validate';
import type { InspectorRow } from '../../src/extension/inspector/inspectorCommands';
import type { RenderReport } from '../../src/webview/protocol';
import { acceptInWorkbench, hasBrowserHost, screenshot } from './support/control';
import { carrierApi } from './support/extension';
import { executeTestCommand, INSPECTOR_ROWS_COMMAND } from './support/testCommands';
import { nextEvent, waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

/** The parameters of a request XML body, from the operation's first child to its end, without the key. */
function parameterBytes(body: string, operation: string): string {
  const inner = new RegExp(`<${operation}\\b[^>]*>([\\s\\S]*)</${operation}>`).exec(body)?.[1];
  assert.ok(inner, `no <${operation}> in ${body}`);
  return inner.replace(/<APIKey>[^<]*<\/APIKey>/, '');
}

/** A key a program would send; it must reach neither the view, the panel nor the saved file. */
const KEY = 'Vs9Code&Key<Of+The/Program 42';

const rows = async () => (await executeTestCommand<InspectorRow[]>(INSPECTOR_ROWS_COMMAND)) ?? [];

describe('traffic inspector', () => {
  after(async () => {
    await vscode.commands.executeCommand('carrier.inspector.stop');
    await vscode.commands.executeCommand('carrier.inspector.clear');
  });

  it("records a program's calls, shows them in the view, opens one, and saves it as a request file that sends", async () => {
    const api = await carrierApi();
    const url = await vscode.commands.executeCommand<string>('carrier.inspector.start');
    assert.match(url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await vscode.commands.executeCommand<string>('carrier.inspector.start'), url, 'starting again gives the running one');

    // A program of someone's own: a plain SOAP 1.1 call, and a request the catalog does not know.
    const op = findShape('GetHazmatDescription')!;
    const spec = buildHttpRequest({ op, binding: 'soap11', baseUrl: url!, namespaces: DEFAULT_NAMESPACES, params: { UNNANumber: '1203' }, apiKey: KEY });
    const reply = await fetch(spec.url, { method: 'POST', headers: spec.headers as Array<[string, string]>, body: spec.body });
    assert.equal(reply.status, 200);
    assert.match(await reply.text(), /GetHazmatDescriptionResult/);
    assert.equal((await fetch(`${url}/not/the/service`)).status, 404);

    await waitFor(async () => (await rows()).length >= 2, 'two exchanges in the Traffic Inspector view');
    const shown = await rows();
    const call = shown.find((r) => r.operation === 'GetHazmatDescription');
    assert.ok(call, JSON.stringify(shown));
    assert.equal(call.label, 'GetHazmatDescription sandbox');
    assert.match(call.description, /^SOAP 1\.1 · 200 · \d+ ms · ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    assert.equal(call.verdict, 'success');
    assert.equal(call.contextValue, 'inspectorExchange.known');
    const unknown = shown.find((r) => r.label === 'GET /not/the/service');
    assert.ok(unknown, JSON.stringify(shown));
    assert.equal(unknown.verdict, 'http-error', 'not a call of the catalog, answered 404');
    assert.equal(unknown.contextValue, 'inspectorExchange.unknown');
    assert.equal(shown[0].id, unknown.id, 'newest first');
    assert.ok(!JSON.stringify(shown).includes(KEY));
    // The view lives in the Carrier side bar (VS Code made its focus command from the contribution).
    await vscode.commands.executeCommand('carrier.inspector.focus');
    await new Promise((r) => setTimeout(r, 500));
    await screenshot('inspector-view');

    const rendered = nextEvent<RenderReport>(api.onDidRenderResults, (r) => r.exchangeId === call.id, 'the recorded exchange in the results panel');
    await vscode.commands.executeCommand('carrier.inspector.open', call.id);
    const report = await rendered;
    assert.equal(report.summary.title, 'GetHazmatDescription sandbox');
    assert.ok(report.tree.totalNodes > 3, `the parsed reply has ${report.tree.totalNodes} nodes`);
    await screenshot('inspector-exchange');

    const target = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'recorded-hazmat.carrier.json');
    const saved = await vscode.commands.executeCommand<vscode.Uri>('carrier.inspector.saveAsRequestFile', call.id, target);
    assert.equal(saved?.toString(), target.toString());
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.ok(!text.includes(KEY) && !text.includes('Vs9Code&amp;Key'), 'the saved file holds no key');
    const { findings, request } = validateRequestText(text, target.fsPath);
    assert.ok(request && !hasErrors(findings), findings.map((f) => f.message).join('\n'));
    assert.deepEqual(request.params, { UNNANumber: '1203' });
    assert.deepEqual(request.expect, { status: 200, fault: false });

    // The saved file is open in the editor: send it as any request file is sent.
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.toString() === target.toString(), 'the saved file in the editor');
    const sent = nextEvent<RenderReport>(
      api.onDidRenderResults,
      (r) => r.exchangeId !== call.id && r.summary.title === 'GetHazmatDescription sandbox',
      'the results of sending the saved file',
    );
    await vscode.commands.executeCommand('carrier.send');
    const resent = await sent;
    assert.ok(resent.tree.totalNodes > 3);

    await vscode.commands.executeCommand('carrier.inspector.stop');
    await assert.rejects(fetch(`${url}/1.0.2/TerminalInformationService.asmx?WSDL`), 'nothing listens after Stop');
    assert.equal((await rows()).length, shown.length, 'the list stays after Stop');
  });

  it("Save as Request File through the save dialog writes one .carrier.json that keeps the client's spellings and re-sends byte-identical parameters", async () => {
    const api = await carrierApi();
    const url = await vscode.commands.executeCommand<string>('carrier.inspector.start');
    // A program that writes its dimensions with two decimals, as many do.
    const op = findShape('GetRateQuote', '1.0.3')!;
    const params = {
      request: {
        QuoteType: 'Domestic',
        Origin: { City: 'Burns', StateOrProvince: 'TN', ZipOrPostalCode: '37029', CountryCode: 'USA' },
        Destination: { City: 'Tampa', StateOrProvince: 'FL', ZipOrPostalCode: '33635', CountryCode: 'USA' },
        Items: [{ Class: '50.0', Weight: '1500.0', Width: '48.00', Height: '40.00', Length: '48.00' }],
        DeclaredValue: '0.00',
      },
    };
    const spec = buildHttpRequest({ op, binding: 'soap11', baseUrl: url!, namespaces: DEFAULT_NAMESPACES, params, apiKey: KEY });
    assert.match(spec.body, /<Width>48\.00<\/Width>/);
    assert.equal((await fetch(spec.url, { method: 'POST', headers: spec.headers as Array<[string, string]>, body: spec.body })).status, 200);
    await waitFor(async () => (await rows()).some((r) => r.operation === 'GetRateQuote'), 'the rate quote in the view');
    const call = (await rows()).find((r) => r.operation === 'GetRateQuote')!;

    // As a person saves it: the dialog proposes a name in the workspace, Enter accepts it.
    const fallback = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'recorded-quote.carrier.json');
    const saving = vscode.commands.executeCommand<vscode.Uri>('carrier.inspector.saveAsRequestFile', call.id, ...(hasBrowserHost() ? [] : [fallback]));
    if (hasBrowserHost()) assert.ok(await acceptInWorkbench(), 'the save dialog took Enter');
    const saved = await saving;
    assert.ok(saved, 'saved');
    if (hasBrowserHost()) assert.match(saved.path, /\/GetRateQuote-1\.0\.3-recorded-\d{3}\.carrier\.json$/);
    assert.ok(!/\.carrier\.json\.carrier\.json$/.test(saved.path), saved.path);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(saved));
    assert.match(text, /"Width": 48\.00,/);
    assert.match(text, /"Weight": 1500\.0,/);
    assert.ok(!text.includes(KEY));

    // Sent again from the editor: the parameters go out byte for byte as the program sent them.
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.toString() === saved.toString(), 'the saved file in the editor');
    const sent = nextEvent<RenderReport>(
      api.onDidRenderResults,
      (r) => r.summary.title === 'GetRateQuote 1.0.3' && r.exchangeId !== call.id,
      'the results of sending the saved file',
    );
    await vscode.commands.executeCommand('carrier.send');
    const resent = await api.testing.historyExchange((await sent).exchangeId);
    assert.ok(resent, 'the re-send is in History');
    assert.equal(parameterBytes(resent.request.body ?? '', 'GetRateQuote'), parameterBytes(spec.body, 'GetRateQuote'));
    await vscode.commands.executeCommand('carrier.inspector.stop');
  });
});
