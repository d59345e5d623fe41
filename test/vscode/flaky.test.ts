/**
 * A flaky test in the Test Explorer (docs/collections.md#retries-and-flaky-tests): a collection
 * with `"retries": 1` against a service that answers wrongly every other time. The test fails,
 * is run again, passes, and is shown as passed and flaky, with its failed attempt in the output.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { keyDestination } from '../../src/core/environments';
import type { RunOutcome } from '../../src/extension/testing/runReporter';
import type { TestingState } from '../../src/extension/testing/testHooks';
import type { TestNode } from '../../src/extension/testing/testTree';
import { startLiveService, type LiveService } from '../unit/contract-kit';
import { hasBrowserHost, typeIntoWorkbench } from './support/control';
import { carrierApi } from './support/extension';
import { executeTestCommand, TESTING_RUN_COMMAND, TESTING_STATE_COMMAND } from './support/testCommands';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

const state = () => executeTestCommand<TestingState>(TESTING_STATE_COMMAND);
const folder = () => path.join(workspaceRoot().fsPath, 'flaky');
const file = () => path.join(folder(), 'terminal.carrier.json');

const TERMINAL = `{
  "operation": "GetTerminalInformation",
  "version": "1.0.2",
  "environment": "flaky",
  "params": { "ZipCode": "68507", "CountryCode": "USA" },
  "expect": { "status": 200, "reply": { "Result[0].TerminalDetails.TerminalCode": "LNK" } }
}
`;

function all(nodes: readonly TestNode[]): TestNode[] {
  return nodes.flatMap((n) => [n, ...all(n.children)]);
}

async function write(file: string, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(vscode.Uri.file(file), new TextEncoder().encode(text));
}

describe('test explorer: a flaky test', () => {
  let service: LiveService;
  let envFile: string;
  let original: string | undefined;
  let replies = 0;

  before(async () => {
    // Every odd reply names another terminal code: the first attempt fails, the retry passes.
    service = await startLiveService({
      namespaces: DEFAULT_NAMESPACES,
      alterReply: (_path, body) => (++replies % 2 === 1 ? body.replace('<TerminalCode>LNK</TerminalCode>', '<TerminalCode>XXX</TerminalCode>') : body),
    });
    envFile = path.join(workspaceRoot().fsPath, 'carrier.environments.json');
    original = fs.existsSync(envFile) ? fs.readFileSync(envFile, 'utf8') : undefined;
    const environments = { ...(original ? (parse(original) as object) : {}), flaky: { baseUrl: service.url } };
    await write(envFile, `${JSON.stringify(environments, null, 2)}\n`);
    await write(path.join(folder(), 'collection.json'), JSON.stringify({ name: 'Flaky', retries: 1 }, null, 2));
    await write(file(), TERMINAL);
    await carrierApi();
  });

  after(async () => {
    if (original === undefined) fs.rmSync(envFile, { force: true });
    else fs.writeFileSync(envFile, original);
    await vscode.workspace.fs.delete(vscode.Uri.file(folder()), { recursive: true }).then(undefined, () => undefined);
    await service?.close();
  });

  it('fails, is run again, passes, and is shown passed and flaky with its failed attempt', async function () {
    // A send to a service of the test's needs its key, which only the browser host can type.
    if (!hasBrowserHost()) this.skip();
    const api = await carrierApi();
    const done = vscode.commands.executeCommand('carrier.setApiKey', 'flaky', keyDestination({ embedded: false, baseUrl: service.url }));
    assert.ok(await typeIntoWorkbench('FlakyTestKey0123456789abcdefghijklmnopqrstuvwxyz'), 'typed the key');
    await done;
    await waitFor(() => api.hasApiKey('flaky'), 'the key to be stored');
    await waitFor(async () => all((await state()).tree).some((n) => n.id === file()), 'the flaky test listed', 30_000);

    const outcome = await executeTestCommand<RunOutcome>(TESTING_RUN_COMMAND, [file()]);
    const test = outcome.tests.find((t) => t.file === file());
    assert.ok(test, JSON.stringify(outcome.tests));
    assert.equal(test.status, 'passed', JSON.stringify(test));
    assert.equal(test.flaky, true);
    assert.equal(test.attempts, 2);
    assert.equal(replies, 2, 'sent twice: the failed attempt and the retry');
    assert.match(outcome.output, /⚠ .*terminal\.carrier\.json.*flaky: failed 1 time, then passed/);
    assert.match(outcome.output, /TerminalCode.*XXX/);
    assert.match(outcome.output, /\(1 flaky\)/);
  });
});
