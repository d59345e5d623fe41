/**
 * The runner opens a two-folder workspace (scripts/vscode-host/run-tests.js). Here both folders
 * define an environment "local", each pointing at its own server: a file is sent with its own
 * folder's definition, whichever folder comes first and whichever file was opened last. A
 * subfolder with a carrier.environments.json of its own (as `carrier inspect --record` makes for a
 * URL target) is sent with that file's definitions, as `carrier send` and `carrier run` do.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { carrierApi } from './support/extension';
import { keyDestination } from '../../src/core/environments';
import { hasBrowserHost, screenshot, typeIntoWorkbench, workbench } from './support/control';
import { nextEvent, waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

const SERVICE_NS = 'http://schemas.carrier-workbench.example/ltl/';
const REPLY = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetTerminalInformationResponse xmlns="${SERVICE_NS}"><GetTerminalInformationResult/></GetTerminalInformationResponse></soap:Body></soap:Envelope>`;

interface Recorder {
  readonly url: string;
  readonly bodies: string[];
  close(): Promise<void>;
}

/** A stand-in service on loopback that keeps every request body it receives. */
async function recorder(): Promise<Recorder> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
      res.end(REPLY);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const KEY = 'MultiRootTestKey0123456789abcdefghij';
const request = (zip: string, environment = 'local') =>
  JSON.stringify({ operation: 'GetTerminalInformation', version: '1.0.2', environment, params: { ZipCode: zip, CountryCode: 'USA' } }, null, 2);

