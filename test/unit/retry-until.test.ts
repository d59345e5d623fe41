/**
 * A request file that waits (`retry`, docs/request-files.md#retry): over real HTTP against a
 * small 127.0.0.1 service that answers "pending" until its n-th request, the runner sends until
 * `until` holds and judges `expect` on the last reply; a wait that never holds fails with the
 * retry failure; a cancel ends the wait at once; mistakes in `retry` are located. No assertion
 * reads the clock: promptness is what a never-ending delay would break (mocha's timeout), and
 * the count of requests the service got.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import type { Exchange } from '../../src/core/exchange';
import { parseRequestFile } from '../../src/core/requestFile';
import { createRunBackend } from '../../src/core/runBackend';
import { compileExpectations, compileRequestFile, executePlan, loadRun, parseRunReport, type TestResult } from '../../src/core/runner';
import { jsonReport } from '../../src/core/runner/reporters/json';
import { relativeTo } from '../../src/core/runner/reporters/format';
import { retryUntil, sendFileUntil } from '../../src/core/runner/retryUntil';
import { send } from '../../src/core/send';
import { validateRequestText } from '../../src/core/validation/validate';
import { nodeContext } from '../../src/host';
import { environmentAt, soapReply, SOAP11_TYPE, startServer, tmpDir, type TestServer } from './transport-support';

const NS = DEFAULT_NAMESPACES;
const context = nodeContext();
after(() => context.http.close());

/** GetHazmatDescription's reply with one description: "pending" until the service is ready. */
function hazmatReply(description: string): string {
  return soapReply(
    '1.1',
    `<GetHazmatDescriptionResponse xmlns="${NS.service}" xmlns:d="${NS.data}"><GetHazmatDescriptionResult><UNNAList><UNorNA><d:Number>1203</d:Number><d:Description>${description}</d:Description><d:NOS>false</d:NOS></UNorNA></UNNAList></GetHazmatDescriptionResult></GetHazmatDescriptionResponse>`,
  );
}

/** A service that says "pending" to its first `pending` requests and "Gasoline" after. */
function readyAfter(pending: number): Promise<TestServer> {
  let n = 0;
  return startServer((_req, res) => {
    n++;
    res.writeHead(200, { 'content-type': SOAP11_TYPE });
    res.end(hazmatReply(n > pending ? 'Gasoline' : 'pending'));
  });
}

function requestFile(retry: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { operation: 'GetHazmatDescription', version: 'sandbox', environment: 'waiting', params: { UNNANumber: 'UN1203' }, retry, ...extra };
}

const UNTIL_READY = { reply: { 'UNNAList[0].Description': 'Gasoline' } };

