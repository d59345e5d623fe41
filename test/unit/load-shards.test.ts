/**
 * carrier load --shard i/n and carrier report's merge of load reports (docs/load.md#many-machines):
 * two shards of one load against a local server (load-kit.ts) merge into the counts the server
 * saw and into the percentiles of one histogram over both shards' samples, added here by
 * decoding each shard's histogram; a shard missing, or of another load, makes the merge
 * incomplete and fails it. Counts only: nothing here reads the clock.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runLoadCommand } from '../../src/cli/commands/load';
import { report as reportCommand } from '../../src/cli/commands/report';
import {
  decodeHistogram,
  LoadRecorder,
  LOAD_REPORT_FORMAT,
  LOAD_REPORT_VERSION,
  mergeLoadShards,
  newHistogram,
  shareOf,
  summarize,
  type LoadReport,
} from '../../src/core';
import { captureIo, delayServer, loadFolder, type DelayServer } from './load-kit';

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as LoadReport;

describe('carrier load --shard and carrier report of load reports', function () {
  this.timeout(120_000);
  let server: DelayServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('users, iterations and arrivals are dealt round-robin: each in exactly one shard', () => {
    for (const total of [1, 2, 3, 7])
      for (const count of [7, 8, 41, 100]) {
        const shares = Array.from({ length: total }, (_, i) => shareOf(count, { index: i + 1, total }));
        assert.equal(
          shares.reduce((a, b) => a + b, 0),
          count,
        );
        assert.ok(Math.max(...shares) - Math.min(...shares) <= 1);
      }
  });

  it('two shards merge to the counts the server served and the percentiles of their pooled histograms; one alone is incomplete', async () => {
    server = await delayServer((n) => (n % 7 === 3 ? 25 : 2), { cache: true });
    dir = loadFolder(server.url);
    const args = (i: number) => [
      'quotes',
      '--env',
      'local',
      '--vus',
      '4',
      '--iterations',
      '41',
      '--shard',
      `${i}/2`,
      '--threshold',
      '*:max<60s',
      '-r',
      'json',
      '-o',
      `shard${i}`,
    ];
    const one = captureIo(dir);
    const two = captureIo(dir);
    const codes = await Promise.all([runLoadCommand(args(1), one.io), runLoadCommand(args(2), two.io)]);
    assert.deepEqual(codes, [0, 0], one.err() + two.err());
    const shards = [read(path.join(dir, 'shard1', 'load-report.json')), read(path.join(dir, 'shard2', 'load-report.json'))];
    assert.deepEqual(
      shards.map((s) => [s.shard, s.vus, s.iterations, s.overall.count]),
      [
        [{ index: 1, total: 2 }, 2, 21, 21],
        [{ index: 2, total: 2 }, 2, 20, 20],
      ],
    );
    // Every shard records the whole load alike.
    assert.deepEqual(shards[0].run, shards[1].run);
    assert.equal(shards[0].run?.options?.vus, 4);
    assert.deepEqual(shards[0].run?.files, ['quotes/get-rate-quote.carrier.json']);

    const merging = captureIo(dir);
    const code = await reportCommand.run(['shard1', 'shard2', '-o', 'merged', '-r', 'json,html'], merging.io);
    assert.equal(code, 0, merging.err());
    const merged = read(path.join(dir, 'merged', 'load-report.json'));
    assert.equal(merged.overall.count, server.delays.length);
    assert.equal(merged.overall.count, 41);
    assert.equal(merged.iterations, 41);
    assert.equal(merged.vus, 4);
    assert.equal(merged.incomplete, undefined);
    assert.deepEqual(merged.shards, [
      { index: 1, total: 2 },
      { index: 2, total: 2 },
    ]);
    // The load's threshold, judged again on the merged figures.
    assert.deepEqual(
      merged.thresholds?.map((t) => [t.threshold, t.held]),
      [['*:max<60s', true]],
    );
    // req/s over the longest shard's duration.
    const longest = Math.max(...shards.map((s) => s.durationMs));
    assert.equal(merged.durationMs, longest);
    assert.equal(merged.overall.ratePerSecond, Math.round((41 / (longest / 1000)) * 100) / 100);
    // One histogram over both shards' samples, added here bucket by bucket.
    for (const name of ['*', 'GetRateQuote']) {
      const pooled = newHistogram();
      for (const s of shards) pooled.add(decodeHistogram(name === '*' ? s.overall.histogram : s.operations.find((o) => o.name === name)!.histogram));
      const row = name === '*' ? merged.overall : merged.operations.find((o) => o.name === name)!;
      assert.equal(row.count, pooled.totalCount);
      assert.deepEqual(row.latency, summarize(pooled));
      for (const p of [50, 90, 95, 99, 99.9, 100]) assert.equal(decodeHistogram(row.histogram).getValueAtPercentile(p), pooled.getValueAtPercentile(p));
    }

    const alone = captureIo(dir);
    assert.equal(await reportCommand.run(['shard1', '-o', 'alone'], alone.io), 1);
    assert.match(alone.err(), /shard 2\/2 missing/);
    const incomplete = read(path.join(dir, 'alone', 'load-report.json'));
    assert.equal(incomplete.incomplete, true);
    assert.deepEqual(
      incomplete.incompleteReasons?.map((r) => [r.kind, r.shard]),
      [['missing-shard', 2]],
    );
    const html = fs.readFileSync(path.join(dir, 'alone', 'load-report.html'), 'utf8');
    assert.match(html, /<section class="incomplete" role="alert">.*shard 2\/2 missing/s);
    assert.match(html, /<header class="summary failed">/);
  });

  it('a shard of another load (other options) or given twice makes the merge incomplete; thresholds are judged on the merged figures', () => {
    const shard = (index: number, latencies: number[], vus = 4): LoadReport => {
      const recorder = new LoadRecorder(1000);
      latencies.forEach((ms, i) => recorder.record('GetRateQuote', ms, i, undefined));
      return {
        format: LOAD_REPORT_FORMAT,
        version: LOAD_REPORT_VERSION,
        startedAt: '2026-01-01T00:00:00.000Z',
        durationMs: 1000 * index,
        model: 'closed',
        vus: 2,
        rampMs: 0,
        iterations: latencies.length,
        environments: ['sandbox'],
        shard: { index, total: 2 },
        run: { catalog: 'c', files: ['a.carrier.json'], filesHash: 'h', options: { vus, thresholds: ['GetRateQuote:p50<10ms'], shards: 2 } },
        ...recorder.finish(1000 * index),
      };
    };
    // Each shard alone holds p50 < 10 ms; together they do not.
    const whole = mergeLoadShards([
      { file: 'a', report: shard(1, [1, 2, 3, 4, 50, 50]) },
      { file: 'b', report: shard(2, [1, 50, 50, 50, 50]) },
    ]);
    assert.equal(whole.incomplete, undefined);
    assert.equal(whole.thresholds?.[0].held, false);
    assert.equal(whole.overall.ratePerSecond, 5.5);

    const other = mergeLoadShards([
      { file: 'a', report: shard(1, [1]) },
      { file: 'b', report: shard(2, [1], 8) },
      { file: 'c', report: shard(1, [1]) },
    ]);
    assert.equal(other.incomplete, true);
    const kinds = other.incompleteReasons!.map((r) => r.kind).sort();
    assert.deepEqual(kinds, ['duplicate-shard', 'run-differs']);
    assert.match(other.incompleteReasons!.find((r) => r.kind === 'run-differs')!.message, /^b \(shard 2\/2\) is of another load: vus 8 here, 4 in the others/);
  });
});
