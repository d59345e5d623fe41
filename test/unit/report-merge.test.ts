/**
 * `carrier run` with data rows and shards, and `carrier report` merging their JSON reports, end
 * to end against a local service: shards 1/3…3/3 hold every test of the unsharded run once, the
 * merge loses and doubles nothing and counts again, a missing shard fails the merge, the reports
 * (JUnit, JSON, HTML) name every row, and no spelling of the API key reaches any of them — even
 * one the service echoes back, even with characters HTML and JSON escape.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIo } from '../../src/cli/command';
import { runCli } from '../../src/cli/dispatch';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { mergeReports, parseRunReport } from '../../src/core/runner';
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

async function carrier(args: string[], cwd: string, env: Record<string, string> = { CARRIER_API_KEY: API_KEY }): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; }, cwd, env };
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
      req.on('data', (c) => { body += c; });
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
  after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

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

  const terminal = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ operation: 'GetTerminalInformation', version: '1.0.2', params: { CountryCode: 'USA', ...params }, ...extra });

  /** A data-driven collection (5 rows, a quoted comma, a chain per row) and two plain ones: 16 tests. */
  function repository(): void {
    write('suite/terminals/collection.json', { data: 'zips.csv', environment: 'local' });
    write('suite/terminals/zips.csv', 'name,zip,state\r\n"Tampa, FL",33635,FL\r\nAtlanta,30318,GA\r\nChicago,60608,IL\r\nDallas,75212,TX\r\nDenver,80216,CO\r\n');
    write('suite/terminals/1-find.carrier.json', terminal({ ZipCode: '{{zip}}' }, {
      expect: { reply: { 'Result[0].TerminalDetails.TerminalMailingState': '{{state}}' } },
      capture: { code: 'Result[0].TerminalDetails.TerminalCode' },
    }));
    write('suite/terminals/2-again.carrier.json', terminal({ ZipCode: '{{zip}}' }, { expect: { reply: { 'Result[0].TerminalDetails.TerminalCode': '{{code}}' } } }));
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
    for (const [text, what] of [[junit, 'junit.xml'], [json, 'report.json'], [html, 'report.html'], [r.stdout + r.stderr, 'the output']] as const) noKeyIn(text, what);
    assert.ok(html.includes('1-find.carrier.json [soap11] [row 1: Tampa, FL]'));
  });

  it('shards 1/3…3/3 hold every test of the unsharded run once; carrier report merges them without losing or doubling one', async () => {
    repository();
    const whole = await carrier(['run', 'suite', '--reporter', 'json', '--out', 'whole'], tmp);
    assert.equal(whole.code, 0, whole.stdout + whole.stderr);
    const all = JSON.parse(fs.readFileSync(path.join(tmp, 'whole/report.json'), 'utf8')).tests.map((t: { id: string }) => t.id).sort();
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
      for (const row of [1, 2, 3, 4, 5]) assert.equal(ids.includes(`suite/terminals/1-find.carrier.json#row=${row}`), ids.includes(`suite/terminals/2-again.carrier.json#row=${row}`));
      assert.equal(ids.includes('suite/plain/a.carrier.json'), ids.includes('suite/plain/b.carrier.json'));
      seen.push(...ids);
    }
    assert.deepEqual([...seen].sort(), all, 'together the shards ran every test exactly once');

    const merged = await carrier(['report', 'shards', '--reporter', 'junit,json,html', '--out', 'merged'], tmp);
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    assert.match(merged.stdout, /Merged 3 reports: 16 tests: 16 passed, 0 failed, 0 skipped/);
    const report = JSON.parse(fs.readFileSync(path.join(tmp, 'merged/report.json'), 'utf8'));
    assert.deepEqual(report.tests.map((t: { id: string }) => t.id).sort(), all);
    assert.deepEqual(report.tests.map((t: { position: number }) => t.position), [...Array(16).keys()], 'in the order of the whole run');
    assert.equal(report.summary.total, 16);
    assert.equal(report.summary.passed, 16);
    assert.deepEqual(report.mergedFrom.map((m: { shard: { index: number } }) => m.shard.index), [1, 2, 3]);
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
    assert.match(merged.notes[0], /^1\.carrier\.json \[soap11\] \(.*suite\/loose\/1\.carrier\.json\) is in 2 reports \(a\/report\.json, b\/report\.json\); kept the result from b\/report\.json$/);
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
    assert.match(unknown.stderr, /^suite\/terminals\/1-find\.carrier\.json:\d+:\d+: error: \{\{zip\}\} has no value: zips\.csv has no column "zip" \(columns: name, zipcode, state\)/m);
    assert.match(unknown.stderr, /nothing was sent/);
    const missing = await carrier(['run', 'suite/plain', '--data', 'nowhere.csv'], tmp);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--data nowhere\.csv: no such file/);
    assert.equal(requests, before, 'nothing reached the service');
  });

  it('--data runs the files named on the command line once per row', async () => {
    repository();
    write('rows.json', [{ name: 'Lincoln', zip: '68507', state: 'NE' }, { name: 'Tampa', zip: '33635', state: 'FL' }]);
    const r = await carrier(['run', 'suite/terminals/1-find.carrier.json', '--data', 'rows.json', '--reporter', 'cli,json', '--out', 'd'], tmp);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✓ 1-find\.carrier\.json \[soap11\] \[row 1: Lincoln\]/);
    assert.match(r.stdout, /✓ 1-find\.carrier\.json \[soap11\] \[row 2: Tampa\]/);
    assert.match(r.stdout, /2 tests: 2 passed/);
  });
});
