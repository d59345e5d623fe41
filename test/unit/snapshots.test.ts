/**
 * Reply snapshots (docs/collections.md#snapshots) through `carrier run`, over real HTTP: the
 * embedded sandbox for a bill of lading, whose PRO, BOL id and dates are new on every send, and
 * a local service answering crafted GetTerminalInformation replies for the differences: a value
 * changed, a field added, a list reordered, each failing at its reply path; `snapshot.ignore`
 * masking a path; a bad ignore path refused at its line and column. A missing snapshot is
 * written and said so; under --ci (or CI=true) it fails.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/dispatch';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import type { Exchange } from '../../src/core/exchange';
import { parseRunReport } from '../../src/core/runner';
import { judgeSnapshot, snapshotText } from '../../src/core/runner/snapshot';
import { nodeFiles } from '../../src/host';
import type { SandboxHandle } from '../../src/sandbox/options';
import { startSandbox } from '../../src/sandbox/server';

const API_KEY = 'Zr4vQt8LpN2xWm6KsB1yHc9JfD3gTa7VeU0oPi5lMkRqXwYnAb';

interface Terminal {
  id: number;
  name: string;
  state: string;
  created: string;
  /** An element the contract does not know, when a test adds one. */
  extra?: string;
}

function terminalReply(terminals: readonly Terminal[]): string {
  const info = terminals
    .map(
      (t) =>
        `<TerminalInfo><TerminalDetails xmlns="${DEFAULT_NAMESPACES.data}"><TerminalDetailID>${t.id}</TerminalDetailID><TerminalName>${t.name}</TerminalName>` +
        `<TerminalMailingState>${t.state}</TerminalMailingState><DateCreated>${t.created}</DateCreated></TerminalDetails>` +
        `${t.extra ? `<TerminalPhoneNumbers xmlns="${DEFAULT_NAMESPACES.data}"><TerminalPhone><Number>${t.extra}</Number></TerminalPhone></TerminalPhoneNumbers>` : ''}</TerminalInfo>`,
    )
    .join('\n    ');
  // Another prefix and other whitespace each time a test asks: neither is part of the reply.
  return `<?xml version="1.0" encoding="utf-8"?>
<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>
<GetTerminalInformationResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetTerminalInformationResult><Result>
    ${info}
</Result></GetTerminalInformationResult></GetTerminalInformationResponse></s:Body></s:Envelope>`;
}

const LINCOLN: Terminal = { id: 17, name: 'Lincoln', state: 'NE', created: '2026-01-05T08:00:00' };
const OMAHA: Terminal = { id: 18, name: 'Omaha', state: 'NE', created: '2026-01-06T08:00:00' };

