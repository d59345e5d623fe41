/**
 * `carrier run` with data rows and shards, and `carrier report` merging their JSON reports, end
 * to end against a local service: shards 1/3…3/3 hold every test of the unsharded run once, the
 * merge loses and doubles nothing and counts again, a missing shard fails the merge, the reports
 * (JUnit, JSON, HTML) name every row, and no spelling of the API key reaches any of them — even
 * one the service echoes back, even with characters HTML and JSON escape.
 *
 * A merge that is not one whole run — a shard missing, a shard run at another commit or with other
 * options — is written all the same and fails, and every report says so where a CI reads it
 * (junit.xml an <error> testcase, report.json `incomplete`, report.html a red summary), against
 * shards run for real on the embedded sandbox; each run records what it ran (src/cli/runFingerprint.ts).
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/dispatch';
import { catalogFingerprint, repositoryCommit, runCommit } from '../../src/cli/runFingerprint';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { mergeReports, parseRunReport } from '../../src/core/runner';
import { XMLParser } from 'fast-xml-parser';
import { checkJunitStructure } from './junit-structure';

/** A key with every character the reports escape: `<`, `&`, `>`, `"`, `'`. */
const API_KEY = `K<&>"'q7vRt2ZpL9xWm4NsB8yHc3JfD6gTa1VeU5o`;
const KEY_CORE = 'q7vRt2ZpL9xWm4NsB8yHc3JfD6gTa1VeU5o';

const STATES: Record<string, string> = { '68507': 'NE', '33635': 'FL', '30318': 'GA', '60608': 'IL', '75212': 'TX', '80216': 'CO' };

