/**
 * `carrier run --retries` over real HTTP (docs/collections.md#retries-and-flaky-tests): a local
 * service that answers one terminal wrongly on every other call makes its test flaky. With a
 * retry the run passes with one flaky test, counted apart in the console, report.json,
 * report.html and junit.xml — read by Debian's junitparser, a reader that is not ours, as Maven
 * Surefire's <flakyFailure> and <rerunFailure> — and after `carrier report` merges it;
 * `--fail-on-flaky` fails it; without retries it fails. A test that uses captured values is not
 * run again, and says so; its producer is, before the test runs.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/dispatch';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the project script the suite runs before it (package.json test:unit)
const { ensureJunitparser, PYTHON } = require('../../scripts/ensure-junitparser.js') as { ensureJunitparser(o?: { quiet?: boolean }): void; PYTHON: string };

const API_KEY = 'Zr4vQt8LpN2xWm6KsB1yHc9JfD3gTa7VeU0oPi5lMkRqXwYnAb';

/** A SOAP 1.1 reply of GetTerminalInformation in the service's shape, for a terminal in `state`. */
function terminalReply(state: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<GetTerminalInformationResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetTerminalInformationResult><Result><TerminalInfo>
<TerminalDetails xmlns="${DEFAULT_NAMESPACES.data}"><TerminalDetailID>17</TerminalDetailID><TerminalName>Lincoln</TerminalName><TerminalCode>LNK</TerminalCode><TerminalMailingCity>Lincoln</TerminalMailingCity><TerminalMailingState>${state}</TerminalMailingState><TerminalMailingZip>68507</TerminalMailingZip></TerminalDetails>
</TerminalInfo></Result></GetTerminalInformationResult></GetTerminalInformationResponse></soap:Body></soap:Envelope>`;
}

/** Reads junit.xml with junitparser: each suite's counts, each case's result elements and its Surefire rerun children. */
const READ_JUNIT = `
import json, sys
from junitparser import JUnitXml
xml = JUnitXml.fromfile(sys.argv[1])
out = []
for suite in xml:
    cases = []
    for case in suite:
        # junitparser knows failure/error/skipped; Surefire's rerun elements are read as the raw children they are.
        reruns = [{"tag": e.tag, "message": e.get("message"), "type": e.get("type"),
                   "stackTrace": (e.findtext("stackTrace") or ""), "out": (e.findtext("system-out") or "")}
                  for e in case._elem if e.tag in ("flakyFailure", "rerunFailure", "flakyError", "rerunError")]
        cases.append({"name": case.name, "passed": case.is_passed, "results": [type(r).__name__ for r in case.result], "reruns": reruns})
    out.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "errors": suite.errors, "cases": cases})
