/**
 * One problem per mistake in a request file: the carrier diagnostics are the only ones (VS Code's
 * JSON service completes and explains but never validates, src/extension/language/jsonService.ts),
 * each with the `carrier` source and a code; a misspelled field is one error, not also a "missing"
 * warning for the field it meant; completion offers each operation and version once.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

/** Long enough for a second, slower source of diagnostics to have spoken (the JSON service took ~2 s). */
const SETTLE_MS = 3000;

const TRANSIT = `{
  "operation": "GetTransitTimes",
  "version": "1.0.0",
  "params": {
    "input": {
      "DateOfPickup": "2026-11-23",
      "OrignPoint": { "City": "Lincoln", "StateOrProvince": "NE", "ZipOrPostalCode": "68507", "CountryCode": "USA" },
      "Destinations": { "DestinationPoint": [{ "City": "Tampa", "StateOrProvince": "FL", "ZipOrPostalCode": "33635", "CountryCode": "USA" }] }
    }
  }
}
`;

async function openFile(name: string, text: string): Promise<vscode.TextDocument> {
  const uri = vscode.Uri.joinPath(workspaceRoot(), 'requests', name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc);
  return doc;
}

/** Every diagnostic of the file, from any source, once the sources have had time to speak. */
async function settledDiagnostics(doc: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
  await waitFor(() => vscode.languages.getDiagnostics(doc.uri).length > 0, 'the carrier diagnostics');
  // Completion answers only once schemas are loaded: by then anything validating has had the file.
  await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(1, 2));
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return vscode.languages.getDiagnostics(doc.uri);
}

const described = (ds: readonly vscode.Diagnostic[]) => ds.map((d) => `${d.source}/${String(d.code)}@${d.range.start.line}: ${d.message}`).join('\n');

function labels(list: vscode.CompletionList | undefined): string[] {
  return (list?.items ?? []).map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
}

describe('request-file editor', () => {
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a misspelled field is one error, from carrier, with its code — no unlabeled schema copy, no "missing" echo', async () => {
    const doc = await openFile('typo.carrier.json', TRANSIT);
    const all = await settledDiagnostics(doc);
    assert.equal(all.length, 1, described(all));
    const [only] = all;
    assert.equal(only.source, 'carrier');
    assert.equal(only.code, 'unknown-field');
    assert.equal(only.severity, vscode.DiagnosticSeverity.Error);
    assert.match(only.message, /OrignPoint .*did you mean "OriginPoint"/);
    assert.equal(only.range.start.line, 6);

    // Deleting the misspelled line rather than fixing it: now the field is genuinely missing.
    const edit = new vscode.WorkspaceEdit();
    edit.delete(doc.uri, new vscode.Range(6, 0, 7, 0));
    await vscode.workspace.applyEdit(edit);
    await waitFor(() => vscode.languages.getDiagnostics(doc.uri).some((d) => d.code === 'required'), 'the missing-field warning');
    const after = vscode.languages.getDiagnostics(doc.uri);
    assert.deepEqual(
      after.map((d) => [d.source, d.code]),
      [['carrier', 'required']],
      described(after),
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a syntax error is reported once', async () => {
    const doc = await openFile('syntax.carrier.json', TRANSIT.replace('"version": "1.0.0",', '"version": "1.0.0"'));
    const all = await settledDiagnostics(doc);
    assert.equal(all.length, 1, described(all));
    assert.deepEqual([all[0].source, all[0].code], ['carrier', 'syntax']);
  });

  it('every diagnostic of every request file carries the carrier source and a code', async () => {
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(workspaceRoot(), '**/*.carrier.json'));
    for (const uri of files) await vscode.workspace.openTextDocument(uri);
    const broken = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'broken.carrier.json');
    await waitFor(() => vscode.languages.getDiagnostics(broken).length > 0, 'diagnostics of broken.carrier.json');
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    let seen = 0;
    for (const uri of files) {
      for (const d of vscode.languages.getDiagnostics(uri)) {
        seen++;
        assert.equal(d.source, 'carrier', `${uri.path}: ${d.message}`);
        assert.ok(typeof d.code === 'string' && d.code.length > 0, `${uri.path}: ${d.message} has no code`);
      }
    }
    assert.ok(seen >= 3, `${seen} diagnostics looked at`);
  });

  it('offers each operation and version once when a request is started', async () => {
    const doc = await openFile('blank.carrier.json', 'GetTransitTimes');
    const end = new vscode.Position(0, 'GetTransitTimes'.length);
    let got: string[] = [];
    await waitFor(
      async () => {
        got = labels(await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, end));
        return got.some((l) => l.startsWith('GetTransitTimes'));
      },
      'the GetTransitTimes template among the completions',
      30_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; got ${got.join(', ')}`);
    });
    assert.deepEqual(
      got.filter((l) => l.includes('GetTransitTimes')),
      ['GetTransitTimes'],
      got.join(', '),
    );

    const quote = await openFile('blank-quote.carrier.json', 'GetRateQuote');
    const quotes = labels(
      await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        quote.uri,
        new vscode.Position(0, 'GetRateQuote'.length),
      ),
    ).filter((l) => l.includes('GetRateQuote'));
    assert.deepEqual([...quotes].sort(), ['GetRateQuote 1.0.0', 'GetRateQuote 1.0.1', 'GetRateQuote 1.0.3'], quotes.join(', '));
  });

  it('completes operation names once each, and parameter names and hovers from the schema', async () => {
    const doc = await openFile('complete.carrier.json', '{\n  "operation": "",\n  "params": {}\n}\n');
    const operations = labels(
      await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(1, 16)),
    );
    assert.ok(
      operations.some((l) => l.includes('GetRateQuote')),
      operations.join(', '),
    );
    assert.equal(new Set(operations).size, operations.length, `no duplicates: ${operations.join(', ')}`);

    const terminal = await openFile(
      'hover.carrier.json',
      '{\n  "operation": "GetTerminalInformation",\n  "version": "1.0.2",\n  "params": {\n    "ZipCode": "68507",\n    \n  }\n}\n',
    );
    const names = labels(
      await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', terminal.uri, new vscode.Position(5, 4)),
    );
    assert.ok(
      names.some((l) => l.includes('CountryCode')),
      names.join(', '),
    );
    assert.ok(!names.some((l) => l.includes('"ZipCode"')), 'a key already written is not offered again');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', terminal.uri, new vscode.Position(4, 7));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /\S/, 'the field is explained');
    const formatted = await vscode.commands.executeCommand<vscode.TextEdit[]>('vscode.executeFormatDocumentProvider', terminal.uri, {
      tabSize: 2,
      insertSpaces: true,
    });
    assert.ok(Array.isArray(formatted) && formatted.length > 0, 'the stray blank line is formatted away');
  });
});
