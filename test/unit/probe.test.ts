/**
 * carrier probe (docs/probe.md): the same seed draws the same examples; a service with planted
 * defects in front of a real sandbox has each found and written as a request file that `carrier
 * run` fails for the same reason; the creating operations are probed on a service marked
 * `"probe": true` and skipped on one that is not; and a quick probe of the embedded sandbox holds.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findShape, operationNames, SANDBOX_DEFAULT_KEY, shapesOf } from '../../src/core';
import { probeExamples } from '../../src/core/probe';
import { runCli } from '../../src/cli/dispatch';
import { startSandbox } from '../../src/sandbox/server';
import type { SandboxHandle } from '../../src/sandbox/options';
import { SOAP11_TYPE, soapReply, startServer, tmpDir, type TestServer } from './transport-support';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function carrier(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { cwd, env, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('carrier probe: examples', () => {
  it('the same seed draws the same examples, another seed others', () => {
    const op = findShape('GetRateQuote', '1.0.3')!;
    const a = probeExamples(op, 'soap11', 7, 25);
    const b = probeExamples(op, 'soap11', 7, 25);
    const c = probeExamples(op, 'soap11', 8, 25);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
    assert.ok(a.some((e) => e.kind === 'valid') && a.some((e) => e.kind === 'invalid'));
    // Each invalid example breaks exactly one rule.
    for (const e of a.filter((x) => x.kind === 'invalid')) assert.equal(e.changes.length, 1);
  });
});

describe('carrier probe: a service with planted defects', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let planted: TestServer;
  let dir: string;

  before(async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    planted = await startServer(async (req, res, raw) => {
      let body = raw.toString('utf8');
      // A binding GetDocuments lacks: refused plainly, as a service should.
      if (!req.headers['content-type']?.startsWith('text/xml') && !req.headers['content-type']?.startsWith('application/soap+xml')) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not here');
        return;
      }
      // Defect 1: a fault for a valid enumeration value.
      if (/>Invoice</.test(body)) {
        res
          .writeHead(500, { 'Content-Type': SOAP11_TYPE })
          .end(soapReply('1.1', '<soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request.</faultstring></soap:Fault>'));
        return;
      }
      // Defect 2: an HTML error page for one input.
      if (/>DeliveryReceipt</.test(body)) {
        res.writeHead(500, { 'Content-Type': 'text/html' }).end('<html><body><h1>Runtime Error</h1></body></html>');
        return;
      }
      // Defect 4: an invalid value accepted silently (made valid before the service sees it).
      body = body.replace(/NotAValueOfProbe/g, 'BillOfLading');
      const forwarded = await fetch(`${sandbox.url}${req.url}`, {
        method: req.method,
        headers: { 'content-type': String(req.headers['content-type']), soapaction: String(req.headers.soapaction ?? '') },
        body,
      });
      let text = await forwarded.text();
      // Defect 3: a reply a typed client cannot read (a single element repeated), when CustomerData is left out.
      if (!/CustomerData/.test(body)) text = text.replace(/(<DocumentName>[^<]*<\/DocumentName>)/, '$1$1');
      res.writeHead(forwarded.status, { 'Content-Type': forwarded.headers.get('content-type') ?? SOAP11_TYPE }).end(text);
    });
    dir = tmpDir('carrier-probe-');
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ planted: { baseUrl: planted.url } }));
  });

  after(async () => {
    await planted?.close();
    await sandbox?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds each defect and writes a request file that carrier run fails for the same reason', async () => {
    const env = { CARRIER_API_KEY: SANDBOX_DEFAULT_KEY };
    const run = await carrier(['probe', '--env', 'planted', '--operation', 'GetDocuments', '--max-examples', '40', '--seed', '3', '-r', 'cli,json'], dir, env);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const out = path.join(dir, 'probe-failures');
    const report = JSON.parse(fs.readFileSync(path.join(out, 'probe-report.json'), 'utf8')) as {
      seed: number;
      failures: Array<{ property: string; file: string; reason: string }>;
    };
    assert.equal(report.seed, 3);
    const byProperty = new Map(report.failures.map((f) => [f.property, f]));
    assert.match(byProperty.get('valid-is-answered')?.reason ?? '', /fault/, JSON.stringify(report.failures, null, 2));
    assert.match(byProperty.get('no-5xx-but-faults')?.reason ?? '', /HTTP 500 without a SOAP fault/);
    assert.match(byProperty.get('no-contract-errors')?.reason ?? '', /DocumentName/);
    assert.match(byProperty.get('invalid-is-refused')?.reason ?? '', /documentTypes.*answered as a success/);

    for (const f of report.failures) {
      const file = path.join(out, f.file);
      assert.ok(f.file.endsWith('.carrier.json'), f.file);
      assert.match(f.file, new RegExp(`^GetDocuments-${f.property}-\\d+\\.carrier\\.json$`));
      const again = await carrier(['run', file, '--env', 'planted', '--reporter', 'cli'], dir, env);
      // Every file fails for its reason, an invalid one too: it says "asWritten", so carrier run sends its value as written.
      assert.equal(again.code, 1, `${f.file}: ${again.stdout}${again.stderr}`);
      if (f.property === 'invalid-is-refused') assert.match(again.stdout, /NotAValueOfProbe|documentTypes/);
    }
    const written = (name: string) => JSON.parse(fs.readFileSync(path.join(out, byProperty.get(name)!.file), 'utf8')) as { expect: unknown; params: unknown };
    assert.deepEqual(written('valid-is-answered').expect, { fault: false });
    assert.deepEqual((written('no-contract-errors').expect as { conforms: boolean }).conforms, true);
    // Shrunk: the fault needs only Invoice among the document types.
    assert.deepEqual((written('valid-is-answered').params as { documentTypes: string[] }).documentTypes, ['Invoice']);
  });
});

describe('carrier probe: creating operations on a service marked "probe": true', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let dir: string;
  const env = { CARRIER_API_KEY: SANDBOX_DEFAULT_KEY };
  const args = (name: string) => ['probe', '--env', name, '--operation', 'CreatePickupRequest,GetTerminalInformation', '--max-examples', '4'];
  const probedShapes = (stdout: string) => stdout.split('\n').flatMap((l) => /^[✓✗] (\w+) \S+ soap11: \d+ examples/.exec(l)?.[1] ?? []);

  before(async () => {
    // A service on a loopback address, not embedded: only the environment's mark lets a probe create pickups there.
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    dir = tmpDir('carrier-probe-');
    fs.writeFileSync(
      path.join(dir, 'carrier.environments.json'),
      JSON.stringify({ marked: { baseUrl: sandbox.url, probe: true }, unmarked: { baseUrl: sandbox.url } }),
    );
  });

  after(async () => {
    await sandbox?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('marked, the creating operations are probed with the others', async () => {
    const run = await carrier(args('marked'), dir, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.doesNotMatch(run.stdout, /skipped/);
    const probed = probedShapes(run.stdout);
    assert.ok(probed.includes('CreatePickupRequest'), run.stdout);
    assert.ok(probed.includes('GetTerminalInformation'), run.stdout);
  });

  it('unmarked, they are skipped with the reason', async () => {
    const run = await carrier(args('unmarked'), dir, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /skipped CreatePickupRequest: they create shipments and pickups, probed on the embedded sandbox only \(or where "probe": true marks the environment\)/,
    );
    const probed = probedShapes(run.stdout);
    assert.ok(!probed.includes('CreatePickupRequest'), run.stdout);
    assert.ok(probed.includes('GetTerminalInformation'), run.stdout);
  });
});

describe('carrier probe: the embedded sandbox', function () {
  this.timeout(120_000);
  it('every operation, version and binding holds every property', async () => {
    const dir = tmpDir('carrier-probe-');
    try {
      const run = await carrier(['probe', '--binding', 'all', '--max-examples', '30'], dir);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /seed 1: every property held/);
      // Every shape over every binding it offers was probed.
      const pairs = operationNames().flatMap((name) => shapesOf(name).flatMap((op) => op.bindings.map((b) => `${op.operation} ${op.version} ${b}`)));
      const probed = run.stdout.split('\n').flatMap((l) => /^✓ (\w+ \S+ (?:soap11|soap12|get|post)): \d+ examples/.exec(l)?.[1] ?? []);
      assert.deepEqual(probed.sort(), pairs.sort(), run.stdout);
      for (const property of ['no-5xx-but-faults', 'no-transport-failure', 'no-contract-errors', 'invalid-is-refused', 'valid-is-answered', 'same-twice'])
        assert.match(run.stdout, new RegExp(`✓ ${property}: \\d+ examples`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a quick probe of two operations holds every property', async () => {
    const dir = tmpDir('carrier-probe-');
    try {
      const run = await carrier(['probe', '--operation', 'GetTerminalInformation,GetDocumentTypes', '--max-examples', '10'], dir);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /seed 1: every property held/);
      assert.ok(!fs.existsSync(path.join(dir, 'probe-failures')));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a usage error exits 2', async () => {
    const run = await carrier(['probe', '--operation', 'NoSuchOperation'], process.cwd());
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no such operation/);
  });
});