describe('carrier run: reply snapshots', function () {
  this.timeout(60_000);
  let server: http.Server;
  let work: string;
  let reply = terminalReply([LINCOLN, OMAHA]);

  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
        res.end(reply);
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
    reply = terminalReply([LINCOLN, OMAHA]);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshots-'));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fs.writeFileSync(path.join(work, 'carrier.environments.json'), JSON.stringify({ local: { baseUrl } }));
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  function terminalFile(extra: Record<string, unknown> = {}): string {
    const file = path.join(work, 'suite', 'terminals.carrier.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify(
        { operation: 'GetTerminalInformation', version: '1.0.2', environment: 'local', params: { ZipCode: '68507', CountryCode: 'USA' }, ...extra },
        null,
        2,
      ),
    );
    return file;
  }

  async function carrier(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
      cwd: work,
      env: { CARRIER_API_KEY: API_KEY, NO_COLOR: '1', ...env },
    });
    return { code, out, err };
  }

  const snap = (name: string) => path.join(work, 'suite', '__snapshots__', name);
  const TERMINALS = 'terminals.carrier.json.soap11.snap';

  it('writes a missing snapshot and says so; --ci or CI=true fails on one instead', async () => {
    terminalFile({ snapshot: true });
    const ci = await carrier(['run', 'suite', '--ci']);
    assert.equal(ci.code, 1, ci.out + ci.err);
    assert.match(ci.out, /no snapshot .*terminals\.carrier\.json\.soap11\.snap: in CI a missing snapshot fails/);
    assert.equal(fs.existsSync(snap(TERMINALS)), false);
    const envCi = await carrier(['run', 'suite'], { CI: 'true' });
    assert.equal(envCi.code, 1, envCi.out + envCi.err);

    const first = await carrier(['run', 'suite']);
    assert.equal(first.code, 0, first.out + first.err);
    assert.match(first.out, /Snapshot written: suite\/__snapshots__\/terminals\.carrier\.json\.soap11\.snap/);
    assert.match(first.out, /Snapshots: 1 written/);
    const text = fs.readFileSync(snap(TERMINALS), 'utf8');
    assert.match(text, /^# Carrier snapshot: GetTerminalInformation 1\.0\.2 over soap11, terminals\.carrier\.json\n/);
    assert.match(text, /\nResult = \[2 items\]\nResult\[0\]\.TerminalDetails\.TerminalDetailID = 17\nResult\[0\]\.TerminalDetails\.TerminalName = "Lincoln"\n/);
    assert.match(text, /\nResult\[0\]\.TerminalDetails\.DateCreated = <dateTime>\n/);

    const again = await carrier(['run', 'suite', '--ci']);
    assert.equal(again.code, 0, again.out + again.err);
    assert.match(again.out, /Snapshots: 1 matched/);
    assert.equal(fs.readFileSync(snap(TERMINALS), 'utf8'), text, 'a snapshot that matches is not rewritten');
  });

  it('--update-snapshots writes the reply of a file that says nothing; later runs compare with it', async () => {
    terminalFile();
    const plain = await carrier(['run', 'suite']);
    assert.equal(plain.code, 0);
    assert.doesNotMatch(plain.out, /Snapshot/, 'no snapshot asked for, none kept: none written');
    const update = await carrier(['run', 'suite', '--update-snapshots']);
    assert.equal(update.code, 0, update.out + update.err);
    assert.match(update.out, /Snapshot written: /);
    reply = terminalReply([LINCOLN, { ...OMAHA, name: 'Omaha North' }]);
    const r = await carrier(['run', 'suite']);
    assert.equal(r.code, 1, 'a kept snapshot is compared whether or not the file asks');
    assert.match(r.out, /Result\[1\]\.TerminalDetails\.TerminalName: snapshot "Omaha", reply "Omaha North"/);
    const accepted = await carrier(['run', 'suite', '--update-snapshots']);
    assert.equal(accepted.code, 0);
    assert.match(accepted.out, /Snapshot updated: /);
    assert.equal((await carrier(['run', 'suite'])).code, 0);
  });

  it('dates, another prefix and other whitespace pass; a changed value, an added field and a reordered list fail at their paths', async () => {
    terminalFile({ snapshot: true });
    assert.equal((await carrier(['run', 'suite'])).code, 0);

    reply = terminalReply([
      { ...LINCOLN, created: '2027-03-09T17:45:00' },
      { ...OMAHA, created: '2027-03-10T06:00:00' },
    ])
      .replace(/(<\/?)s:/g, '$1soapenv:')
      .replace('xmlns:s=', 'xmlns:soapenv=')
      .replace(/\n {4}/g, '\n');
    const dates = await carrier(['run', 'suite']);
    assert.equal(dates.code, 0, dates.out + dates.err);

    reply = terminalReply([LINCOLN, { ...OMAHA, state: 'IA' }]);
    const changed = await carrier(['run', 'suite', '-r', 'cli,junit,json', '-o', 'out']);
    assert.equal(changed.code, 1);
    assert.match(changed.out, /Result\[1\]\.TerminalDetails\.TerminalMailingState: snapshot "NE", reply "IA"/);
    assert.match(changed.out, /A snapshot that differs fails its test/);
    const junit = fs.readFileSync(path.join(work, 'out', 'junit.xml'), 'utf8');
    assert.match(
      junit,
      /<failure message="Result\[1\]\.TerminalDetails\.TerminalMailingState: snapshot &quot;NE&quot;, reply &quot;IA&quot;" type="snapshot">/,
    );
    const reportText = fs.readFileSync(path.join(work, 'out', 'report.json'), 'utf8');
    const json = JSON.parse(reportText) as {
      tests: Array<{ failures: Array<{ kind: string; path?: string; expected?: string; actual?: string }>; snapshot?: { file: string; status: string } }>;
    };
    assert.deepEqual(
      json.tests[0].failures.map((f) => [f.kind, f.path, f.expected, f.actual]),
      [['snapshot', 'Result[1].TerminalDetails.TerminalMailingState', '"NE"', '"IA"']],
    );
    assert.equal(json.tests[0].snapshot?.status, 'differs');
    assert.match(json.tests[0].snapshot?.file ?? '', /__snapshots__\/.+\.snap$/);
    // The reply's new snapshot text is the editor's to offer (judgeSnapshot below), never the report's.
    assert.deepEqual(Object.keys(json.tests[0].snapshot ?? {}), ['file', 'status']);
    // carrier report keeps what became of the snapshot.
    const merged = parseRunReport(reportText, work);
    assert.ok('report' in merged);
    assert.equal(merged.report.results[0].snapshot?.status, 'differs');

    reply = terminalReply([LINCOLN, { ...OMAHA, extra: '402-555-0100' }]);
    const added = await carrier(['run', 'suite']);
    assert.equal(added.code, 1);
    assert.match(added.out, /Result\[1\]\.TerminalPhoneNumbers: in the reply \(\[1 item\]\), not in the snapshot/);

    reply = terminalReply([OMAHA, LINCOLN]);
    const reordered = await carrier(['run', 'suite']);
    assert.equal(reordered.code, 1);
    assert.match(reordered.out, /Result: the same 2 items in another order \(snapshot item 0 is reply item 1, snapshot item 1 is reply item 0\)/);
    assert.doesNotMatch(reordered.out, /TerminalName: snapshot/, 'a reordered list is said once, not item by item');

    reply = terminalReply([LINCOLN, OMAHA, { ...OMAHA, id: 19, name: 'Grand Island' }]);
    const grown = await carrier(['run', 'suite']);
    assert.equal(grown.code, 1);
    assert.match(grown.out, /Result: snapshot 2 items, reply 3/);
    assert.match(grown.out, /Result\[2\]: in the reply, not in the snapshot/);
  });

  it('snapshot.ignore masks a path; a path the reply cannot have is a located error', async () => {
    terminalFile({ snapshot: { ignore: ['Result[*].TerminalDetails.TerminalMailingState'] } });
    assert.equal((await carrier(['run', 'suite'])).code, 0);
    assert.match(fs.readFileSync(snap(TERMINALS), 'utf8'), /\nResult\[1\]\.TerminalDetails\.TerminalMailingState = <ignored>\n/);
    reply = terminalReply([LINCOLN, { ...OMAHA, state: 'IA' }]);
    const masked = await carrier(['run', 'suite']);
    assert.equal(masked.code, 0, masked.out + masked.err);

    const file = terminalFile({ snapshot: { ignore: ['Result[*].TerminalDetails.TerminalMailingStat'] } });
    const bad = await carrier(['run', 'suite']);
    assert.equal(bad.code, 2, bad.out + bad.err);
    const line = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('TerminalMailingStat"'));
    assert.match(
      bad.err,
      new RegExp(
        `suite/terminals\\.carrier\\.json:${line + 1}:\\d+: error: snapshot\\.ignore: "Result\\[\\*\\]\\.TerminalDetails\\.TerminalMailingStat": the GetTerminalInformation 1\\.0\\.2 reply has no TerminalMailingStat in Result\\[\\*\\]\\.TerminalDetails; did you mean TerminalMailingState\\?`,
      ),
    );
    terminalFile({ snapshot: { ignore: ['Result[-1].TerminalDetails'] } });
    assert.match((await carrier(['run', 'suite'])).err, /snapshot\.ignore: "Result\[-1\]\.TerminalDetails": a negative index/);
  });

  it('a bill of lading and its PDF from the sandbox, with a new PRO, BOL id, dates and PDF bytes on every send, match their snapshots', async () => {
    const folder = path.join(work, 'bol');
    fs.mkdirSync(folder, { recursive: true });
    const example = fs.readFileSync(path.join(__dirname, '../../examples/bill-of-lading/create-bill-of-lading.carrier.json'), 'utf8');
    fs.writeFileSync(path.join(folder, '1-create.carrier.json'), example.replace(/^\{/, '{\n  "snapshot": true,\n  "capture": { "bolId": "BolID" },'));
    fs.writeFileSync(
      path.join(folder, '2-pdf.carrier.json'),
      JSON.stringify({ operation: 'GetBillOfLadingPdf', version: 'sandbox', snapshot: true, params: { billOfLadingId: '{{bolId}}' } }),
    );
    const first = await carrier(['run', 'bol']);
    assert.equal(first.code, 0, first.out + first.err);
    assert.match(first.out, /Snapshots: 2 written/);
    const created = fs.readFileSync(path.join(folder, '__snapshots__', '1-create.carrier.json.soap11.snap'), 'utf8');
    assert.match(created, /\nBolID = <volatile>\nBillOfLading\.BOLDate = <date>\n/);
    assert.match(created, /\nWebProNumber = <volatile>\n/);
    const pdf = fs.readFileSync(path.join(folder, '__snapshots__', '2-pdf.carrier.json.soap11.snap'), 'utf8');
    assert.match(pdf, / = <document: pdf, \d+ pages?>\n/, 'the PDF is kept as its type and page count');
    const second = await carrier(['run', 'bol', '--ci']);
    assert.equal(second.code, 0, second.out + second.err);
    assert.match(second.out, /Snapshots: 2 matched/);
  });
});