print(json.dumps(out))
`;

interface JunitCase {
  name: string;
  passed: boolean;
  results: string[];
  reruns: Array<{ tag: string; message: string; type: string; stackTrace: string; out: string }>;
}
interface JunitSuite {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  cases: JunitCase[];
}
function readJunit(file: string): JunitSuite[] {
  return JSON.parse(execFileSync(PYTHON, ['-c', READ_JUNIT, file], { encoding: 'utf8' })) as JunitSuite[];
}

interface JsonTest {
  name: string;
  status: string;
  flaky?: boolean;
  notRetried?: string;
  attempts?: Array<{ failures: Array<{ message: string }>; reply?: { status?: number } }>;
}
interface JsonReport {
  summary: { total: number; passed: number; failed: number; flaky?: number };
  tests: JsonTest[];
}
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as JsonReport;

describe('carrier run --retries: flaky tests', function () {
  this.timeout(60_000);
  let server: http.Server;
  let work: string;
  /** Calls per ZIP code: ZIP 68507 is answered wrongly on its 1st, 3rd, … call. */
  const calls = new Map<string, number>();

  before(async () => {
    ensureJunitparser({ quiet: true });
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const zip = /<ZipCode>([^<]*)<\/ZipCode>/.exec(body)?.[1] ?? '';
        const n = (calls.get(zip) ?? 0) + 1;
        calls.set(zip, n);
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
        res.end(terminalReply(zip === '68507' && n % 2 === 1 ? 'IA' : 'NE'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  beforeEach(() => {
    calls.clear();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'run-retries-'));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fs.writeFileSync(path.join(work, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl } }));
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  function requestFile(rel: string, zip: string, extra: Record<string, unknown> = {}): void {
    const file = path.join(work, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const expect = { reply: { 'Result[0].TerminalDetails.TerminalMailingState': 'NE' } };
    fs.writeFileSync(
      file,
      JSON.stringify({ operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: zip, CountryCode: 'USA' }, expect, ...extra }, null, 2),
    );
  }

  async function carrier(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
      cwd: work,
      env: { CARRIER_API_KEY: API_KEY, NO_COLOR: '1' },
    });
    return { code, out, err };
  }

  const RUN = ['run', 'suite', '--env', 'local', '-r', 'cli,json,junit,html', '-o', 'out'];

  it('without retries, the test that fails every other call fails the run', async () => {
    requestFile('suite/1-flaky.carrier.json', '68507');
    requestFile('suite/2-steady.carrier.json', '10001');
    const r = await carrier(RUN);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /2 tests: 1 passed, 1 failed, 0 skipped/);
    const report = readJson(path.join(work, 'out/report.json'));
    assert.equal(report.summary.flaky, undefined);
    assert.equal(report.tests[0].attempts, undefined);
  });

  it('with --retries 1 it passes with one flaky test, counted apart in every report and after a merge', async () => {
    requestFile('suite/1-flaky.carrier.json', '68507');
    requestFile('suite/2-steady.carrier.json', '10001');
    const r = await carrier([...RUN, '--retries', '1']);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /2 tests: 2 passed \(1 flaky\), 0 failed, 0 skipped/);
    assert.match(r.out, /1-flaky\.carrier\.json \[soap11\]\s+flaky: failed 1 time, then passed/);
    assert.match(r.out, /attempt 1: suite\/1-flaky\.carrier\.json:\d+:\d+\s+Result\[0\]\.TerminalDetails\.TerminalMailingState: expected "NE", got "IA"/);
    assert.equal(calls.get('68507'), 2, 'sent twice');
    assert.equal(calls.get('10001'), 1, 'a passing test is not sent again');

    const json = readJson(path.join(work, 'out/report.json'));
    assert.deepEqual(json.summary.flaky, 1);
    assert.equal(json.summary.passed, 2);
    const flaky = json.tests.find((t) => t.name.startsWith('1-flaky'))!;
    assert.equal(flaky.status, 'passed');
    assert.equal(flaky.flaky, true);
    assert.equal(flaky.attempts?.length, 1);
    assert.match(flaky.attempts![0].failures[0].message, /expected "NE", got "IA"/);
    assert.equal(json.tests.find((t) => t.name.startsWith('2-steady'))!.flaky, undefined);

    const html = fs.readFileSync(path.join(work, 'out/report.html'), 'utf8');
    assert.match(html, /<p class="verdict">✓ Passed \(1 flaky\)<\/p>/);
    assert.match(html, /<li class="flaky"><b>1<\/b>flaky<\/li>/);
    assert.match(html, /flaky: failed 1 time, then passed/);

    const junit = readJunit(path.join(work, 'out/junit.xml'));
    assert.equal(junit.length, 1);
    assert.deepEqual([junit[0].tests, junit[0].failures, junit[0].errors], [2, 0, 0], 'a flaky test counts as passed');
    const [flakyCase, steadyCase] = junit[0].cases;
    assert.equal(flakyCase.passed, true);
    assert.deepEqual(flakyCase.results, []);
    assert.deepEqual(
      flakyCase.reruns.map((e) => [e.tag, e.type]),
      [['flakyFailure', 'reply']],
    );
    assert.match(flakyCase.reruns[0].message, /expected "NE", got "IA"/);
    assert.match(flakyCase.reruns[0].stackTrace, /suite\/1-flaky\.carrier\.json:\d+:\d+/);
    assert.match(flakyCase.reruns[0].out, /HTTP 200/);
    assert.deepEqual(steadyCase.reruns, []);

    // Merged, the counts and the attempts survive.
    const merged = await carrier(['report', 'out', '-r', 'json,junit', '-o', 'merged']);
    assert.equal(merged.code, 0, merged.out + merged.err);
    assert.equal(readJson(path.join(work, 'merged/report.json')).summary.flaky, 1);
    assert.deepEqual(
      readJunit(path.join(work, 'merged/junit.xml'))[0].cases[0].reruns.map((e) => e.tag),
      ['flakyFailure'],
    );
  });

  it('--fail-on-flaky makes a flaky test fail the run', async () => {
    requestFile('suite/1-flaky.carrier.json', '68507');
    const r = await carrier([...RUN, '--retries', '1', '--fail-on-flaky']);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.err, /1 flaky test \(failed, then passed when run again\); --fail-on-flaky fails the run/);
  });

  it('a test that fails every time is one <failure> and a <rerunFailure> per rerun; collection.json retries, and --retries over it', async () => {
    requestFile('suite/1-wrong.carrier.json', '50001', { expect: { reply: { 'Result[0].TerminalDetails.TerminalMailingState': 'IA' } } });
    fs.writeFileSync(path.join(work, 'suite/collection.json'), JSON.stringify({ retries: 2 }));
    const r = await carrier(RUN);
    assert.equal(r.code, 1);
    assert.match(r.out, /failed all 3 attempts/);
    assert.equal(calls.get('50001'), 3);
    const [c] = readJunit(path.join(work, 'out/junit.xml'))[0].cases;
    assert.deepEqual(c.results, ['Failure']);
    assert.deepEqual(
      c.reruns.map((e) => e.tag),
      ['rerunFailure', 'rerunFailure'],
    );
    assert.equal(readJson(path.join(work, 'out/report.json')).tests[0].attempts?.length, 2);

    calls.clear();
    assert.equal((await carrier([...RUN, '--retries', '0'])).code, 1);
    assert.equal(calls.get('50001'), 1, '--retries 0 over the collection: sent once');
  });

  it('a flaky producer is run again before the tests that use its captures; a test that uses captures is not, and says so', async () => {
    requestFile('suite/1-producer.carrier.json', '68507', { capture: { code: 'Result[0].TerminalDetails.TerminalCode' } });
    requestFile('suite/2-consumer.carrier.json', '10001', {
      expect: { reply: { 'Result[0].TerminalDetails.TerminalCode': '{{code}}' } },
    });
    const r = await carrier([...RUN, '--retries', '1']);
    assert.equal(r.code, 0, r.out + r.err);
    assert.equal(calls.get('10001'), 1, 'the consumer ran once, after its producer passed');
    assert.equal(readJson(path.join(work, 'out/report.json')).summary.flaky, 1);

    // The consumer now fails every other call: it uses a capture, so it is not run again.
    calls.clear();
    requestFile('suite/1-producer.carrier.json', '10001', { capture: { code: 'Result[0].TerminalDetails.TerminalCode' } });
    requestFile('suite/2-consumer.carrier.json', '68507', {
      expect: { reply: { 'Result[0].TerminalDetails.TerminalCode': '{{code}}', 'Result[0].TerminalDetails.TerminalMailingState': 'NE' } },
    });
    const c = await carrier([...RUN, '--retries', '1']);
    assert.equal(c.code, 1);
    assert.equal(calls.get('68507'), 1, 'not sent again');
    assert.match(c.out, /not retried: it uses captures of 1-producer\.carrier\.json \[soap11\]/);
    const consumer = readJson(path.join(work, 'out/report.json')).tests[1];
    assert.match(consumer.notRetried ?? '', /^not retried: it uses captures of 1-producer/);
    const junit = fs.readFileSync(path.join(work, 'out/junit.xml'), 'utf8');
    assert.match(junit, /<system-out>[^<]*not retried: it uses captures of 1-producer/);
  });

  it('refuses a --retries that is not a whole number', async () => {
    requestFile('suite/1-flaky.carrier.json', '68507');
    const r = await carrier([...RUN, '--retries', 'two']);
    assert.equal(r.code, 2);
    assert.match(r.err, /--retries needs a whole number of 0 or more, not "two"/);
    fs.writeFileSync(path.join(work, 'suite/collection.json'), '{\n  "retries": -1\n}\n');
    const bad = await carrier(RUN);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /suite\/collection\.json:2:14: error: "retries" must be a whole number, 0 or more/);
  });
});
