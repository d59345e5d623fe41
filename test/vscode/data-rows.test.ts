/**
 * Data rows in the Test Explorer: a collection whose collection.json names a CSV lists each row
 * as a child of its request file, at the row's line of the CSV; running the file runs every row
 * against the embedded sandbox and reports each row by its name; one row runs alone; a row added
 * to the CSV appears without a reload.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../src/extension/testing/runReporter';
import type { TestingState } from '../../src/extension/testing/testHooks';
import type { TestNode } from '../../src/extension/testing/testTree';
import { screenshot } from './support/control';
import { carrierApi } from './support/extension';
import { executeTestCommand, TESTING_RUN_COMMAND, TESTING_STATE_COMMAND } from './support/testCommands';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

const QUOTE = `{
  // One quote per row of lanes.csv against the embedded sandbox.
  "operation": "GetRateQuote",
  "version": "1.0.1",
  "params": {
    "request": {
      "QuoteType": "Domestic",
      "CODAmount": 0,
      "Origin": { "City": "Burns", "StateOrProvince": "TN", "ZipOrPostalCode": "37029", "CountryCode": "USA" },
      "Destination": { "City": "{{city}}", "StateOrProvince": "{{state}}", "ZipOrPostalCode": "{{zip}}", "CountryCode": "USA" },
      "Items": [ { "Class": "50.0", "Weight": "{{weight}}", "Width": 48.00, "Height": 40.00, "Length": 48.00 } ],
      "DeclaredValue": 0,
      "OverDimensionPcs": 0
    }
  },
  "expect": {
    "status": 200,
    "success": true,
    "reply": { "Result.DestinationServiceCenter.State": "{{state}}", "Result.Charges[0].Weight": { "equals": "{{weight}}" } }
  }
}
`;
const LANES = 'name,city,state,zip,weight\n"Tampa, FL",Tampa,FL,33635,1500\nAtlanta,Atlanta,GA,30318,800\n,Chicago,IL,60608,2200\n';

const state = () => executeTestCommand<TestingState>(TESTING_STATE_COMMAND);
const folder = () => path.join(workspaceRoot().fsPath, 'data-rows');
const quote = () => path.join(folder(), 'quote.carrier.json');
const lanes = () => path.join(folder(), 'lanes.csv');

function all(nodes: readonly TestNode[]): TestNode[] {
  return nodes.flatMap((n) => [n, ...all(n.children)]);
}

const find = async (id: string) => all((await state()).tree).find((n) => n.id === id);

async function writeText(file: string, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(vscode.Uri.file(file), new TextEncoder().encode(text));
}

describe('test explorer: data rows', () => {
  before(async () => {
    await carrierApi();
    await writeText(path.join(folder(), 'collection.json'), JSON.stringify({ name: 'Lanes', data: 'lanes.csv' }, null, 2));
    await writeText(lanes(), LANES);
    await writeText(quote(), QUOTE);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('workbench.view.explorer');
    await vscode.workspace.fs.delete(vscode.Uri.file(folder()), { recursive: true }).then(undefined, () => undefined);
  });

  it('lists each row as a child of its file, at its line of the data file', async () => {
    await waitFor(async () => ((await find(quote()))?.children.length ?? 0) === 3, 'the rows under the file', 30_000);
    const file = (await find(quote()))!;
    assert.equal(file.description, 'GetRateQuote 1.0.1 · lanes.csv, 3 rows');
    assert.deepEqual(
      file.children.map((c) => c.label),
      ['row 1: Tampa, FL', 'row 2: Atlanta', 'row 3'],
    );
    assert.deepEqual(
      file.children.map((c) => c.id),
      [1, 2, 3].map((i) => `${quote()}#row=${i}`),
    );
    assert.deepEqual(
      file.children.map((c) => [c.file, c.line]),
      [
        [lanes(), 2],
        [lanes(), 3],
        [lanes(), 4],
      ],
    );
  });

  it('runs every row of the file against the sandbox and reports each by its row', async () => {
    const outcome = await executeTestCommand<RunOutcome>(TESTING_RUN_COMMAND, [quote()]);
    assert.deepEqual(
      outcome.tests.map((t) => [t.name, t.status, t.listed]),
      [
        ['quote.carrier.json [soap11] [row 1: Tampa, FL]', 'passed', true],
        ['quote.carrier.json [soap11] [row 2: Atlanta]', 'passed', true],
        ['quote.carrier.json [soap11] [row 3]', 'passed', true],
      ],
      outcome.output,
    );
    assert.match(outcome.output, /✓ (workspace\/)?data-rows\/quote\.carrier\.json \[soap11\] \[row 2: Atlanta\] {2}\(sandbox, HTTP 200/);
    // The data file's gutter holds each row's result and run button.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(lanes()));
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    await screenshot('testing-data-rows');
  });

  it('runs one row alone', async () => {
    const outcome = await executeTestCommand<RunOutcome>(TESTING_RUN_COMMAND, [`${quote()}#row=2`]);
    assert.deepEqual(
      outcome.tests.map((t) => [t.name, t.status]),
      [['quote.carrier.json [soap11] [row 2: Atlanta]', 'passed']],
      outcome.output,
    );
  });

  it('shows a row added to the data file', async () => {
    await writeText(lanes(), `${LANES}Dallas,Dallas,TX,75212,500\n`);
    await waitFor(async () => ((await find(quote()))?.children.length ?? 0) === 4, 'the new row', 30_000);
    assert.equal((await find(`${quote()}#row=4`))?.label, 'row 4: Dallas');
  });
});
