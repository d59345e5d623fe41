import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'src/cli/main.ts');
const API_KEY = 'Kq7vRt2ZpL9xWm4NsB8yHc3JfD6gTa1VeU5oPi0lMkQrXwYzAb';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `carrier run …` as a child process, from the sources (never a stale bundle). */
function carrier(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--require', require.resolve('tsx/cjs'), MAIN, ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 99) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A SOAP 1.1 reply of GetTerminalInformation, the way the service shapes it. */
function terminalReply(state: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<GetTerminalInformationResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetTerminalInformationResult><Result><TerminalInfo>
<TerminalDetails xmlns="${DEFAULT_NAMESPACES.data}"><TerminalDetailID>17</TerminalDetailID><TerminalName>Lincoln</TerminalName><TerminalCode>LNK</TerminalCode><TerminalMailingCity>Lincoln</TerminalMailingCity><TerminalMailingState>${state}</TerminalMailingState><TerminalMailingZip>68507</TerminalMailingZip></TerminalDetails>
</TerminalInfo></Result></GetTerminalInformationResult></GetTerminalInformationResponse></soap:Body></soap:Envelope>`;
}

describe('carrier run (child process)', function () {
  this.timeout(60_000);
  let server: http.Server;
  let baseUrl: string;
  let tmp: string;
  const seenKeys: string[] = [];
  const timers = new Set<NodeJS.Timeout>();

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seenKeys.push(/<APIKey>([^<]*)<\/APIKey>/.exec(body)?.[1] ?? '');
        // ZIP 99999 is the slow terminal: it answers after two seconds.
        const wait = body.includes('<ZipCode>99999</ZipCode>') ? 2000 : 0;
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (res.destroyed) return;
          res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
          res.end(terminalReply('NE'));
        }, wait);
        timers.add(timer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-run-cli-'));
    fs.writeFileSync(path.join(tmp, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl } }));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function requestFile(rel: string, expect: unknown, extra: Record<string, unknown> = {}): void {
    const file = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({ operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: '68507', CountryCode: 'USA' }, expect, ...extra }, null, 2),
    );
  }

  it('exits 0 when all pass, writes JUnit and JSON reports, and never shows the API key', async () => {
    requestFile(
      'terminals/1-lincoln.carrier.json',
      { status: 200, fault: false, reply: { 'Result[0].TerminalDetails.TerminalMailingState': 'NE', Result: { count: { gte: 1 } } } },
      { capture: { code: 'Result[0].TerminalDetails.TerminalCode' } },
    );
    requestFile('terminals/2-again.carrier.json', { reply: { 'Result[?].TerminalDetails.TerminalCode': '{{code}}' } });
    const r = await carrier(['run', 'terminals', '--env', 'local', '--reporter', 'cli', '-r', 'junit,json', '--out', 'out'], tmp, { CARRIER_API_KEY: API_KEY });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /2 tests: 2 passed, 0 failed, 0 skipped/);
    assert.match(r.stdout, /Reports: out\/junit\.xml, out\/report\.json/);
    const junit = fs.readFileSync(path.join(tmp, 'out/junit.xml'), 'utf8');
    const json = fs.readFileSync(path.join(tmp, 'out/report.json'), 'utf8');
    assert.match(junit, /<testcase name="1-lincoln\.carrier\.json \[soap11\]" classname="terminals"/);
    assert.equal(JSON.parse(json).tests[0].captured.code, 'LNK');
    assert.ok(seenKeys.includes(API_KEY), 'the key went on the wire');
    for (const text of [junit, json, r.stdout, r.stderr]) assert.ok(!text.includes(API_KEY), 'the key is in no report');
  });

  it('exits 1 when an expectation fails, naming path, expected, actual and line:col', async () => {
    requestFile('t/wrong.carrier.json', { reply: { 'Result[0].TerminalDetails.TerminalMailingState': { equals: 'KS' } } });
    const r = await carrier(['run', 't/wrong.carrier.json', '--env', 'local'], tmp, { CARRIER_API_KEY: API_KEY });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /t\/wrong\.carrier\.json:\d+:\d+ {2}Result\[0\]\.TerminalDetails\.TerminalMailingState: expected "KS", got "NE"/);
    assert.match(r.stdout, /1 test: 0 passed, 1 failed, 0 skipped/);
  });

  it('--timeout bounds each request: a slow reply fails its test as a timeout', async () => {
    requestFile('slow.carrier.json', { status: 200 }, { params: { ZipCode: '99999', CountryCode: 'USA' } });
    const r = await carrier(['run', 'slow.carrier.json', '--env', 'local', '--timeout', '300'], tmp, { CARRIER_API_KEY: API_KEY });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /slow\.carrier\.json:1:1 {2}no reply: timeout: /);
  });

  it('exits 2 on usage errors', async () => {
    const none = await carrier(['run'], tmp);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /name at least one request file or folder/);
    assert.match(none.stderr, /Usage: carrier run/);
    assert.equal((await carrier(['run', '.', '--reporter', 'xml'], tmp)).code, 2);
    assert.equal((await carrier(['run', '.', '--concurrency', '0'], tmp)).code, 2);
    assert.equal((await carrier(['run', '.', '--binding', 'soap13'], tmp)).code, 2);
  });

  it('exits 2 on file and environment errors, sending nothing', async () => {
    const before = seenKeys.length;
    const missing = await carrier(['run', 'nowhere'], tmp);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such file or folder: nowhere/);
    fs.writeFileSync(path.join(tmp, 'broken.carrier.json'), '{\n  "operation": "GetTerminalInformation",\n  "params": { "ZipCode": }\n}');
    const broken = await carrier(['run', 'broken.carrier.json', '--env', 'local'], tmp, { CARRIER_API_KEY: API_KEY });
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /^broken\.carrier\.json:3:\d+: error: /m);
    assert.match(broken.stderr, /nothing was sent/);
    requestFile('ok.carrier.json', { status: 200 });
    const unknownEnv = await carrier(['run', 'ok.carrier.json', '--env', 'staging'], tmp);
    assert.equal(unknownEnv.code, 2);
    assert.match(unknownEnv.stderr, /unknown environment "staging"/);
    const noKey = await carrier(['run', 'ok.carrier.json', '--env', 'local'], tmp, { CARRIER_API_KEY: '' });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /No API key for environment "local"/);
    assert.equal(seenKeys.length, before, 'nothing reached the server');
  });
});
