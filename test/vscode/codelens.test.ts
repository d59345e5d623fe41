import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { openWorkspaceFile } from './support/workspace';

async function lensTitles(doc: vscode.TextDocument): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
  return lenses.map((l) => l.command?.title ?? '');
}

async function untitled(content: unknown): Promise<vscode.TextDocument> {
  return vscode.workspace.openTextDocument({ language: 'carrier-request', content: typeof content === 'string' ? content : JSON.stringify(content, null, 2) });
}

describe('CodeLens', () => {
  it('offers a Send for each binding the operation offers, then Show Envelope and Copy as curl', async () => {
    const doc = await openWorkspaceFile('requests/terminal.carrier.json');
    assert.deepEqual(await lensTitles(doc), [
      '$(play) Send SOAP 1.1', '$(play) Send SOAP 1.2', '$(play) Send HTTP GET', '$(play) Send HTTP POST', 'Show Envelope', 'Copy as curl',
    ]);
  });

  it('offers only SOAP sends for a SOAP-only operation', async () => {
    const doc = await untitled({ operation: 'TraceShipment', params: { request: { TraceNumbers: ['056391174'], TraceType: 'PRO' } } });
    assert.deepEqual((await lensTitles(doc)).filter((t) => t.includes('Send')), ['$(play) Send SOAP 1.1', '$(play) Send SOAP 1.2']);
  });

  it('shows what is wrong first; Send anyway only where the errors are in values', async () => {
    const wrongValue = await openWorkspaceFile('requests/wrong-value.carrier.json');
    const titles = await lensTitles(wrongValue);
    assert.match(titles[0], /^\$\(error\) 2 problems/);
    assert.ok(titles.includes('$(play) Send anyway SOAP 1.1'), titles.join(' | '));

    // An unknown field leaves nothing faithful to build: no send at all.
    const unknownField = await openWorkspaceFile('requests/broken.carrier.json');
    const none = await lensTitles(unknownField);
    assert.match(none[0], /^\$\(error\) .*ZipCod/);
    assert.ok(!none.some((t) => t.includes('Send')), none.join(' | '));

    const malformed = await untitled('{ "operation": "GetRateQuote" "version": "1.0.3" }');
    const only = await lensTitles(malformed);
    assert.equal(only.length, 1, only.join(' | '));
    assert.match(only[0], /^\$\(error\) /);
  });
});