describe('retry: a request file that waits until a condition holds', function () {
  this.timeout(20_000);
  let tmp: string;
  let server: TestServer | undefined;
  beforeEach(() => {
    tmp = tmpDir('carrier-retry-');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function run(file: Record<string, unknown>, signal?: AbortSignal): Promise<TestResult> {
    fs.writeFileSync(path.join(tmp, 'carrier.environments.json'), JSON.stringify({ waiting: { baseUrl: server!.url } }));
    fs.writeFileSync(path.join(tmp, 'wait.carrier.json'), JSON.stringify(file, null, 2));
    const plan = loadRun(context, [tmp], { baseDir: tmp, validate: (text, name) => validateRequestText(text, name).findings });
    assert.deepEqual(plan.problems, []);
    const backend = createRunBackend({ context, environmentsFrom: [tmp], apiKeys: { waiting: 'k' } });
    const report = await executePlan(plan, { backend, transcripts: true, ...(signal ? { signal } : {}) });
    return report.results[0];
  }

  it('sends until `until` holds (the third reply), passes, and keeps every attempt', async () => {
    server = await readyAfter(2);
    const result = await run(
      requestFile(
        { until: UNTIL_READY, attempts: 5, delayMs: 1 },
        { expect: { reply: { 'UNNAList[0].Number': '1203' } }, capture: { what: 'UNNAList[0].Description' } },
      ),
    );
    assert.equal(result.status, 'passed', JSON.stringify(result.failures));
    assert.equal(server.received.length, 3);
    const waited = result.untilAttempts!;
    assert.equal(waited.max, 5);
    assert.equal(waited.heldAt, 3);
    assert.deepEqual(
      waited.each.map((a) => [a.number, a.status, a.held]),
      [
        [1, 200, false],
        [2, 200, false],
        [3, 200, true],
      ],
    );
    assert.match(waited.each[0].note ?? '', /UNNAList\[0\]\.Description/);
    // The earlier attempts keep their transcripts; the last one's is the result's own.
    assert.match(waited.each[0].transcript!.reply!.body, /pending/);
    assert.equal(waited.each[2].transcript, undefined);
    assert.match(result.transcript!.reply!.body, /Gasoline/);
    assert.deepEqual(result.captured, { what: 'Gasoline' });

    // report.json says how the test waited, each send with its exchange, and a merge keeps it.
    const rel = relativeTo(tmp);
    const summary = { total: 1, passed: 1, failed: 0, skipped: 0, durationMs: 1, startedAt: '2026-01-01T00:00:00.000Z' };
    const json = jsonReport({ summary, results: [result], problems: [] }, rel);
    const written = (
      JSON.parse(json) as {
        tests: Array<{ waited: { max: number; heldAt: number; each: Array<{ number: number; held: boolean; exchange?: { reply?: { body: string } } }> } }>;
      }
    ).tests[0].waited;
    assert.equal(written.max, 5);
    assert.equal(written.heldAt, 3);
    assert.deepEqual(
      written.each.map((a) => [a.number, a.held]),
      [
        [1, false],
        [2, false],
        [3, true],
      ],
    );
    assert.match(written.each[0].exchange?.reply?.body ?? '', /pending/);
    const merged = parseRunReport(json, tmp);
    assert.ok('report' in merged, JSON.stringify(merged));
    assert.deepEqual(
      merged.report.results[0].untilAttempts?.each.map((a) => [a.number, a.held, a.tone]),
      waited.each.map((a) => [a.number, a.held, a.tone]),
    );
  });

  it('fails with the retry failure when `until` never holds, and judges `expect` on the last reply', async () => {
    server = await readyAfter(100);
    const result = await run(requestFile({ until: UNTIL_READY, attempts: 3, delayMs: 0 }, { expect: { reply: { 'UNNAList[0].Description': 'Diesel' } } }));
    assert.equal(result.status, 'failed');
    assert.equal(server.received.length, 3);
    const [waited, expected, ...rest] = result.failures;
    assert.deepEqual(rest, []);
    assert.equal(waited.kind, 'retry');
    assert.match(waited.message, /^retry\.until never held after 3 attempts \(last: .*UNNAList\[0\]\.Description.*pending/);
    assert.equal(waited.location?.line, 9);
    assert.equal(expected.kind, 'reply');
    assert.match(expected.message, /Diesel/);
    assert.equal(result.untilAttempts?.heldAt, undefined);
    assert.equal(result.untilAttempts?.each.length, 3);
  });

  it('stops waiting at once when the run is cancelled during a wait', async () => {
    const abort = new AbortController();
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': SOAP11_TYPE });
      // Cancelled once the first reply is on its way: the run is then waiting out a ten-minute delay.
      res.on('finish', () => setImmediate(() => abort.abort()));
      res.end(hazmatReply('pending'));
    });
    const result = await run(requestFile({ until: UNTIL_READY, attempts: 10, delayMs: 600_000 }), abort.signal);
    assert.equal(server.received.length, 1);
    assert.equal(result.status, 'failed');
    assert.ok(result.failures.some((f) => f.kind === 'retry' || f.kind === 'transport'));
  });

  it('retryUntil returns from a wait the moment its signal aborts, with the attempts made', async () => {
    server = await readyAfter(100);
    const environment = environmentAt(server.url);
    const request = parseRequestFile(JSON.stringify(requestFile(undefined)), 'wait.carrier.json').request!;
    const file = compileRequestFile(JSON.stringify(requestFile({ until: UNTIL_READY, attempts: 10, delayMs: 600_000 }), null, 2), 'wait.carrier.json');
    assert.deepEqual(file.problems, []);
    const abort = new AbortController();
    const order: string[] = [];
    const outcome = await retryUntil({
      retry: file.retry!,
      send: async (n) => {
        order.push(`send ${n}`);
        return send({ context, request, environment, apiKey: 'k' });
      },
      lookup: () => undefined,
      signal: abort.signal,
      onWait: (next) => {
        order.push(`wait before ${next}`);
        abort.abort();
      },
    });
    assert.deepEqual(order, ['send 1', 'wait before 2']);
    assert.equal(outcome.cancelled, true);
    assert.equal(outcome.attempts.length, 1);
    assert.equal(server.received.length, 1);
  });

  it('a send from the editor marks each attempt and judges `expect` on the last one only', async () => {
    server = await readyAfter(1);
    const environment = environmentAt(server.url);
    const text = JSON.stringify(requestFile({ until: UNTIL_READY, attempts: 4, delayMs: 0 }, { expect: { status: 200 } }), null, 2);
    const request = parseRequestFile(text, 'wait.carrier.json').request!;
    const seen: Exchange[] = [];
    const waits: string[] = [];
    const last = await sendFileUntil({
      text,
      fileName: 'wait.carrier.json',
      variables: {},
      secrets: [],
      send: () => send({ context, request, environment, apiKey: 'k', source: 'wait.carrier.json' }),
      onAttempt: (x) => void seen.push(x),
      onWait: (w) => void waits.push(`${w.attempt} of ${w.of}`),
    });
    assert.deepEqual(waits, ['2 of 4']);
    assert.deepEqual(
      seen.map((x) => [x.attempt?.number, x.attempt?.of, x.attempt?.last, x.attempt?.heldAt, x.judgement?.expectations?.passed]),
      [
        [1, 4, false, undefined, undefined],
        [2, 4, true, 2, true],
      ],
    );
    assert.equal(last, seen[1]);
    assert.deepEqual(
      last.attempt?.attempts.map((a) => [a.number, a.held, a.verdict]),
      [
        [1, false, '200 OK'],
        [2, true, '200 OK'],
      ],
    );
    assert.match(last.attempt!.until, /UNNAList\[0\]\.Description = "Gasoline"/);
  });
});

describe('retry: mistakes are located', () => {
  const problems = (retry: unknown) =>
    compileExpectations(JSON.stringify(requestFile(retry), null, 2), 'r.carrier.json').map((p) => `${p.location?.line}:${p.location?.column} ${p.message}`);

  it('wants `until`, and one that checks something', () => {
    assert.deepEqual(problems({ attempts: 3 }), [
      '8:12 retry.until is missing: say what must hold before the waiting ends, as in expect (e.g. "until": { "reply": { "Result.Status": "Delivered" } })',
    ]);
    assert.deepEqual(problems({ until: {} }), [
      '9:14 retry.until checks nothing, so it would hold at once; say what must hold (status, fault, success, messages, reply, documents)',
    ]);
  });

  it('checks `until` as expect is checked: reply paths against the catalog with did-you-mean, values, locations', () => {
    const [path] = problems({ until: { reply: { 'UNNAList[0].Descripton': 'x' } } });
    assert.match(path, /^11:9 retry\.until\.reply: "UNNAList\[0\]\.Descripton": .*did you mean Description\?/);
    assert.deepEqual(problems({ until: { status: 99 } }), ['10:17 retry.until.status must be an HTTP status code (100–599) or a list of them']);
    assert.deepEqual(problems({ until: { sucess: true } }), [
      '10:7 Unknown expectation "sucess" in retry.until; use status, fault, success, messages, maxMs, body, conforms, reply, documents',
    ]);
  });

  it('holds attempts, delays and backoff to their limits, and names an unknown key', () => {
    const until = UNTIL_READY;
    assert.deepEqual(problems({ until, attempts: 0 }), ['14:17 retry.attempts must be a whole number from 1 to 1000']);
    assert.deepEqual(problems({ until, attempts: 2.5 }), ['14:17 retry.attempts must be a whole number from 1 to 1000']);
    assert.deepEqual(problems({ until, delayMs: -1 }), ['14:16 retry.delayMs must be a whole number from 0 to 3600000 (milliseconds, at most an hour)']);
    assert.deepEqual(problems({ until, backoff: 0.5 }), ['14:16 retry.backoff must be a number from 1 to 10 (each wait is the last one times this)']);
    assert.deepEqual(problems({ until, delayMs: 1000, maxDelayMs: 10 }), ['15:5 retry.maxDelayMs (10) is below delayMs (1000): no wait could be that short']);
    assert.deepEqual(problems({ until, atempts: 3 }), ['14:5 retry: unknown key "atempts" — did you mean "attempts"?']);
  });

  it("a `retry` that is not an object is the reader's finding; a good one is none", () => {
    const text = JSON.stringify(requestFile(5), null, 2);
    const findings = validateRequestText(text, 'r.carrier.json').findings.filter((f) => f.severity === 'error');
    assert.deepEqual(
      findings.map((f) => [f.path, f.message]),
      [['retry', '"retry" must be an object: { "until": { …as in expect… }, "attempts": 10, "delayMs": 1000 }']],
    );
    assert.deepEqual(problems({ until: UNTIL_READY, attempts: 10, delayMs: 2000, backoff: 1.5, maxDelayMs: 10000 }), []);
  });
});
