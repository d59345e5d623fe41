/**
 * carrier load against a local server that holds each reply for a delay it chooses and records
 * (load-kit.ts): percentiles are checked against the delays the server injected, thresholds by
 * the exit code and the message that names them, a cancelled run by the report it still writes,
 * and memory by the size of what a long run keeps. Nothing here reads the clock.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { runLoadCommand } from '../../src/cli/commands/load';
import { decodeHistogram, type LoadReport } from '../../src/core';
import { captureIo, delayServer, loadFolder, type DelayServer } from './load-kit';

function readReport(dir: string): LoadReport {
  return JSON.parse(fs.readFileSync(path.join(dir, 'reports', 'load-report.json'), 'utf8')) as LoadReport;
}

/** The value at a percentile of recorded samples, by the nearest-rank rule HdrHistogram follows. */
function nearestRank(values: readonly number[], percentile: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((percentile / 100) * sorted.length) - 1)];
}

describe('carrier load: latencies against the delays a local server injected', function () {
  this.timeout(120_000);
  let server: DelayServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a fixed delay: every request the server held is measured, and p50 and the least are at least that delay', async () => {
    server = await delayServer(() => 40);
    dir = loadFolder(server.url);
    const c = captureIo(dir);
    const code = await runLoadCommand(['quotes', '--env', 'local', '--vus', '4', '--iterations', '40', '-r', 'json'], c.io);
    assert.equal(code, 0, c.err());
    const report = readReport(dir);
    assert.equal(report.overall.count, server.delays.length);
    assert.equal(report.overall.count, 40);
    assert.equal(report.overall.errors, 0, JSON.stringify(report.overall.errorClasses));
    const op = report.operations.find((o) => o.name === 'GetRateQuote')!;
    assert.equal(op.count, 40);
    // Node's timers may fire up to a millisecond before their time (they count whole milliseconds of the loop's clock).
    assert.ok(op.latency.minMs >= 39, `min ${op.latency.minMs}`);
    assert.ok(op.latency.p50Ms >= 40, `p50 ${op.latency.p50Ms}`);
    assert.ok(op.latency.p50Ms <= op.latency.p95Ms && op.latency.p95Ms <= op.latency.p99Ms && op.latency.p99Ms <= op.latency.maxMs);
    // The report's histogram is the operation's: decoded, it holds every exchange.
    assert.equal(decodeHistogram(op.histogram).totalCount, 40);
  });

  it('bimodal, 90% fast and 10% slow: p50 is among the fast replies, p99 among the slow', async () => {
    const fast = 2;
    const slow = 300;
    server = await delayServer((n) => (n % 10 === 9 ? slow : fast));
    dir = loadFolder(server.url);
    const c = captureIo(dir);
    const code = await runLoadCommand(['quotes', '--env', 'local', '--vus', '5', '--iterations', '200', '-r', 'json'], c.io);
    assert.equal(code, 0, c.err());
    const report = readReport(dir);
    const latency = report.operations[0].latency;
    assert.equal(server.delays.length, 200);
    // What the server held, at the same percentiles: the measured ones include it, and p50 stays below the slow mode.
    assert.equal(nearestRank(server.delays, 50), fast);
    assert.equal(nearestRank(server.delays, 99), slow);
    assert.ok(latency.p50Ms >= fast && latency.p50Ms < slow, `p50 ${latency.p50Ms}`);
    assert.ok(latency.p99Ms >= slow, `p99 ${latency.p99Ms}`);
    assert.ok(latency.p90Ms <= latency.p99Ms);
  });

  it('a crossed threshold exits 1 and is named with what was measured; held ones exit 0', async () => {
    server = await delayServer(() => 30);
    dir = loadFolder(server.url);
    const crossed = captureIo(dir);
    const code = await runLoadCommand(
      ['quotes', '--env', 'local', '--vus', '2', '--iterations', '10', '--threshold', 'GetRateQuote:p95<5ms', '--threshold', '*:errors<1%'],
      crossed.io,
    );
    assert.equal(code, 1);
    assert.match(crossed.err(), /threshold GetRateQuote:p95<5ms crossed \(\d+(\.\d+)? ms\)/);
    assert.doesNotMatch(crossed.err(), /errors<1%/);
    assert.match(crossed.out(), /✓ threshold \*:errors<1% held/);

    const held = captureIo(dir);
    const ok = await runLoadCommand(
      ['quotes', '--env', 'local', '--vus', '2', '--iterations', '10', '-r', 'cli,json', '--threshold', 'GetRateQuote:p50>=30ms', '--threshold', '*:errors<1%'],
      held.io,
    );
    assert.equal(ok, 0, held.err());
    const report = readReport(dir);
    assert.deepEqual(
      report.thresholds?.map((t) => [t.threshold, t.held]),
      [
        ['GetRateQuote:p50>=30ms', true],
        ['*:errors<1%', true],
      ],
    );
  });

  it('usage errors exit 2: a threshold that is no threshold, or names an operation the run does not send', async () => {
    server = await delayServer(() => 1);
    dir = loadFolder(server.url);
    for (const threshold of ['GetRateQuote:p95<<800ms', 'GetRateQuote:errors<5ms', 'TraceShipment:p95<1s']) {
      const c = captureIo(dir);
      await assert.rejects(runLoadCommand(['quotes', '--env', 'local', '--iterations', '1', '--threshold', threshold], c.io), { name: 'UsageError' });
    }
    assert.equal(server.delays.length, 0);
  });

  it('cancelled half way, it stops starting requests, waits for those in flight and still writes its report', async () => {
    server = await delayServer(() => 20);
    dir = loadFolder(server.url);
    const abort = new AbortController();
    server.onRequest = (n) => {
      if (n === 30) abort.abort();
    };
    const c = captureIo(dir);
    const code = await runLoadCommand(['quotes', '--env', 'local', '--vus', '3', '--duration', '10m', '-r', 'cli,json,html'], c.io, abort.signal);
    assert.equal(code, 0, c.err());
    const report = readReport(dir);
    assert.equal(report.cancelled, true);
    // Those in flight when it stopped were answered and measured; nothing was started after.
    assert.equal(report.overall.count, server.delays.length);
    assert.ok(server.delays.length >= 30 && server.delays.length <= 30 + 3, `${server.delays.length} requests`);
    assert.ok(fs.existsSync(path.join(dir, 'reports', 'load-report.html')));
    assert.match(c.out(), /\(cancelled\)/);
  });

  it('keeps histograms, not samples: 50,000 exchanges leave a report of a few kilobytes and the heap bounded', async function () {
    this.timeout(300_000);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    server = await delayServer(() => 0, { cache: true });
    dir = loadFolder(server.url);
    const run = async (iterations: number) => {
      const c = captureIo(dir!);
      // One interval for the whole run: the timeline's length is the run's length, not its count.
      const code = await runLoadCommand(['quotes', '--env', 'local', '--vus', '16', '--iterations', String(iterations), '-r', 'json'], c.io);
      assert.equal(code, 0, c.err());
      return fs.readFileSync(path.join(dir!, 'reports', 'load-report.json'), 'utf8');
    };
    const small = await run(1_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    const large = await run(50_000);
    gc();
    const after = process.memoryUsage().heapUsed;
    const report = JSON.parse(large) as LoadReport;
    assert.equal(report.overall.count, 50_000);
    assert.equal(server.delays.length, 51_000);
    // Apart from its timeline (one histogram per second of the run, however many exchanges), the
    // figures are histograms of buckets: a few kilobytes, where 50,000 samples written out would
    // be hundreds. A histogram grows only with the distinct buckets it fills, not its count.
    const figures = (text: string) => JSON.stringify({ ...(JSON.parse(text) as LoadReport), timeline: [] }).length;
    assert.ok(figures(large) < 32 * 1024, `${figures(large)} bytes (1,000 exchanges: ${figures(small)})`);
    assert.ok(large.length < 512 * 1024, `${large.length} bytes`);
    // 50,000 exchanges kept as objects would be hundreds of megabytes; histograms are a few.
    assert.ok(after - before < 64 * 1024 * 1024, `heap grew by ${after - before} bytes`);
  });
});
