/**
 * Recordings that replay the same call against the same place (issue 18, item 2): a recording
 * made against a URL writes that URL as an environment of the recording's own folder and names it
 * in every request file, so `carrier run <folder>` goes there (the target sees the replay); an
 * operation element in another namespace (a .NET client's http://tempuri.org/) is recorded with
 * all its parameters and a note, and replays green.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import { runCli } from '../../src/cli/dispatch';
import { startInspector, type InspectorHandle } from '../../src/inspector';
import { environmentInFolder } from '../../src/inspector/recordings';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { closeClientAgent, plainRequest, startTap, tmpDir, type Tap } from './inspect-kit';

const KEY = 'recording-target-key-123';
const TEMPURI = 'http://tempuri.org/';

const stripComments = (text: string) => JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown>;

describe('traffic inspector: recordings name their target and keep every parameter', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let tap: Tap;
  let inspector: InspectorHandle;
  const root = tmpDir('carrier-inspect-target-');
  const dir = path.join(root, 'rec');

  before(async () => {
    sandbox = await startSandbox({});
    tap = await startTap(sandbox.url);
    inspector = await startInspector({
      target: tap.url,
      namespaces: DEFAULT_NAMESPACES,
      recordDir: dir,
      recordEnvironment: { name: 'recorded', baseUrl: tap.url, namespaces: DEFAULT_NAMESPACES },
    });
  });
  after(async () => {
    await inspector.close();
    await tap.close();
    await sandbox.close();
    closeClientAgent();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("writes a URL target into the folder's carrier.environments.json and names it in each request file; `carrier run` of the folder reaches the target", async () => {
    const op = findShape('GetHazmatDescription')!;
    const spec = buildHttpRequest({
      op,
      binding: 'soap12',
      baseUrl: inspector.url,
      namespaces: DEFAULT_NAMESPACES,
      params: { UNNANumber: '1203' },
      apiKey: KEY,
    });
    const got = await plainRequest(spec.url, 'POST', spec.headers as Array<[string, string]>, Buffer.from(spec.body));
    assert.equal(got.status, 200, got.body.toString());
    await inspector.flush();

    const envs = JSON.parse(fs.readFileSync(path.join(dir, 'carrier.environments.json'), 'utf8')) as Record<
      string,
      { baseUrl: string; serviceNamespace: string }
    >;
    assert.equal(envs.recorded.baseUrl, tap.url);
    assert.equal(envs.recorded.serviceNamespace, DEFAULT_NAMESPACES.service);
    const file = fs.readdirSync(dir).find((f) => f.endsWith('-GetHazmatDescription.carrier.json'))!;
    assert.ok(file, fs.readdirSync(dir).join(', '));
    assert.equal(stripComments(fs.readFileSync(path.join(dir, file), 'utf8')).environment, 'recorded');

    const before = tap.seen.length;
    let out = '';
    const code = await runCli(['run', dir], {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        out += t;
      },
      cwd: root,
      env: { CARRIER_API_KEY_RECORDED: KEY },
    });
    assert.equal(code, 0, out);
    assert.equal(tap.seen.length, before + 1, `the target should have received the replay:\n${out}`);
  });

  it('records an operation element in http://tempuri.org/ with all its parameters, a note, no pinned fault, and replays green', async () => {
    const op = findShape('GetHazmatDescription')!;
    const spec = buildHttpRequest({
      op,
      binding: 'soap11',
      baseUrl: inspector.url,
      namespaces: DEFAULT_NAMESPACES,
      params: { UNNANumber: '1203' },
      apiKey: KEY,
    });
    const body = spec.body.split(DEFAULT_NAMESPACES.service).join(TEMPURI);
    const headers = (spec.headers as Array<[string, string]>)
      .map(([n, v]) => [n, n.toLowerCase() === 'soapaction' ? v.split(DEFAULT_NAMESPACES.service).join(TEMPURI) : v] as [string, string])
      .filter(([n]) => n.toLowerCase() !== 'content-length');
    const got = await plainRequest(spec.url, 'POST', headers, Buffer.from(body));
    assert.equal(got.status, 500, got.body.toString());
    await inspector.flush();

    const file = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('-GetHazmatDescription.carrier.json'))
      .sort()
      .pop()!;
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const doc = stripComments(text);
    assert.deepEqual(doc.params, { UNNANumber: '1203' }, text);
    assert.equal(doc.expect, undefined, text);
    assert.match(text, /\/\/ .*outside the namespaces of the contract \(http:\/\/tempuri\.org\/\)/);
    assert.ok(!text.includes(KEY));

    let out = '';
    const code = await runCli(['run', path.join(dir, file)], {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        out += t;
      },
      cwd: root,
      env: { CARRIER_API_KEY_RECORDED: KEY },
    });
    assert.equal(code, 0, out);
  });

  it('adds a URL to an environments file already in the folder in place, reusing an entry with the same baseUrl', async () => {
    const folder = path.join(root, 'existing');
    fs.mkdirSync(folder);
    const file = path.join(folder, 'carrier.environments.json');
    fs.writeFileSync(file, '{\n  // mine\n  "recorded": { "baseUrl": "https://other.example" },\n  "same": { "baseUrl": "https://same.example/" }\n}\n');
    assert.equal(await environmentInFolder(folder, { name: 'recorded', baseUrl: 'https://same.example' }), 'same');
    assert.equal(await environmentInFolder(folder, { name: 'recorded', baseUrl: 'https://new.example', namespaces: DEFAULT_NAMESPACES }), 'recorded-2');
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes('// mine'), text);
    assert.match(text, /"recorded-2": \{[^}]*"baseUrl": "https:\/\/new\.example"/);
  });
});
