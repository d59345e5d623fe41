/**
 * Pin only what a replay can reproduce (issue 18, item 3): a call recorded without an APIKey, with
 * an empty one, a GET without the key, or with a mustUnderstand SOAP header got a fault that a
 * request file (which always sends the environment's key and no SOAP headers) cannot get again.
 * Its request file says so in a comment and pins no outcome, and `carrier run` of the recording
 * passes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import { runCli } from '../../src/cli/dispatch';
import { startInspector, type InspectorHandle } from '../../src/inspector';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { closeClientAgent, plainRequest, tmpDir } from './inspect-kit';

const KEY = 'unreproducible-key-42';
const stripComments = (text: string) => JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown>;

describe('traffic inspector: outcomes a request file cannot reproduce are not pinned', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let inspector: InspectorHandle;
  const root = tmpDir('carrier-inspect-unrepro-');
  const dir = path.join(root, 'rec');

  before(async () => {
    sandbox = await startSandbox({});
    inspector = await startInspector({
      target: sandbox.url,
      namespaces: DEFAULT_NAMESPACES,
      environment: 'sandbox',
      recordDir: dir,
      recordEnvironment: { name: 'sandbox' },
    });
  });
  after(async () => {
    await inspector.close();
    await sandbox.close();
    closeClientAgent();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('comments and pins nothing for no key, an empty key, a GET without the key and a mustUnderstand header; the replay passes', async () => {
    const op = findShape('GetHazmatDescription')!;
    const soap = (apiKey: string, edit: (body: string) => string = (b) => b) => {
      const spec = buildHttpRequest({ op, binding: 'soap11', baseUrl: inspector.url, namespaces: DEFAULT_NAMESPACES, params: { UNNANumber: '1203' }, apiKey });
      const headers = (spec.headers as Array<[string, string]>).filter(([n]) => n.toLowerCase() !== 'content-length');
      return plainRequest(spec.url, 'POST', headers, Buffer.from(edit(spec.body)));
    };
    const noKey = await soap('', (b) => b.replace(/<APIKey[^>]*>[^<]*<\/APIKey>|<APIKey[^>]*\/>/, ''));
    const emptyKey = await soap('');
    const header = await soap(KEY, (b) =>
      b.replace(/<((?:[\w.-]+:)?)Body\b/, '<$1Header><x:Trace xmlns:x="urn:trace" $1mustUnderstand="1">on</x:Trace></$1Header><$1Body'),
    );
    const get = buildHttpRequest({ op, binding: 'get', baseUrl: inspector.url, namespaces: DEFAULT_NAMESPACES, params: { UNNANumber: '1203' }, apiKey: '' });
    const getNoKey = await plainRequest(get.url.replace(/([?&])APIKey=[^&]*&?/, '$1'), 'GET', []);
    for (const [what, got] of Object.entries({ noKey, emptyKey, header, getNoKey }))
      assert.ok(got.status >= 400, `${what}: ${got.status} ${got.body.toString()}`);
    await inspector.flush();

    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.carrier.json'))
      .sort();
    assert.equal(files.length, 4, fs.readdirSync(dir).join(', '));
    const reasons = [/no APIKey/, /an empty APIKey/, /SOAP headers \(one with mustUnderstand\)/, /no APIKey|an empty APIKey/];
    files.forEach((f, i) => {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      const doc = stripComments(text);
      assert.equal(doc.expect, undefined, `${f}:\n${text}`);
      assert.match(text, /\/\/ This file sends the call as the contract has it, so the outcome seen then is not expected here/, f);
      assert.match(text, reasons[i], `${f}:\n${text}`);
    });

    let out = '';
    const code = await runCli(['run', dir], {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        out += t;
      },
      cwd: root,
      env: {},
    });
    assert.equal(code, 0, out);
  });
});