/** GetTerminalInformation's reply; the terminal's name echoes the key it was sent, as a careless service might. */
function terminalReply(zip: string, echoedKey: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<GetTerminalInformationResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetTerminalInformationResult><Result><TerminalInfo>
<TerminalDetails xmlns="${DEFAULT_NAMESPACES.data}"><TerminalDetailID>17</TerminalDetailID><TerminalName>key ${echoedKey}</TerminalName><TerminalCode>T${zip}</TerminalCode><TerminalMailingCity>X</TerminalMailingCity><TerminalMailingState>${STATES[zip] ?? 'NE'}</TerminalMailingState><TerminalMailingZip>${zip}</TerminalMailingZip></TerminalDetails>
</TerminalInfo></Result></GetTerminalInformationResult></GetTerminalInformationResponse></soap:Body></soap:Envelope>`;
}

async function carrier(
  args: string[],
  cwd: string,
  env: Record<string, string> = { CARRIER_API_KEY: API_KEY },
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
    env,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

describe('carrier run with data and shards, carrier report', function () {
  this.timeout(60_000);
  let server: http.Server;
  let baseUrl: string;
  let tmp: string;
  let requests = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        requests++;
        const zip = /<ZipCode>([^<]*)<\/ZipCode>/.exec(body)?.[1] ?? '';
        // The key as it came, still XML-escaped: the reply carries it back the same way.
        const key = /<APIKey>([^<]*)<\/APIKey>/.exec(body)?.[1] ?? '';
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
        res.end(terminalReply(zip, key));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-report-'));
    fs.writeFileSync(path.join(tmp, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl } }));
    // A repository root, so settings are looked up no higher than this folder.
    fs.mkdirSync(path.join(tmp, '.git'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function write(rel: string, content: unknown): void {
    const file = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }

  const terminal = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    operation: 'GetTerminalInformation',
    version: '1.0.2',
    params: { CountryCode: 'USA', ...params },
    ...extra,
  });

  /** A data-driven collection (5 rows, a quoted comma, a chain per row) and two plain ones: 16 tests. */
  function repository(): void {
    write('suite/terminals/collection.json', { data: 'zips.csv', environment: 'local' });
    write(
      'suite/terminals/zips.csv',
      'name,zip,state\r\n"Tampa, FL",33635,FL\r\nAtlanta,30318,GA\r\nChicago,60608,IL\r\nDallas,75212,TX\r\nDenver,80216,CO\r\n',
    );
    write(
      'suite/terminals/1-find.carrier.json',
      terminal(
        { ZipCode: '{{zip}}' },
        {
          expect: { reply: { 'Result[0].TerminalDetails.TerminalMailingState': '{{state}}' } },
          capture: { code: 'Result[0].TerminalDetails.TerminalCode' },
        },
      ),
    );
    write(
      'suite/terminals/2-again.carrier.json',
      terminal({ ZipCode: '{{zip}}' }, { expect: { reply: { 'Result[0].TerminalDetails.TerminalCode': '{{code}}' } } }),
    );
    write('suite/plain/collection.json', { environment: 'local', order: ['b.carrier.json'] });
    write('suite/plain/a.carrier.json', terminal({ ZipCode: '68507' }, { expect: { status: 200 } }));
    write('suite/plain/b.carrier.json', terminal({ ZipCode: '68507' }, { expect: { status: 200 } }));
    write('suite/loose/collection.json', { environment: 'local' });
    for (const n of ['1', '2', '3', '4']) write(`suite/loose/${n}.carrier.json`, terminal({ ZipCode: '68507' }, { expect: { status: 200 } }));
  }

  function noKeyIn(text: string, what: string): void {
    assert.ok(!text.includes(KEY_CORE), `${what} holds no part of the API key`);
  }

  it('a 5-row CSV with a quoted comma: 5 passing testcases per file, each row named, reports written and masked', async () => {
    repository();
    const r = await carrier(['run', 'suite/terminals', '--reporter', 'cli,junit,json,html', '--out', 'out'], tmp);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /suite\/terminals {2}\(settings: suite\/terminals\/collection\.json\) {2}\(data: suite\/terminals\/zips\.csv, 5 rows\)/);
    assert.match(r.stdout, /✓ 1-find\.carrier\.json \[soap11\] \[row 1: Tampa, FL\]/);
    assert.match(r.stdout, /10 tests: 10 passed, 0 failed, 0 skipped/);
    const junit = fs.readFileSync(path.join(tmp, 'out/junit.xml'), 'utf8');
    assert.deepEqual(checkJunitStructure(junit), { suites: 1, cases: 10 });
    for (const row of ['row 1: Tampa, FL', 'row 2: Atlanta', 'row 3: Chicago', 'row 4: Dallas', 'row 5: Denver']) {
      assert.ok(junit.includes(`name="1-find.carrier.json [soap11] [${row}]"`), row);
      assert.ok(junit.includes(`name="2-again.carrier.json [soap11] [${row}]"`), row);
    }
    const json = fs.readFileSync(path.join(tmp, 'out/report.json'), 'utf8');
    const html = fs.readFileSync(path.join(tmp, 'out/report.html'), 'utf8');
    const report = JSON.parse(json);
    assert.equal(report.tests[0].exchange.request.method, 'POST');
    assert.ok(report.tests[0].exchange.request.body.includes('<APIKey>••••</APIKey>'), 'the exchange is in report.json, masked');
    assert.ok(report.tests[0].exchange.reply.body.includes('key ••••'), 'a reply that echoes the key is masked too');
    for (const [text, what] of [
      [junit, 'junit.xml'],
      [json, 'report.json'],
      [html, 'report.html'],
      [r.stdout + r.stderr, 'the output'],
    ] as const)
      noKeyIn(text, what);
    assert.ok(html.includes('1-find.carrier.json [soap11] [row 1: Tampa, FL]'));
  });

  it('shards 1/3…3/3 hold every test of the unsharded run once; carrier report merges them without losing or doubling one', async () => {
    repository();
    const whole = await carrier(['run', 'suite', '--reporter', 'json', '--out', 'whole'], tmp);
    assert.equal(whole.code, 0, whole.stdout + whole.stderr);
    const all = JSON.parse(fs.readFileSync(path.join(tmp, 'whole/report.json'), 'utf8'))
      .tests.map((t: { id: string }) => t.id)
      .sort();
    assert.equal(all.length, 16);

    const seen: string[] = [];
    for (const i of [1, 2, 3]) {
      const r = await carrier(['run', 'suite', '--shard', `${i}/3`, '--reporter', 'cli,json', '--out', `shards/${i}`], tmp);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, new RegExp(`^shard ${i}/3: \\d+ of 16 tests$`, 'm'));
      const part = JSON.parse(fs.readFileSync(path.join(tmp, `shards/${i}/report.json`), 'utf8'));
      assert.deepEqual(part.shard, { index: i, total: 3, tests: 16 });
      const ids: string[] = part.tests.map((t: { id: string }) => t.id);
      // A row's chain and the ordered collection stay in one shard.
      for (const row of [1, 2, 3, 4, 5])
        assert.equal(ids.includes(`suite/terminals/1-find.carrier.json#row=${row}`), ids.includes(`suite/terminals/2-again.carrier.json#row=${row}`));
      assert.equal(ids.includes('suite/plain/a.carrier.json'), ids.includes('suite/plain/b.carrier.json'));
      seen.push(...ids);
    }
    assert.deepEqual([...seen].sort(), all, 'together the shards ran every test exactly once');

    const merged = await carrier(['report', 'shards', '--reporter', 'junit,json,html', '--out', 'merged'], tmp);
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    assert.match(merged.stdout, /Merged 3 reports: 16 tests: 16 passed, 0 failed, 0 skipped/);
    const report = JSON.parse(fs.readFileSync(path.join(tmp, 'merged/report.json'), 'utf8'));
    assert.deepEqual(report.tests.map((t: { id: string }) => t.id).sort(), all);
    assert.deepEqual(
      report.tests.map((t: { position: number }) => t.position),
      [...Array(16).keys()],
      'in the order of the whole run',
    );
    assert.equal(report.summary.total, 16);
    assert.equal(report.summary.passed, 16);
    assert.deepEqual(
      report.mergedFrom.map((m: { shard: { index: number } }) => m.shard.index),
      [1, 2, 3],
    );
    const junit = fs.readFileSync(path.join(tmp, 'merged/junit.xml'), 'utf8');
    assert.deepEqual(checkJunitStructure(junit), { suites: 3, cases: 16 });
    const html = fs.readFileSync(path.join(tmp, 'merged/report.html'), 'utf8');
    for (const t of report.tests) assert.ok(html.includes(t.name.replace(/&/g, '&amp;')), `${t.name} is in report.html`);
    for (const f of ['merged/junit.xml', 'merged/report.json', 'merged/report.html']) noKeyIn(fs.readFileSync(path.join(tmp, f), 'utf8'), f);

    // One shard's report missing: its tests would be lost, so the merge says so and fails.
    const partial = await carrier(['report', 'shards/1/report.json', 'shards/3', '--out', 'partial'], tmp);
    assert.equal(partial.code, 1, partial.stdout + partial.stderr);
    assert.match(partial.stderr, /shard 2\/3 missing/);
  });

  it('merging keeps a test once when two reports hold it, says so, and counts the summary again', async () => {
    repository();
    assert.equal((await carrier(['run', 'suite/loose', '--reporter', 'json', '--out', 'a'], tmp)).code, 0);
    assert.equal((await carrier(['run', 'suite/loose/1.carrier.json', 'suite/plain', '--reporter', 'json', '--out', 'b'], tmp)).code, 0);
    const read = (f: string) => {
      const r = parseRunReport(fs.readFileSync(path.join(tmp, f), 'utf8'), tmp);
      assert.ok('report' in r);
      return { file: f, report: r.report };
    };
    const merged = mergeReports([read('a/report.json'), read('b/report.json')]);
    assert.equal(merged.report.results.length, 6, '4 loose + 2 plain; loose/1 once');
    assert.equal(merged.report.summary.total, 6);
    assert.equal(merged.notes.length, 1);
    assert.match(
      merged.notes[0],
      /^1\.carrier\.json \[soap11\] \(.*suite\/loose\/1\.carrier\.json\) is in 2 reports \(a\/report\.json, b\/report\.json\); kept the result from b\/report\.json$/,
    );
    assert.deepEqual(merged.lost, []);
    const cli = await carrier(['report', 'a', 'b/report.json', '--reporter', 'cli', '--out', 'm'], tmp);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stderr, /note: .*is in 2 reports/);
    assert.match(cli.stdout, /6 tests: 6 passed, 0 failed, 0 skipped/);
  });

  it('--durations balances shards by an earlier report; a shard with no work says so and passes', async () => {
    repository();
    assert.equal((await carrier(['run', 'suite/loose', '--reporter', 'json', '--out', 'earlier'], tmp)).code, 0);
    // loose/1 took as long as the other three together and then some: it gets a shard to itself.
    const earlier = JSON.parse(fs.readFileSync(path.join(tmp, 'earlier/report.json'), 'utf8'));
    for (const t of earlier.tests) t.durationMs = t.id.endsWith('/1.carrier.json') ? 1000 : 10;
    fs.writeFileSync(path.join(tmp, 'earlier/report.json'), JSON.stringify(earlier));
    const names = async (i: number) => {
      const r = await carrier(['run', 'suite/loose', '--shard', `${i}/2`, '--durations', 'earlier/report.json', '--reporter', 'json', '--out', `s${i}`], tmp);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      return JSON.parse(fs.readFileSync(path.join(tmp, `s${i}/report.json`), 'utf8')).tests.map((t: { file: string }) => path.basename(t.file));
    };
    assert.deepEqual(await names(1), ['1.carrier.json']);
    assert.deepEqual(await names(2), ['2.carrier.json', '3.carrier.json', '4.carrier.json']);
    const empty = await carrier(['run', 'suite/plain', '--shard', '2/2', '--reporter', 'cli,json', '--out', 'e'], tmp);
    assert.equal(empty.code, 0, empty.stdout + empty.stderr);
    assert.match(empty.stdout, /shard 2\/2 has no tests: the run's 2 tests make 1 unit that stay whole, fewer than 2 shards/);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(tmp, 'e/report.json'), 'utf8')).tests, [], 'its report is written, empty, for the merge');
    const bad = await carrier(['run', 'suite', '--shard', '4/3'], tmp);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /i must be from 1 to n/);
    assert.equal((await carrier(['run', 'suite', '--durations', 'earlier/report.json'], tmp)).code, 2, '--durations without --shard');
  });

  it('mistakes in data are errors at file:line:col before anything is sent (exit 2)', async () => {
    repository();
    const before = requests;
    write('suite/terminals/zips.csv', 'name,zip,state\nTampa,33635,FL\nAtlanta,30318\n');
    const ragged = await carrier(['run', 'suite/terminals'], tmp);
    assert.equal(ragged.code, 2);
    assert.match(ragged.stderr, /^suite\/terminals\/zips\.csv:3:14: error: data file: row 2 has 2 cells, the header 3/m);
    write('suite/terminals/zips.csv', 'name,zipcode,state\nTampa,33635,FL\n');
    const unknown = await carrier(['run', 'suite/terminals'], tmp);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /^suite\/terminals\/1-find\.carrier\.json:\d+:\d+: error: \{\{zip\}\} has no value: zips\.csv has no column "zip" \(columns: name, zipcode, state\)/m,
    );
    assert.match(unknown.stderr, /nothing was sent/);
    const missing = await carrier(['run', 'suite/plain', '--data', 'nowhere.csv'], tmp);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--data nowhere\.csv: no such file/);
    assert.equal(requests, before, 'nothing reached the service');
  });

  it('--data runs the files named on the command line once per row', async () => {
    repository();
    write('rows.json', [
      { name: 'Lincoln', zip: '68507', state: 'NE' },
      { name: 'Tampa', zip: '33635', state: 'FL' },
    ]);
    const r = await carrier(['run', 'suite/terminals/1-find.carrier.json', '--data', 'rows.json', '--reporter', 'cli,json', '--out', 'd'], tmp);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✓ 1-find\.carrier\.json \[soap11\] \[row 1: Lincoln\]/);
    assert.match(r.stdout, /✓ 1-find\.carrier\.json \[soap11\] \[row 2: Tampa\]/);
    assert.match(r.stdout, /2 tests: 2 passed/);
  });
});

