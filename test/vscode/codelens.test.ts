/**
 * At most three short lenses above a request file (src/extension/language/codeLens.ts): Send over
 * the file's binding, Send with… for the others, Envelope; in the error state what is wrong in a
 * few words, its full message in the diagnostic, then Send anyway where that is possible.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './support/wait';
import { openWorkspaceFile, workspaceRoot } from './support/workspace';

/** Longest lens title, icon syntax aside: three of them fit beside the open results panel. */
const SHORT = 34;

async function lenses(doc: vscode.TextDocument): Promise<vscode.Command[]> {
  const found = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
  return found.map((l) => l.command!).filter(Boolean);
}

async function lensTitles(doc: vscode.TextDocument): Promise<string[]> {
  return (await lenses(doc)).map((c) => c.title);
}

async function untitled(content: unknown): Promise<vscode.TextDocument> {
  return vscode.workspace.openTextDocument({ language: 'carrier-request', content: typeof content === 'string' ? content : JSON.stringify(content, null, 2) });
}

async function carrierDiagnostics(doc: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
  await waitFor(() => vscode.languages.getDiagnostics(doc.uri).length > 0, `diagnostics of ${doc.uri.path}`);
  return vscode.languages.getDiagnostics(doc.uri);
}

describe('CodeLens', () => {
  it("offers Send over the file's binding, Send with… for the other bindings, and Envelope", async () => {
    const doc = await openWorkspaceFile('requests/terminal.carrier.json');
    const commands = await lenses(doc);
    assert.deepEqual(
      commands.map((c) => c.title),
      ['$(play) Send SOAP 1.1', 'Send with…', 'Envelope'],
    );
    assert.deepEqual(commands[0].arguments?.slice(1), ['soap11', false]);
    assert.deepEqual(commands[1].arguments?.[3], ['soap12', 'get', 'post'], 'Send with… offers the other bindings');
    assert.equal(commands[2].command, 'carrier.showEnvelope');
  });

  it('names the binding the file names', async () => {
    const doc = await openWorkspaceFile('requests/bol-pdf.carrier.json');
    const commands = await lenses(doc);
    assert.equal(commands[0].title, '$(play) Send SOAP 1.2');
    assert.ok(!(commands[1].arguments?.[3] as string[]).includes('soap12'));
  });

  it('offers only the SOAP bindings of a SOAP-only operation', async () => {
    const doc = await untitled({ operation: 'TraceShipment', params: { request: { TraceNumbers: ['056391174'], TraceType: 'PRO' } } });
    const commands = await lenses(doc);
    assert.deepEqual(
      commands.map((c) => c.title),
      ['$(play) Send SOAP 1.1', 'Send with…', 'Envelope'],
    );
    assert.deepEqual(commands[1].arguments?.[3], ['soap12']);
  });

  it('says what is wrong in a few words first, the full message in the diagnostic; Send anyway only where the errors are in values', async () => {
    const wrongValue = await openWorkspaceFile('requests/wrong-value.carrier.json');
    const titles = await lensTitles(wrongValue);
    assert.deepEqual(titles, ['$(error) QuoteType: unknown value (+1)', '$(play) Send anyway SOAP 1.1']);
    const full = (await carrierDiagnostics(wrongValue)).find((d) => d.severity === vscode.DiagnosticSeverity.Error);
    assert.match(full?.message ?? '', /"Sideways" is not/);

    // An unknown field leaves nothing faithful to build: no send at all.
    const unknownField = await openWorkspaceFile('requests/broken.carrier.json');
    assert.deepEqual(await lensTitles(unknownField), ['$(error) Unknown field ZipCod']);
    assert.match((await carrierDiagnostics(unknownField))[0].message, /did you mean "ZipCode"/);

    const malformed = await untitled('{ "operation": "GetRateQuote" "version": "1.0.3" }');
    assert.deepEqual(await lensTitles(malformed), ['$(error) Syntax error, line 1']);
  });

  it('says that a file with retry waits, and for what in its tooltip (docs/request-files.md#retry)', async () => {
    const doc = await untitled({
      operation: 'GetHazmatDescription',
      version: 'sandbox',
      params: { UNNANumber: 'UN1203' },
      retry: { until: { reply: { 'UNNAList[0].Description': 'Gasoline' } }, attempts: 5 },
    });
    await waitFor(async () => (await lensTitles(doc)).length > 0, 'lenses of a file that waits');
    const [send] = await lenses(doc);
    assert.equal(send.title, '$(play) Send SOAP 1.1 (waits, up to 5)');
    assert.ok(send.title.replace(/\$\([\w-]+\)\s*/g, '').length <= SHORT);
    assert.match(send.tooltip ?? '', /until UNNAList\[0\]\.Description = "Gasoline" holds \(at most 5 attempts\)/);
  });

  it('never more than three lenses, each short, on every request file of the workspace', async () => {
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(workspaceRoot(), '**/*.carrier.json'));
    assert.ok(files.length >= 6, `${files.length} request files`);
    for (const uri of files) {
      const titles = await lensTitles(await vscode.workspace.openTextDocument(uri));
      const where = `${vscode.workspace.asRelativePath(uri)}: ${titles.join(' | ')}`;
      assert.ok(titles.length >= 1 && titles.length <= 3, where);
      for (const t of titles) assert.ok(t.replace(/\$\([\w-]+\)\s*/g, '').length <= SHORT, where);
    }
  });
});
