/**
 * Recordings as an environment (docs/sandbox.md#in-vs-code): a folder recorded by the traffic
 * inspector is replayed by its own sandbox and selected as "recordings: <folder>"; a request file
 * sent from the editor gets the recorded reply byte for byte; a recording that does not read
 * changes nothing; stopping the replay sends to the embedded sandbox again.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import type { Replay } from '../../src/extension/sandbox/replayController';
import { startInspector } from '../../src/inspector';
import { startSandbox } from '../../src/sandbox/server';
import type { RenderReport } from '../../src/webview/protocol';
import { carrierApi } from './support/extension';
import { nextEvent } from './support/wait';
import { openWorkspaceFile, workspaceRoot } from './support/workspace';

/** What requests/terminal.carrier.json asks, so the recording matches its send. */
const TERMINAL = { ZipCode: '68507', CountryCode: 'USA', CustomerData: 'carrier-workbench test' };
/** Written into the recorded reply: only the replay can answer with it. */
const MARK = '<!-- answered from the recording -->';

describe('recordings as environment', () => {
  const root = () => path.join(workspaceRoot().fsPath, 'recordings');
  const dir = () => path.join(root(), 'terminal');
  let replyFile = '';

  before(async () => {
    // A recording as `carrier inspect --record` makes it: a sandbox behind a recording inspector.
    const recorded = await startSandbox({});
    const inspector = await startInspector({ target: recorded.url, namespaces: DEFAULT_NAMESPACES, recordDir: dir(), host: '127.0.0.1', port: 0 });
    try {
      const spec = buildHttpRequest({
        op: findShape('GetTerminalInformation', '1.0.2')!,
        binding: 'soap11',
        baseUrl: inspector.url,
        namespaces: DEFAULT_NAMESPACES,
        params: TERMINAL,
        apiKey: 'recorded-key',
      });
      const headers = (spec.headers as Array<[string, string]>).filter(([n]) => n.toLowerCase() !== 'content-length');
      const reply = await fetch(spec.url, { method: spec.method, headers, body: spec.body });
      assert.equal(reply.status, 200, await reply.text());
      await inspector.flush();
    } finally {
      await inspector.close();
      await recorded.close();
    }
    const exchange = fs.readdirSync(dir()).find((n) => n.endsWith('.exchange.json'));
    assert.ok(exchange, fs.readdirSync(dir()).join(', '));
    const doc = JSON.parse(fs.readFileSync(path.join(dir(), exchange), 'utf8')) as { files: { replyBody: string } };
    replyFile = path.join(dir(), doc.files.replyBody);
    const body = fs.readFileSync(replyFile, 'utf8');
    fs.writeFileSync(replyFile, body.replace(/(<\/[\w:]+>\s*)$/, `${MARK}$1`));
    // The request file the recording wrote beside it would join the Test Explorer's tree.
    for (const n of fs.readdirSync(dir())) if (n.endsWith('.carrier.json')) fs.rmSync(path.join(dir(), n));
  });

  after(async () => {
    await vscode.commands.executeCommand('carrier.stopReplayingRecordings', 'recordings: terminal');
    fs.rmSync(root(), { recursive: true, force: true });
  });

  const sendTerminal = async (): Promise<RenderReport> => {
    const api = await carrierApi();
    await openWorkspaceFile('requests/terminal.carrier.json');
    const shown = nextEvent(api.onDidRenderResults, (r) => r.summary.title.startsWith('GetTerminalInformation'), 'the results of the terminal request');
    await vscode.commands.executeCommand('carrier.send');
    return shown;
  };

  it('refuses a recording that does not read, naming it, and changes nothing', async () => {
    const broken = path.join(root(), 'broken');
    fs.mkdirSync(broken, { recursive: true });
    fs.writeFileSync(path.join(broken, '001-GetTerminalInformation.exchange.json'), '{ not json');
    const started = await vscode.commands.executeCommand<Replay | undefined>('carrier.useRecordingsAsEnvironment', vscode.Uri.file(broken), 'emulate');
    assert.equal(started, undefined);
    const api = await carrierApi();
    const report = await sendTerminal();
    const exchange = await api.testing.historyExchange(report.exchangeId);
    assert.equal(exchange?.environment, 'sandbox', 'sends still go to the embedded sandbox');
  });

  it('replays a recording folder as the selected environment: a send gets the recorded reply byte for byte', async () => {
    const api = await carrierApi();
    const started = await vscode.commands.executeCommand<Replay | undefined>('carrier.useRecordingsAsEnvironment', vscode.Uri.file(dir()), 'fault');
    assert.equal(started?.name, 'recordings: terminal');
    assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+$/);

    const report = await sendTerminal();
    const exchange = await api.testing.historyExchange(report.exchangeId);
    assert.equal(exchange?.environment, 'recordings: terminal');
    assert.equal(exchange.reply?.status, 200);
    assert.equal(exchange.reply.bodyText, fs.readFileSync(replyFile, 'utf8'));
    assert.equal(exchange.reply.size, fs.statSync(replyFile).size);
    assert.ok(exchange.reply.bodyText.includes(MARK));

    assert.equal(await vscode.commands.executeCommand('carrier.stopReplayingRecordings', 'recordings: terminal'), 'recordings: terminal');
    const after = await api.testing.historyExchange((await sendTerminal()).exchangeId);
    assert.equal(after?.environment, 'sandbox', 'stopping the selected replay goes back to the saved environment');
    assert.ok(!after.reply?.bodyText.includes(MARK));
  });
});
