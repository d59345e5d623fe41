/**
 * A request file that sends its params as written (`"asWritten": true`, docs/request-files.md): a
 * negative test. Values the contract refuses are warnings to `carrier validate`, and `carrier run`
 * sends them as they stand; without the key they are errors and nothing is sent.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../src/cli/dispatch';
import { SOAP11_TYPE, soapReply, startServer, tmpDir, type TestServer } from './transport-support';

async function carrier(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runCli(args, {
    cwd,
    env: { CARRIER_API_KEY: 'as-written-key-0123456789', NO_COLOR: '1' },
    stdout: (t) => (out += t),
    stderr: (t) => (out += t),
  });
  return { code, out };
}

describe('"asWritten": true sends values the contract refuses, as a negative test', function () {
  this.timeout(30_000);
  let server: TestServer;
  let dir: string;
  before(async () => {
    // Whatever comes, the service refuses it the way the carrier does: an in-body error.
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': SOAP11_TYPE });
      res.end(
        soapReply(
          '1.1',
          '<GetRateQuoteResponse xmlns="http://schemas.carrier-workbench.example/ltl/"><GetRateQuoteResult><WasSuccess>false</WasSuccess><Messages><string>QuoteType Bogus is not one of AlaskaHawaii, Domestic, International.</string></Messages></GetRateQuoteResult></GetRateQuoteResponse>',
        ),
      );
    });
    dir = tmpDir('carrier-as-written-');
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl: server.url } }));
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function quote(extra: Record<string, unknown>): string {
    const file = path.join(dir, `quote-${Object.keys(extra).join('-') || 'plain'}.carrier.json`);
    const request = {
      QuoteType: 'Bogus',
      Origin: { ZipOrPostalCode: '37029', CountryCode: 'USA' },
      Destination: { ZipOrPostalCode: '33635', CountryCode: 'USA' },
      Items: [{ Class: '50.0', Weight: 1500 }],
    };
    const body = {
      operation: 'GetRateQuote',
      version: '1.0.3',
      environment: 'local',
      params: { request },
      expect: { success: false, messages: ['QuoteType'] },
      ...extra,
    };
    fs.writeFileSync(file, JSON.stringify(body, null, 2));
    return file;
  }

  it('without it, the value is an error: validate exits 1, run exits 2 and nothing is sent', async () => {
    const file = quote({});
    assert.equal((await carrier(['validate', file], dir)).code, 1);
    const before = server.received.length;
    const run = await carrier(['run', file, '--reporter', 'cli'], dir);
    assert.equal(run.code, 2, run.out);
    assert.equal(server.received.length, before);
  });

  it('with it, the value is a warning, and carrier run sends it exactly as written and judges the refusal', async () => {
    const file = quote({ asWritten: true });
    const validated = await carrier(['validate', file], dir);
    assert.equal(validated.code, 0, validated.out);
    assert.match(validated.out, /warning.*Bogus.*sent as written/);
    const run = await carrier(['run', file, '--reporter', 'cli'], dir);
    assert.equal(run.code, 0, run.out);
    const sent = server.received[server.received.length - 1].body.toString();
    assert.match(sent, /<QuoteType>Bogus<\/QuoteType>/);
  });

  it('is a boolean', async () => {
    const file = quote({ asWritten: 'yes' });
    const validated = await carrier(['validate', file], dir);
    assert.equal(validated.code, 1);
    assert.match(validated.out, /"asWritten" must be true or false/);
  });
});
