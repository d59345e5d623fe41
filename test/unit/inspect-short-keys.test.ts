/**
 * Short keys (issue 18, item 4): a key shorter than MIN_SECRET_BY_VALUE (src/core/redact.ts) is
 * masked only where it stands as a key — the APIKey element or query field, a key header — never
 * by value, so with the key `1`, `k` or `2026` paths, versions, binding names, numbers and dates
 * stay as they were. A session recorded through `carrier inspect` with each of them replays green
 * with `carrier run` against a sandbox that accepts that key only.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import { runCli } from '../../src/cli/dispatch';
import { startSandbox } from '../../src/sandbox/server';
import { closeClientAgent, plainRequest, tmpDir, waitForOutput } from './inspect-kit';

// Three inspector processes share the machine with the suite: a little longer than the kit's 20 s.
const waitFor = (read: () => string, pattern: RegExp, what: string, timeoutMs = 30_000) => waitForOutput(read, pattern, what, timeoutMs);

const ROOT = path.resolve(__dirname, '..', '..');
const MASK = '••••';

const RATE_QUOTE = {
  request: {
    QuoteType: 'Domestic',
    Origin: { City: 'Burns', StateOrProvince: 'TN', ZipOrPostalCode: '37029', CountryCode: 'USA' },
    Destination: { City: 'Tampa', StateOrProvince: 'FL', ZipOrPostalCode: '33635', CountryCode: 'USA' },
    Items: [{ Class: '50.0', Weight: 2026, Width: 48, Height: 40, Length: 48 }],
    DeclaredValue: '0.00',
  },
};

describe('carrier inspect with a short key', function () {
  this.timeout(120_000);
  after(() => closeClientAgent());

  for (const key of ['1', 'k', '2026']) {
    it(`key ${JSON.stringify(key)}: masked only as a key in the line, the recording and --show; carrier run replays the recording green`, async () => {
      const sandbox = await startSandbox({ apiKeys: [key] });
      const dir = tmpDir('carrier-inspect-short-key-');
      fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ staging: { baseUrl: sandbox.url } }));
      const env = { ...process.env, CARRIER_API_KEY_STAGING: key };
      const child = spawn(
        process.execPath,
        ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'src', 'cli', 'main.ts'), 'inspect', '--target', 'staging', '--record', 'recording'],
        { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        out += c.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const record = path.join(dir, 'recording');
      const sent: string[] = [];
      try {
        const [, url] = await waitFor(() => out, /listening on (http:\/\/127\.0\.0\.1:\d+) →/, 'the listening line');
        for (const binding of ['soap11', 'soap12'] as const) {
          const spec = buildHttpRequest({
            op: findShape('GetRateQuote', '1.0.3')!,
            binding,
            baseUrl: url,
            namespaces: DEFAULT_NAMESPACES,
            params: RATE_QUOTE,
            apiKey: key,
          });
          const got = await plainRequest(spec.url, 'POST', spec.headers as Array<[string, string]>, Buffer.from(spec.body));
          assert.equal(got.status, 200, got.body.toString());
          sent.push(spec.body);
        }
        const get = buildHttpRequest({
          op: findShape('GetTerminalInformation', '1.0.2')!,
          binding: 'get',
          baseUrl: url,
          namespaces: DEFAULT_NAMESPACES,
          params: { ZipCode: '37029', CountryCode: 'USA', CustomerData: '2026-11-30 k1' },
          apiKey: key,
        });
        const got = await plainRequest(get.url, 'GET', [...(get.headers as Array<[string, string]>), ['X-API-Key', key]]);
        assert.equal(got.status, 200, got.body.toString());
        await waitFor(() => out, /#3 GET /, 'the third exchange line');
        child.kill('SIGTERM');
        assert.equal(await exited, 0, out);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }

      // The console line: path, version and binding as they were.
      assert.match(out, /#1 POST \/1\.0\.3\/RateQuoteService\.asmx {2}GetRateQuote 1\.0\.3 SOAP 1\.1 → 200 /);
      assert.match(out, /#2 POST \/1\.0\.3\/RateQuoteService\.asmx {2}GetRateQuote 1\.0\.3 SOAP 1\.2 → 200 /);
      assert.match(
        out,
        /#3 GET \/1\.0\.2\/TerminalInformationService\.asmx\/GetTerminalInformation\?APIKey=••••&ZipCode=37029&CountryCode=USA&CustomerData=\S* {2}GetTerminalInformation 1\.0\.2 HTTP GET → 200 /,
      );

      // The recording: the bodies as sent but for the key's own element, the exchange's reading intact.
      for (const [i, binding] of (['soap11', 'soap12'] as const).entries()) {
        const prefix = `00${i + 1}-GetRateQuote`;
        assert.equal(
          fs.readFileSync(path.join(record, `${prefix}.request.xml`), 'utf8'),
          sent[i].replace(`<APIKey>${key}</APIKey>`, `<APIKey>${MASK}</APIKey>`),
        );
        const doc = JSON.parse(fs.readFileSync(path.join(record, `${prefix}.exchange.json`), 'utf8'));
        assert.equal(doc.exchange.version, '1.0.3');
        assert.equal(doc.exchange.binding, binding);
        assert.match(doc.exchange.request.url, /^http:\/\/127\.0\.0\.1:\d+\/1\.0\.3\/RateQuoteService\.asmx$/);
        assert.match(doc.exchange.startedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.equal(doc.recognition.params.APIKey, MASK);
        assert.equal(doc.recognition.params.request.Items[0].Weight, 2026);
        assert.ok(!fs.readFileSync(path.join(record, `${prefix}.reply.xml`), 'utf8').includes(MASK));
      }
      const terminal = JSON.parse(fs.readFileSync(path.join(record, '003-GetTerminalInformation.exchange.json'), 'utf8'));
      assert.match(
        terminal.exchange.request.url,
        /\/1\.0\.2\/TerminalInformationService\.asmx\/GetTerminalInformation\?APIKey=••••&ZipCode=37029&CountryCode=USA&CustomerData=2026-11-30\+k1$/,
      );
      assert.deepEqual(
        terminal.exchange.request.headers.find(([n]: [string]) => n === 'X-API-Key'),
        ['X-API-Key', MASK],
      );
      assert.equal(terminal.recognition.params.CustomerData, '2026-11-30 k1');

      // --show: the same.
      let shown = '';
      assert.equal(
        await runCli(['inspect', '--show', 'recording/001-GetRateQuote.exchange.json'], {
          stdout: (t) => {
            shown += t;
          },
          stderr: (t) => {
            shown += t;
          },
          cwd: dir,
          env: {},
        }),
        0,
        shown,
      );
      assert.match(shown, /^#1 GetRateQuote 1\.0\.3 · SOAP 1\.1\n/);
      assert.match(shown, /^POST http:\/\/127\.0\.0\.1:\d+\/1\.0\.3\/RateQuoteService\.asmx$/m);
      assert.match(shown, /<APIKey>••••<\/APIKey>/);
      assert.match(shown, /<Weight>2026<\/Weight>/);

      // The replay sends the environment's key: the sandbox takes no other.
      let run = '';
      const code = await runCli(['run', 'recording'], {
        stdout: (t) => {
          run += t;
        },
        stderr: (t) => {
          run += t;
        },
        cwd: dir,
        env: { CARRIER_API_KEY_STAGING: key },
      });
      assert.equal(code, 0, run);
      assert.match(run, /3 tests: 3 passed, 0 failed/);
      let wrong = '';
      assert.notEqual(
        await runCli(['run', 'recording'], {
          stdout: (t) => {
            wrong += t;
          },
          stderr: (t) => {
            wrong += t;
          },
          cwd: dir,
          env: { CARRIER_API_KEY_STAGING: `${key}x` },
        }),
        0,
        wrong,
      );
      await sandbox.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }
});