describe('judgeSnapshot: a difference carries the reply', () => {
  let work: string;
  beforeEach(() => (work = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-judge-'))));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  // Only what a snapshot reads of an exchange: the parsed reply and its shape.
  const exchange = (name: string) =>
    ({
      operation: 'GetTerminalInformation',
      version: '1.0.2',
      documents: [],
      parsed: { Result: [{ TerminalDetails: { TerminalDetailID: 17, TerminalName: name } }] },
    }) as unknown as Exchange;

  it("gives a differing snapshot's outcome the reply's own snapshot text, for the editor's Accept; written and matched carry none", () => {
    const file = path.join(work, '__snapshots__', 'terminals.carrier.json.soap11.snap');
    const input = { files: nodeFiles, file, title: 'GetTerminalInformation 1.0.2 over soap11, terminals.carrier.json' };
    assert.deepEqual(judgeSnapshot(exchange('Lincoln'), input, false).outcome, { file, status: 'written' });
    const judged = judgeSnapshot(exchange('Omaha'), input, false);
    assert.equal(judged.outcome?.status, 'differs');
    assert.equal(judged.outcome?.text, snapshotText(exchange('Omaha'), input.title));
    assert.match(judged.failures[0].message, /^Result\[0\]\.TerminalDetails\.TerminalName: snapshot "Lincoln", reply "Omaha"$/);
    assert.match(fs.readFileSync(file, 'utf8'), /TerminalName = "Lincoln"/, 'a difference is not written');
    assert.deepEqual(judgeSnapshot(exchange('Lincoln'), input, false).outcome, { file, status: 'matched' });
  });

  it("writes the run's own values as their names: a reply echoing PO-{{run.id}} matches on the next run", () => {
    const file = path.join(work, '__snapshots__', 'echo.carrier.json.soap11.snap');
    const title = 'GetTerminalInformation 1.0.2 over soap11, echo.carrier.json';
    const first = { files: nodeFiles, file, title, runValues: { 'run.id': '37c5c736', 'run.today': '11/29/2026' } };
    assert.equal(judgeSnapshot(exchange('Terminal PO-37c5c736'), first, false).outcome?.status, 'written');
    assert.match(fs.readFileSync(file, 'utf8'), /TerminalName = "Terminal PO-\{\{run\.id\}\}"/);
    const next = { ...first, runValues: { 'run.id': '6b0fc8ab', 'run.today': '11/30/2026' } };
    assert.equal(judgeSnapshot(exchange('Terminal PO-6b0fc8ab'), next, false).outcome?.status, 'matched');
    // Another value is a difference still.
    assert.equal(judgeSnapshot(exchange('Terminal PO-00000000'), next, false).outcome?.status, 'differs');
  });
});

describe('carrier run: the example rate quotes against a carrier whose tariff changed', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let proxy: http.Server;
  let work: string;
  /** Cents added to every charge the carrier quotes: its tariff going up. */
  let raise = 0;

  before(async () => {
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1', apiKeys: [API_KEY] });
    // In front of the sandbox: every <Amount> (and NetCharge) raised by `raise` cents, nothing else changed.
    proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([n]) => n !== 'host' && n !== 'content-length')) as Record<string, string>;
        const answer = await fetch(`${sandbox.url}${req.url}`, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
        let text = await answer.text();
        if (raise)
          text = text.replace(/<((?:\w+:)?(?:Amount|NetCharge))>(-?)\$([\d,]+)\.(\d\d)</g, (_m, tag: string, minus: string, dollars: string, cents: string) => {
            const value = Number(dollars.replace(/,/g, '')) * 100 + Number(cents) + raise;
            return `<${tag}>${minus}$${Math.floor(value / 100).toLocaleString('en-US')}.${String(value % 100).padStart(2, '0')}<`;
          });
        res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'text/xml' });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await sandbox.close();
  });
  beforeEach(() => {
    raise = 0;
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshots-tariff-'));
    fs.cpSync(path.join(__dirname, '..', '..', 'examples', 'collections', 'rate-quotes-across-versions'), path.join(work, 'quotes'), { recursive: true });
    const baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    fs.writeFileSync(path.join(work, 'carrier.environments.json'), JSON.stringify({ carrier: { baseUrl } }));
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  async function run(args: string[]): Promise<{ code: number; out: string }> {
    let out = '';
    const code = await runCli(['run', 'quotes', '--env', 'carrier', ...args], {
      stdout: (t) => void (out += t),
      stderr: (t) => void (out += t),
      cwd: work,
      env: { CARRIER_API_KEY: API_KEY, NO_COLOR: '1' },
    });
    return { code, out };
  }

  it('written once, matched on the next run, and a raised tariff fails with the charges by path', async () => {
    const first = await run(['--update-snapshots']);
    assert.equal(first.code, 0, first.out);
    assert.match(first.out, /Snapshots: \d+ written/);
    const again = await run(['--ci']);
    assert.equal(again.code, 0, again.out);
    assert.doesNotMatch(again.out, /differs/);
    raise = 100;
    const raised = await run(['--ci']);
    assert.equal(raised.code, 1, raised.out);
    assert.match(raised.out, /Result\.Charges\[\d+\]\.Amount: snapshot "\$[\d,.]+", reply "\$[\d,.]+"/);
    assert.match(raised.out, /ServiceLevels\[\d+\]\.NetCharge: snapshot/);
  });
});
