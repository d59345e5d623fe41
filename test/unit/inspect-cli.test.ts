/**
 * `carrier inspect` as people run it: a process that starts the embedded sandbox, prints its URL,
 * prints a line per exchange, writes the recording, and stops cleanly on SIGTERM; `--show` prints
 * a recorded exchange readably; mistakes in how it is called are usage errors.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import { runCli } from '../../src/cli/dispatch';
import { closeClientAgent, filesHolding, plainRequest, tmpDir, waitForOutput } from './inspect-kit';

const ROOT = path.resolve(__dirname, '..', '..');
const KEY = 'cli-Key&<9Zq+Wm 4Rt/Yu';

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd,
    env: {},
  });
  return { code, out, err };
}

describe('carrier inspect', function () {
  this.timeout(60_000);
  const dir = tmpDir('carrier-inspect-cli-');
  const record = path.join(dir, 'recording');
  after(() => {
    closeClientAgent();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('forwards to the embedded sandbox, prints a line per exchange, records, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'src', 'cli', 'main.ts'), 'inspect', '--record', record], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const [, url] = await waitForOutput(
        () => out + err,
        /Carrier inspector listening on (http:\/\/127\.0\.0\.1:\d+) → embedded sandbox http:\/\/127\.0\.0\.1:\d+\n/,
        'the listening line',
      );
      await waitForOutput(() => out, /Recording to recording\n/, 'the recording line');
      const op = findShape('GetHazmatDescription')!;
      const spec = buildHttpRequest({ op, binding: 'soap12', baseUrl: url, namespaces: DEFAULT_NAMESPACES, params: { UNNANumber: '1203' }, apiKey: KEY });
      const got = await plainRequest(spec.url, 'POST', spec.headers as Array<[string, string]>, Buffer.from(spec.body));
      assert.equal(got.status, 200, got.body.toString());
      await waitForOutput(
        () => out,
        /#1 POST \/sandbox\/BillOfLadingService\.asmx {2}GetHazmatDescription sandbox SOAP 1\.2 → 200 {2}[\d.]+ ms\n/,
        'the exchange line',
      );
      const wsdl = await plainRequest(`${url}/sandbox/BillOfLadingService.asmx?wsdl`, 'GET', []);
      assert.equal(wsdl.status, 200);
      await waitForOutput(
        () => out,
        /#2 GET \/sandbox\/BillOfLadingService\.asmx\?wsdl {2}unknown \(The WSDL of \/sandbox\/BillOfLadingService\.asmx\) → 200/,
        'the unknown exchange line',
      );
      child.kill('SIGTERM');
      assert.equal(await exited, 0, err);
      assert.match(out, /SIGTERM: stopping the inspector\n$/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const names = fs.readdirSync(record).sort();
    assert.deepEqual(names, [
      '001-GetHazmatDescription.carrier.json',
      '001-GetHazmatDescription.exchange.json',
      '001-GetHazmatDescription.reply.xml',
      '001-GetHazmatDescription.request.xml',
      '002-unknown.exchange.json',
      '002-unknown.reply.xml',
      'collection.json',
    ]);
    assert.deepEqual(filesHolding(record, KEY), []);
    assert.ok(!out.includes(KEY) && !err.includes(KEY));
  });

  it('--show prints a recorded exchange: request line, headers, pretty body, status, findings', async () => {
    const { code, out, err } = await cli(['inspect', '--show', 'recording/001-GetHazmatDescription.exchange.json'], dir);
    assert.equal(code, 0, err);
    const lines = out.split('\n');
    assert.match(lines[0], /^#1 GetHazmatDescription sandbox · SOAP 1\.2$/);
    assert.match(
      out,
      /\nPOST http:\/\/127\.0\.0\.1:\d+\/sandbox\/BillOfLadingService\.asmx\nHost: 127\.0\.0\.1:\d+\nContent-Type: application\/soap\+xml; charset=utf-8\n/,
    );
    assert.match(out, /\n {6}<APIKey>••••<\/APIKey>\n {6}<UNNANumber>1203<\/UNNANumber>\n/, 'the body, indented, key masked');
    assert.match(out, /\nHTTP 200 OK · [\d.]+ ms \(.*first byte [\d.]+ ms.*\) · sent \d+ bytes, received \d+ bytes\n/);
    assert.match(out, /\n {2}<soap:Body>\n {4}<GetHazmatDescriptionResponse /);
    assert.match(out, /Beside it: 001-GetHazmatDescription\.request\.xml, 001-GetHazmatDescription\.reply\.xml, 001-GetHazmatDescription\.carrier\.json\n$/);
    // Any file of the exchange leads to it.
    const viaReply = await cli(['inspect', '--show', 'recording/001-GetHazmatDescription.reply.xml'], dir);
    assert.equal(viaReply.out, out);
  });

  it('--show says what is wrong with a file that is no recording', async () => {
    const missing = await cli(['inspect', '--show', 'recording/nothing.exchange.json'], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /no such file/);
    const other = await cli(['inspect', '--show', 'recording/collection.json'], dir);
    assert.equal(other.code, 2);
    assert.match(other.err, /is not a recorded exchange/);
  });

  it('refuses to listen beyond loopback, and names what --target can be', async () => {
    const host = await cli(['inspect', '--host', '0.0.0.0'], dir);
    assert.equal(host.code, 2);
    assert.match(host.err, /loopback only/);
    const target = await cli(['inspect', '--target', 'staging'], dir);
    assert.equal(target.code, 2);
    assert.match(target.err, /"staging" is neither a URL nor an environment \(environments: sandbox/);
    const port = await cli(['inspect', '--port', '70000'], dir);
    assert.equal(port.code, 2);
  });
});
