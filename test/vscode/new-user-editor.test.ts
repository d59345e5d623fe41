/**
 * What a new user tripped over in the editor (issue 38): Compare With Environment… with only the
 * sandbox defined offers to describe another environment instead of an empty picker; Show
 * Envelope on an HTTP GET file is read-only, as on a SOAP file, never an unsaved Untitled-1;
 * the version completion offers each of the operation's versions once; a failed `equals` is a
 * diff of the expected value against the actual one, the operator in the message.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../src/extension/testing/runReporter';
import type { TestingState } from '../../src/extension/testing/testHooks';
import type { TestNode } from '../../src/extension/testing/testTree';
import { hasBrowserHost, screenshot, workbench } from './support/control';
import { carrierApi } from './support/extension';
import { executeTestCommand, TESTING_RUN_COMMAND, TESTING_STATE_COMMAND } from './support/testCommands';
import { waitFor } from './support/wait';
import { openWorkspaceFile, workspaceRoot } from './support/workspace';

const listed = (state: TestingState): string[] => {
  const ids = (nodes: readonly TestNode[]): string[] => nodes.flatMap((n) => [n.id, ...ids(n.children)]);
  return ids(state.tree);
};
const labelOf = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);

/** Accepts the focused item of the quick pick a command opened, once the pick is there. */
async function acceptQuickPick(done: Thenable<unknown>): Promise<void> {
  let settled = false;
  const settle = () => (settled = true);
  done.then(settle, settle);
  // The pick opens after the command's first await: accept until the command goes on.
  await waitFor(async () => {
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await new Promise((r) => setTimeout(r, 200));
    return settled;
  }, 'the quick pick to be accepted');
}

