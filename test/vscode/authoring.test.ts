/** New Request… and Open WSDL, picked through the real quick pick. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { carrierApi } from './support/extension';
import { hasBrowserHost, typeIntoWorkbench } from './support/control';
import { waitFor } from './support/wait';

describe('authoring', function () {
  before(function () {
    if (!hasBrowserHost()) this.skip(); // picking from the quick pick needs the browser host
  });

  it('New Request… writes a valid sample request file for the picked shape', async () => {
    await carrierApi();
    const done = vscode.commands.executeCommand('carrier.newRequest');
    assert.ok(await typeIntoWorkbench('GetHazmatDescription'), 'picked the operation');
    await done;
    await waitFor(() => vscode.window.activeTextEditor?.document.getText().includes('"GetHazmatDescription"') ?? false, 'the new request editor');
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.languageId, 'carrier-request');
    assert.match(doc.uri.path, /GetHazmatDescription-sandbox\.carrier\.json$/);
    const request = JSON.parse(doc.getText()) as { operation: string; version: string; params: Record<string, unknown> };
    assert.equal(request.version, 'sandbox');
    assert.ok('UNNANumber' in request.params, 'the sample fills in the parameters');
    await waitFor(() => vscode.languages.getDiagnostics(doc.uri).length === 0, 'no problems in the sample', 5_000);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Open WSDL shows the service description of the picked shape', async () => {
    const done = vscode.commands.executeCommand('carrier.openWsdl');
    assert.ok(await typeIntoWorkbench('GetTransitTimes'), 'picked the operation');
    await done;
    await waitFor(() => vscode.window.activeTextEditor?.document.languageId === 'xml', 'the WSDL editor');
    const wsdl = vscode.window.activeTextEditor!.document.getText();
    assert.match(wsdl, /<wsdl:definitions/);
    assert.match(wsdl, /TransitTimesService/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});

describe('importing an envelope', function () {
  before(function () {
    if (!hasBrowserHost()) this.skip();
  });

  it('turns a SOAP envelope from the clipboard into a request file, without its API key', async () => {
    await carrierApi();
    const key = 'Qx7mT2pL9vR4sW8yZ1bN6cF3hJ5kD0gA';
    await vscode.env.clipboard.writeText(
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
        `<GetTerminalInformation xmlns="http://schemas.carrier-workbench.example/ltl/"><APIKey>${key}</APIKey><ZipCode>68507</ZipCode><CountryCode>USA</CountryCode></GetTerminalInformation>` +
        '</soap:Body></soap:Envelope>',
    );
    const done = vscode.commands.executeCommand('carrier.importEnvelope');
    assert.ok(await typeIntoWorkbench('clipboard'), 'chose the clipboard');
    await done;
    await waitFor(() => vscode.window.activeTextEditor?.document.getText().includes('"GetTerminalInformation"') ?? false, 'the imported request');
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.languageId, 'carrier-request');
    assert.match(doc.getText(), /"ZipCode": "68507"/);
    assert.ok(!doc.getText().includes(key), 'the key is not carried over');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