describe('a two-folder workspace', () => {
  let first: Recorder;
  let second: Recorder;
  let secondFolder: string;
  const created: vscode.Uri[] = [];

  before(async function () {
    // Sends to "local" ask for its key, which only the browser host can type.
    if (!hasBrowserHost()) this.skip();
    first = await recorder();
    second = await recorder();
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 2, 'the runner opened a two-folder workspace');
    secondFolder = folders[1].uri.fsPath;
    // "only-here" exists in the second folder alone: nothing about the first folder may stand in its way.
    // "moved" is a name whose key was stored for the first server: the second folder points it elsewhere.
    fs.writeFileSync(
      path.join(secondFolder, 'carrier.environments.json'),
      JSON.stringify({ local: { baseUrl: second.url }, 'only-here': { baseUrl: second.url }, moved: { baseUrl: second.url } }),
    );
    fs.writeFileSync(path.join(secondFolder, 'moved.carrier.json'), request('37029', 'moved'));
    fs.writeFileSync(path.join(secondFolder, 'second.carrier.json'), request('45414'));
    fs.writeFileSync(path.join(secondFolder, 'only-here.carrier.json'), request('33635', 'only-here'));
    fs.mkdirSync(path.join(secondFolder, 'recording'), { recursive: true });
    // The recording's own file points "local" at the first server, which the second folder's file does not.
    fs.writeFileSync(path.join(secondFolder, 'recording', 'carrier.environments.json'), JSON.stringify({ local: { baseUrl: first.url } }));
    fs.writeFileSync(path.join(secondFolder, 'recording', '001-GetTerminalInformation.carrier.json'), request('30301'));
    const envFile = vscode.Uri.joinPath(workspaceRoot(), 'carrier.environments.json');
    const firstFile = vscode.Uri.joinPath(workspaceRoot(), 'requests', 'first-folder.carrier.json');
    await vscode.workspace.fs.writeFile(envFile, new TextEncoder().encode(JSON.stringify({ local: { baseUrl: first.url } })));
    await vscode.workspace.fs.writeFile(firstFile, new TextEncoder().encode(request('68507')));
    created.push(envFile, firstFile);

    const api = await carrierApi();
    // Keys are bound to the address they were stored for (src/core/environments/keyDestination.ts).
    const at = (url: string) => keyDestination({ embedded: false, baseUrl: url });
    for (const [name, url] of [
      ['local', first.url],
      ['local', second.url],
      ['only-here', second.url],
      ['moved', first.url],
    ] as const) {
      const done = vscode.commands.executeCommand('carrier.setApiKey', name, at(url));
      assert.ok(await typeIntoWorkbench(KEY), 'typed the key');
      await done;
      await waitFor(() => api.hasApiKey(name), `the key for "${name}" to be stored`);
    }
  });

  after(async () => {
    for (const uri of created) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    for (const name of ['local', 'only-here', 'moved']) await vscode.commands.executeCommand('carrier.clearApiKey', name);
    await first?.close();
    await second?.close();
    for (const name of ['carrier.environments.json', 'second.carrier.json', 'only-here.carrier.json', 'moved.carrier.json', 'recording'])
      if (secondFolder) fs.rmSync(path.join(secondFolder, name), { force: true, recursive: true });
  });

  async function sendFile(uri: vscode.Uri): Promise<void> {
    const api = await carrierApi();
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const shown = nextEvent(
      api.onDidRenderResults,
      (r) => r.summary.title === 'GetTerminalInformation 1.0.2',
      `the results of ${path.basename(uri.fsPath)}`,
      60_000,
    );
    await vscode.commands.executeCommand('carrier.send');
    await screenshot(`multiroot-${path.basename(uri.fsPath)}`);
    await shown;
  }

  it("sends each file to its own folder's environment of the same name", async () => {
    await sendFile(vscode.Uri.file(path.join(secondFolder, 'second.carrier.json')));
    await waitFor(() => second.bodies.length === 1, "the second folder's server to receive the request");
    assert.equal(first.bodies.length, 0, "the first folder's server received nothing");
    assert.match(second.bodies[0], /<ZipCode>45414<\/ZipCode>/);

    await sendFile(created[1]);
    await waitFor(() => first.bodies.length === 1, "the first folder's server to receive the request");
    assert.equal(second.bodies.length, 1, "nothing more went to the second folder's server");
    assert.match(first.bodies[0], /<ZipCode>68507<\/ZipCode>/);
  });

  it("sends to an environment only the file's own (second) folder defines", async () => {
    await sendFile(vscode.Uri.file(path.join(secondFolder, 'only-here.carrier.json')));
    await waitFor(() => second.bodies.length === 2, "the second folder's server to receive the request");
    assert.match(second.bodies[1], /<ZipCode>33635<\/ZipCode>/);
  });

  it("sends a file in a folder with its own carrier.environments.json (a recording) with that file's environment", async () => {
    const [firstBefore, secondBefore] = [first.bodies.length, second.bodies.length];
    await sendFile(vscode.Uri.file(path.join(secondFolder, 'recording', '001-GetTerminalInformation.carrier.json')));
    await waitFor(() => first.bodies.length === firstBefore + 1, 'the recording\'s own "local" to receive the request');
    assert.match(first.bodies[firstBefore], /<ZipCode>30301<\/ZipCode>/);
    assert.equal(second.bodies.length, secondBefore, 'not the second folder\'s "local"');
  });

  it('asks before a key stored for one address goes to another; Send Without Key sends no key', async () => {
    const before = second.bodies.length;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(secondFolder, 'moved.carrier.json'))));
    await vscode.commands.executeCommand('notifications.clearAll');
    const sending = vscode.commands.executeCommand('carrier.send');
    // The question is read and answered in the notification centre: a toast may go straight there
    // (the bell) when the page does not have the focus, and the centre shows it either way.
    await new Promise((r) => setTimeout(r, 500));
    await vscode.commands.executeCommand('notifications.showList');
    const asked = await workbench({ action: 'text', selector: '.notifications-center .notification-list-item', hasText: 'now points at' });
    assert.match(asked.text ?? '', /"moved" now points at http:\/\/127\.0\.0\.1:\d+/);
    assert.ok((asked.text ?? '').includes(new URL(first.url).port), 'it names where the key was stored for');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(second.bodies.length, before, 'nothing is sent while the question is open');
    await screenshot('multiroot-key-elsewhere');
    // The notification may still be settling into place when the first click lands: click until answered.
    for (let attempt = 0; attempt < 5 && second.bodies.length === before; attempt++) {
      await workbench({
        action: 'click',
        selector: '.notifications-center .notification-list-item:has-text("now points at") .monaco-button',
        hasText: 'Send Without Key',
        timeoutMs: 5_000,
      }).catch(() => undefined);
      await waitFor(() => second.bodies.length > before, 'the request without a key', 2_000).catch(() => undefined);
    }
    await sending;
    await waitFor(() => second.bodies.length === before + 1, 'the request without a key');
    const sent = second.bodies[before];
    assert.ok(!sent.includes(KEY), 'the key never reached the new address');
    assert.match(sent, /<APIKey\s*\/>|<APIKey><\/APIKey>/, 'an empty APIKey went out');
  });
});