describe('a new user in the editor', () => {
  const envFile = () => vscode.Uri.joinPath(workspaceRoot(), 'carrier.environments.json');
  const made: vscode.Uri[] = [];

  before(async () => {
    await carrierApi();
    assert.ok(!fs.existsSync(envFile().fsPath), 'the workspace defines no environment but the sandbox');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    // The described environment is an unsaved edit: revert each editor so closing asks nothing.
    while (vscode.window.activeTextEditor) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(envFile()).then(undefined, () => undefined);
  });

  after(() => {
    for (const uri of made) fs.rmSync(uri.fsPath, { force: true, recursive: true });
  });

  it('offers to describe another environment when only the sandbox is defined, and makes the file', async () => {
    const terminal = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'terminal.carrier.json');
    await openWorkspaceFile('requests/terminal.carrier.json');
    const compared = vscode.commands.executeCommand('carrier.compareWithEnvironment', terminal);
    if (hasBrowserHost()) {
      const shown = await workbench({ action: 'text', selector: '.quick-input-widget .monaco-list-row', hasText: 'No other environment' });
      assert.match(shown.text ?? '', /No other environment: describe one in carrier\.environments\.json…/);
      await screenshot('compare-no-other-environment');
    }
    await acceptQuickPick(compared);
    assert.equal(await compared, undefined, 'nothing was compared');

    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, envFile().fsPath, 'the environments file is open');
    const text = editor.document.getText();
    assert.ok(fs.existsSync(envFile().fsPath), 'the file was made');
    assert.match(text, /^\{\n {2}\/\/ Environments besides the built-in "sandbox"/);
    assert.match(
      text,
      /\n {2}"staging": \{\n {4}"description": "The carrier’s test service",\n {4}"baseUrl": "https:\/\/staging\.carrier\.example"\n {2}\}\n\}\n$/,
    );
    // The name is selected, to be typed over first.
    assert.equal(editor.document.getText(editor.selection), 'staging');
    await screenshot('compare-environment-described');
  });

  it('adds the entry after the ones a file already has', async () => {
    // Through VS Code's file service, so a document it kept from the test before sees the new text.
    await vscode.workspace.fs.writeFile(envFile(), new TextEncoder().encode('{\n  // ours\n  "sandbox": { "variables": { "zip": "37029" } }\n}\n'));
    const terminal = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'terminal.carrier.json');
    await openWorkspaceFile('requests/terminal.carrier.json');
    const compared = vscode.commands.executeCommand('carrier.compareWithEnvironment', terminal);
    await acceptQuickPick(compared);
    const text = vscode.window.activeTextEditor?.document.getText();
    assert.equal(
      text,
      '{\n  // ours\n  "sandbox": { "variables": { "zip": "37029" } },\n  "staging": {\n    "description": "The carrier’s test service",\n    "baseUrl": "https://staging.carrier.example"\n  }\n}\n',
    );
  });

  it('shows the envelope of an HTTP GET file read-only, as a SOAP one, so closing it asks nothing', async () => {
    const get = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'terminal-get.carrier.json');
    made.push(get);
    fs.writeFileSync(
      get.fsPath,
      JSON.stringify({ operation: 'GetTerminalInformation', binding: 'get', params: { ZipCode: '33635', CountryCode: 'USA' } }, null, 2),
    );
    for (const [file, language, first] of [
      ['requests/terminal-get.carrier.json', 'plaintext', /^GET http:\/\/.*\/1\.0\.2\/TerminalInformationService\.asmx\/GetTerminalInformation\?/],
      ['requests/terminal.carrier.json', 'xml', /^<\?xml|^<soap:Envelope/],
    ] as const) {
      await openWorkspaceFile(file);
      await vscode.commands.executeCommand('carrier.showEnvelope');
      await waitFor(() => vscode.window.activeTextEditor?.document.uri.scheme === 'carrier-envelope', `the envelope of ${file}`);
      const doc = vscode.window.activeTextEditor!.document;
      assert.equal(doc.isUntitled, false, file);
      assert.equal(doc.isDirty, false, file);
      assert.equal(doc.languageId, language, file);
      assert.match(doc.getText(), first);
      assert.equal(path.posix.basename(doc.uri.path), `${path.basename(file, '.carrier.json')}.${language === 'xml' ? 'envelope.xml' : 'request.txt'}`);
      if (language === 'plaintext') await screenshot('envelope-get-read-only');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      // An unsaved document would hold its editor open behind a save dialog here.
      await waitFor(() => !vscode.window.visibleTextEditors.some((e) => e.document === doc), `the envelope of ${file} closed without a question`);
    }
  });

  it("offers each of the operation's versions once, and no other operation's", async () => {
    const quote = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'versions.carrier.json');
    made.push(quote);
    const text = '{\n  "operation": "GetRateQuote",\n  "version": "",\n  "params": {}\n}\n';
    fs.writeFileSync(quote.fsPath, text);
    const doc = await vscode.workspace.openTextDocument(quote);
    await vscode.window.showTextDocument(doc);
    const at = doc.positionAt(text.indexOf('"version": "') + '"version": "'.length);
    let labels: string[] = [];
    await waitFor(
      async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', quote, at);
        labels = list.items.map(labelOf);
        return labels.some((l) => l.includes('1.0.3'));
      },
      'the versions among the completions',
      30_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; got ${labels.join(', ')}`);
    });
    assert.deepEqual(labels.filter((l) => /\d\.\d|sandbox/.test(l)).sort(), ['"1.0.0"', '"1.0.1"', '"1.0.3"']);
  });

  it('shows a failed equals as the expected value against the actual one, the operator in the message', async () => {
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'collections', 'new-user');
    const city = vscode.Uri.joinPath(folder, 'terminal-city.carrier.json');
    made.push(city, folder);
    const cityText = `{
  "operation": "GetTerminalInformation",
  "version": "1.0.2",
  "params": { "ZipCode": "68507", "CountryCode": "USA" },
  "expect": {
    "reply": { "Result[0].TerminalDetails.TerminalMailingCity": { "equals": "Memphis" } }
  }
}
`;
    await vscode.workspace.fs.writeFile(city, new TextEncoder().encode(cityText));
    await waitFor(async () => listed(await executeTestCommand<TestingState>(TESTING_STATE_COMMAND)).includes(city.fsPath), 'the new test in the explorer');
    const outcome = await executeTestCommand<RunOutcome>(TESTING_RUN_COMMAND, [city.fsPath]);
    const result = outcome.tests.find((t) => t.file === city.fsPath);
    assert.ok(result, outcome.output);
    assert.equal(result.status, 'failed', outcome.output);
    assert.deepEqual(
      result.messages.map((m) => [m.message, m.expected, m.actual, m.line]),
      [
        [
          'Result[0].TerminalDetails.TerminalMailingCity: expected "Memphis", got "Lincoln" (the expectation: equals "Memphis")',
          '"Memphis"',
          '"Lincoln"',
          cityText.split('\n').findIndex((l) => l.includes('"equals"')) + 1,
        ],
      ],
    );
  });
});