interface JunitCase {
  name: string;
  classname: string;
  file?: string;
  error?: { message: string; type: string; '#text': string };
}
interface JunitSuite {
  name: string;
  tests: string;
  errors: string;
  testcase: JunitCase[];
}

/** junit.xml as a CI reads it: the root's counts and every suite's cases, after the XSD structure check. */
function readJunit(file: string): { tests: number; errors: number; failures: number; suites: JunitSuite[] } {
  const xml = fs.readFileSync(file, 'utf8');
  checkJunitStructure(xml);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => ['testsuite', 'testcase'].includes(n) }).parse(xml);
  const root = doc.testsuites;
  return { tests: Number(root.tests), errors: Number(root.errors), failures: Number(root.failures), suites: root.testsuite };
}

const errorCases = (suites: readonly JunitSuite[]) => suites.flatMap((s) => s.testcase.filter((c) => c.error).map((c) => ({ suite: s, testcase: c })));

describe('carrier report of shards that are not one whole run', function () {
  this.timeout(60_000);
  const COMMIT_A = 'a'.repeat(8) + '0123456789abcdef0123456789abcdef';
  const COMMIT_B = 'b'.repeat(8) + 'fedcba9876543210fedcba9876543210';
  const SECRET_VALUE = 'lane-S3cr3t-value-71';
  let tmp: string;
  const at = (...parts: string[]) => path.join(tmp, ...parts);
  const readJson = (rel: string) => JSON.parse(fs.readFileSync(at(rel), 'utf8'));
  const sandboxRun = (args: string[], env: Record<string, string> = {}) => carrier(['run', ...args], tmp, env);
  const report = (args: string[]) => carrier(['report', ...args], tmp, {});

  // Six tests on the embedded sandbox, split 2/2/2; the repository's HEAD names a branch whose commit is COMMIT_A.
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-incomplete-'));
    fs.mkdirSync(at('.git', 'refs', 'heads'), { recursive: true });
    fs.writeFileSync(at('.git', 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(at('.git', 'refs', 'heads', 'main'), `${COMMIT_A}\n`);
    fs.mkdirSync(at('suite'));
    for (const n of [1, 2, 3, 4, 5, 6]) {
      fs.writeFileSync(
        at('suite', `${n}.carrier.json`),
        JSON.stringify({ operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: '68507', CountryCode: 'USA' }, expect: { status: 200 } }),
      );
    }
    for (const i of [1, 2, 3]) {
      const r = await sandboxRun(['suite', '--shard', `${i}/3`, '--var', `lane=${SECRET_VALUE}`, '--reporter', 'json', '--out', `shards/${i}`]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Copies of the shards' reports under `folder`, each changed by `edit` first. */
  function copies(folder: string, edit: (report: Record<string, unknown>, shard: number) => void = () => {}): void {
    for (const i of [1, 2, 3]) {
      const json = readJson(`shards/${i}/report.json`);
      edit(json, i);
      fs.mkdirSync(at(folder, String(i)), { recursive: true });
      fs.writeFileSync(at(folder, String(i), 'report.json'), JSON.stringify(json, null, 2));
    }
  }

  it('each shard records what it ran: the commit its HEAD names, the catalog, the options with --var names only', () => {
    for (const i of [1, 2, 3]) {
      const json = readJson(`shards/${i}/report.json`);
      assert.deepEqual(json.run, { commit: COMMIT_A, catalog: catalogFingerprint(), options: { variables: ['lane'], strictContract: false, shards: 3 } });
      assert.equal(json.incomplete, undefined);
      assert.ok(!fs.readFileSync(at(`shards/${i}/report.json`), 'utf8').includes(SECRET_VALUE), 'a --var value is never recorded');
    }
  });

  it('the complete set merges green: no error testcase, not incomplete, the header passed', async () => {
    const r = await report(['shards', '--reporter', 'cli,junit,json,html', '--out', 'whole']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /incomplete/i);
    const junit = readJunit(at('whole/junit.xml'));
    assert.deepEqual([junit.tests, junit.errors, junit.failures], [6, 0, 0]);
    assert.deepEqual(errorCases(junit.suites), []);
    const json = readJson('whole/report.json');
    assert.equal(json.incomplete, undefined);
    assert.equal(json.incompleteReasons, undefined);
    assert.deepEqual(json.run, readJson('shards/1/report.json').run, 'the run all three shards share');
    const html = fs.readFileSync(at('whole/report.html'), 'utf8');
    assert.match(html, /<header class="summary passed">/);
    assert.doesNotMatch(html, /class="incomplete"/);
  });

  it('a shard missing: exit 1, and junit.xml, report.json, report.html and the cli all name it', async () => {
    const r = await report(['shards/1', 'shards/2/report.json', '--reporter', 'cli,junit,json,html', '--out', 'partial']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const held = readJson('partial/report.json').tests.length;
    assert.equal(held, 4, 'shards 1/3 and 2/3 hold 2 tests each');
    const message = "shard 3/3 missing: its tests (2 of the run's 6) are not in this report";
    assert.ok(r.stderr.includes(`carrier report: error: ${message}`), r.stderr);
    assert.ok(r.stdout.includes(`Incomplete report: not one whole run\n  ✗ ${message}\n`), r.stdout);

    const junit = readJunit(at('partial/junit.xml'));
    assert.equal(junit.tests, held + 1, 'the error testcase counts among the tests');
    assert.equal(junit.errors, 1);
    const errors = errorCases(junit.suites);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].testcase.name, 'shard 3/3 missing');
    assert.equal(errors[0].testcase.error!.type, 'missing-shard');
    assert.equal(errors[0].testcase.error!.message, message);
    assert.match(errors[0].testcase.error!['#text'], /does not hold the whole run/);
    assert.deepEqual([errors[0].suite.tests, errors[0].suite.errors], ['1', '1'], 'its testsuite counts it');

    const json = readJson('partial/report.json');
    assert.equal(json.incomplete, true);
    assert.deepEqual(json.incompleteReasons, [{ kind: 'missing-shard', shard: 3, total: 3, tests: 2, message }]);

    const html = fs.readFileSync(at('partial/report.html'), 'utf8');
    assert.match(html, /<title>Carrier run report: incomplete, 4 passed, 0 failed, 0 skipped<\/title>/);
    assert.match(html, /<header class="summary failed">/, 'the summary is red although every test that arrived passed');
    assert.match(html, /<p class="verdict">✗ Failed: the report is incomplete<\/p>/);
    assert.ok(
      html.includes(
        `<section class="incomplete" role="alert"><h2>Incomplete report: not one whole run</h2><ul><li>${message.replace(/'/g, '&apos;')}</li></ul></section>`,
      ),
    );
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1];
    const hash = (t: string) => `'sha256-${createHash('sha256').update(t, 'utf8').digest('base64')}'`;
    assert.ok(
      csp.startsWith(
        `default-src 'none'; style-src ${hash(/<style>([\s\S]*?)<\/style>/.exec(html)![1])}; script-src ${hash(/<script>([\s\S]*?)<\/script>/.exec(html)![1])};`,
      ),
      csp,
    );

    // Merged again, alone: still incomplete. With the missing shard's report: whole, and green.
    const again = await report(['partial/report.json', '--reporter', 'junit,json', '--out', 'again']);
    assert.equal(again.code, 1, again.stdout + again.stderr);
    assert.deepEqual(readJson('again/report.json').incompleteReasons, json.incompleteReasons);
    assert.equal(readJunit(at('again/junit.xml')).errors, 1);
    const completed = await report(['partial/report.json', 'shards/3', '--reporter', 'json', '--out', 'completed']);
    assert.equal(completed.code, 0, completed.stdout + completed.stderr);
    assert.equal(readJson('completed/report.json').incomplete, undefined);
    assert.equal(readJson('completed/report.json').tests.length, 6);
  });

  it('a shard whose report.json says it ran with other options: options-differs, naming the file, the shard and the options', async () => {
    copies('edited', (json, i) => {
      if (i === 2)
        (json.run as { options: Record<string, unknown> }).options = { environment: 'staging', variables: ['lane', 'region'], strictContract: true, shards: 3 };
    });
    const r = await report(['edited', '--reporter', 'cli,junit,json,html', '--out', 'edited-merged']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const [reason, ...more] = readJson('edited-merged/report.json').incompleteReasons;
    assert.deepEqual(more, []);
    assert.equal(reason.kind, 'options-differs');
    assert.equal(reason.file, 'edited/2/report.json');
    assert.deepEqual([reason.shard, reason.total], [2, 3]);
    assert.deepEqual([...reason.options].sort(), ['environment', 'strictContract', 'variables']);
    assert.match(reason.message, /^edited\/2\/report\.json \(shard 2\/3\) ran with other options: /);
    assert.match(reason.message, /--env staging here, not given in the others/);
    assert.match(reason.message, /--var names lane, region here, lane in the others/);
    assert.match(reason.message, /--strict-contract on here, off in the others/);
    const errors = errorCases(readJunit(at('edited-merged/junit.xml')).suites);
    assert.deepEqual(
      errors.map((e) => [e.testcase.name, e.testcase.file, e.testcase.error!.type]),
      [['edited/2/report.json, shard 2/3: options differ', 'edited/2/report.json', 'options-differs']],
    );
    assert.match(
      fs.readFileSync(at('edited-merged/report.html'), 'utf8'),
      /<header class="summary failed">[\s\S]*edited\/2\/report\.json \(shard 2\/3\) ran with other options/,
    );
  });

  it('a shard run by a carrier with another catalog, and shards saying the run had more tests than they hold', async () => {
    copies('recataloged', (json, i) => {
      if (i === 1) (json.run as { catalog: string }).catalog = '0000000000000000';
    });
    const r = await report(['recataloged', '--reporter', 'junit,json', '--out', 'recataloged-merged']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(readJson('recataloged-merged/report.json').incompleteReasons, [
      {
        kind: 'catalog-differs',
        file: 'recataloged/1/report.json',
        shard: 1,
        total: 3,
        message: `recataloged/1/report.json (shard 1/3) was run by a carrier with another operation catalog (0000000000000000, the others ${catalogFingerprint()})`,
      },
    ]);
    assert.deepEqual(
      errorCases(readJunit(at('recataloged-merged/junit.xml')).suites).map((e) => e.testcase.name),
      ['recataloged/1/report.json, shard 1/3: catalog differs'],
    );

    copies('short', (json) => {
      (json.shard as { tests: number }).tests = 7;
    });
    const short = await report(['short', '--reporter', 'json', '--out', 'short-merged']);
    assert.equal(short.code, 1, short.stdout + short.stderr);
    assert.deepEqual(readJson('short-merged/report.json').incompleteReasons, [
      { kind: 'tests-missing', tests: 1, message: 'the whole run had 7 tests; the shards hold 6' },
    ]);
  });

  it("a shard run at another commit (HEAD's branch moved, read from packed-refs): commit-differs", async () => {
    const loose = at('.git', 'refs', 'heads', 'main');
    fs.rmSync(loose);
    fs.writeFileSync(at('.git', 'packed-refs'), `# pack-refs with: peeled fully-peeled sorted\n${COMMIT_B} refs/heads/main\n`);
    try {
      const r = await sandboxRun(['suite', '--shard', '3/3', '--var', `lane=${SECRET_VALUE}`, '--reporter', 'json', '--out', 'moved/3']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
    } finally {
      fs.rmSync(at('.git', 'packed-refs'));
      fs.writeFileSync(loose, `${COMMIT_A}\n`);
    }
    assert.equal(readJson('moved/3/report.json').run.commit, COMMIT_B);
    const r = await report(['shards/1', 'shards/2', 'moved/3', '--reporter', 'junit,json,html', '--out', 'moved-merged']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(readJson('moved-merged/report.json').tests.length, 6, "every test is there; they are not one run's");
    const message = `moved/3/report.json (shard 3/3) ran commit ${COMMIT_B.slice(0, 12)}, the others ${COMMIT_A.slice(0, 12)}`;
    assert.deepEqual(readJson('moved-merged/report.json').incompleteReasons, [
      { kind: 'commit-differs', file: 'moved/3/report.json', shard: 3, total: 3, message },
    ]);
    const junit = readJunit(at('moved-merged/junit.xml'));
    assert.equal(junit.errors, 1);
    assert.deepEqual(
      errorCases(junit.suites).map((e) => [e.testcase.name, e.testcase.error!.type, e.testcase.error!.message]),
      [['moved/3/report.json, shard 3/3: commit differs', 'commit-differs', message]],
    );
    assert.match(fs.readFileSync(at('moved-merged/report.html'), 'utf8'), /<header class="summary failed">/);
    // The merged report merged again keeps saying it: its shards are whole, its runs were not one.
    const again = await report(['moved-merged/report.json', '--reporter', 'json', '--out', 'moved-again']);
    assert.equal(again.code, 1, again.stdout + again.stderr);
    assert.deepEqual(readJson('moved-again/report.json').incompleteReasons, readJson('moved-merged/report.json').incompleteReasons);
  });

  it('reports written before runs were recorded (no "run") still merge: unknown is no difference', async () => {
    copies('older', (json, i) => {
      if (i !== 1) delete json.run;
    });
    const some = await report(['older', '--reporter', 'json', '--out', 'older-merged']);
    assert.equal(some.code, 0, some.stdout + some.stderr);
    copies('oldest', (json) => {
      delete json.run;
    });
    const none = await report(['oldest', '--reporter', 'junit,json', '--out', 'oldest-merged']);
    assert.equal(none.code, 0, none.stdout + none.stderr);
    assert.equal(readJson('oldest-merged/report.json').run, undefined);
    assert.equal(readJunit(at('oldest-merged/junit.xml')).errors, 0);
    // A report that says it is incomplete without saying why is taken at its word.
    copies('flagged', (json, i) => {
      if (i === 1) json.incomplete = true;
    });
    const flagged = await report(['flagged', '--reporter', 'json', '--out', 'flagged-merged']);
    assert.equal(flagged.code, 1, flagged.stdout + flagged.stderr);
    assert.equal(readJson('flagged-merged/report.json').incomplete, true);
  });
});

describe('the commit a run records', () => {
  const SHA = '0123456789abcdef0123456789abcdef01234567';
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-commit-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a detached HEAD, a linked worktree's branch in its common git folder, never a ref out of the git folder", () => {
    fs.mkdirSync(path.join(dir, 'repo', '.git'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'repo', '.git', 'HEAD'), `${SHA}\n`);
    fs.mkdirSync(path.join(dir, 'repo', 'suite'));
    assert.equal(repositoryCommit(path.join(dir, 'repo', 'suite')), SHA, 'found from a folder below the repository root');

    // git worktree add: the worktree's .git is a file naming its git folder, whose commondir is the main one.
    const common = path.join(dir, 'repo', '.git');
    const own = path.join(common, 'worktrees', 'wt');
    fs.mkdirSync(own, { recursive: true });
    fs.writeFileSync(path.join(own, 'HEAD'), 'ref: refs/heads/feature\n');
    fs.writeFileSync(path.join(own, 'commondir'), '../..\n');
    fs.mkdirSync(path.join(common, 'refs', 'heads'), { recursive: true });
    fs.writeFileSync(path.join(common, 'refs', 'heads', 'feature'), `${SHA.replace(/0/g, 'f')}\n`);
    fs.mkdirSync(path.join(dir, 'wt'));
    fs.writeFileSync(path.join(dir, 'wt', '.git'), `gitdir: ${own}\n`);
    assert.equal(repositoryCommit(path.join(dir, 'wt')), SHA.replace(/0/g, 'f'));

    fs.writeFileSync(path.join(own, 'HEAD'), 'ref: refs/../../../outside\n');
    fs.writeFileSync(path.join(dir, 'outside'), `${SHA}\n`);
    assert.equal(repositoryCommit(path.join(dir, 'wt')), undefined);
  });

  it("a CI variable when git's files do not say (an empty .git), the repository over the CI", () => {
    fs.mkdirSync(path.join(dir, '.git'));
    assert.equal(runCommit(dir, {}), undefined);
    assert.equal(runCommit(dir, { GITHUB_SHA: 'not a commit' }), undefined);
    assert.equal(runCommit(dir, { CI_COMMIT_SHA: SHA.toUpperCase() }), SHA);
    fs.writeFileSync(path.join(dir, '.git', 'HEAD'), `${SHA.replace(/1/g, 'e')}\n`);
    assert.equal(runCommit(dir, { GITHUB_SHA: SHA }), SHA.replace(/1/g, 'e'));
  });

  it("the catalog's fingerprint: 16 hex digits, the same on every call", () => {
    assert.match(catalogFingerprint(), /^[0-9a-f]{16}$/);
    assert.equal(catalogFingerprint(), catalogFingerprint());
  });
});
