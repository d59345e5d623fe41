/**
 * Row — the runner at the speed of the wire: a whole `carrier run` process (the built CLI, 2,000
 * GetRateQuote 1.0.3 test files at -c 16, writing the JSON and JUnit reports as a CI job does)
 * against a whole process of undici posting the same envelope bytes 2,000 times at 16,
 * interleaved, both against a sandbox in its own process. Each side reports its own CPU time and
 * peak RSS (children/runnerUsage.js); the sandbox's CPU is read from /proc, so a reader can tell
 * when the server, not the client, sets the pace.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BENCH_KEY } from '../fixtures/rateQuote';
import { RATE_QUOTE_ENVIRONMENT, writeRateQuoteFolder } from '../fixtures/rateQuoteFolder';
import { ROOT } from '../lib/child';
import { interleaveSamples, paired } from '../lib/interleave';
import { processCpuMs } from '../lib/processCpu';
import { atLeast, atMost, type BenchRow, type RowResult } from '../lib/row';
import { startSandboxChild } from '../lib/sandboxChild';
import { median, pairedRatio } from '../lib/stats';

const REQUESTS = 2000;
const CONCURRENCY = 16;
/** A large suite's run, for peak memory: it must stay within RSS_BUDGET_MB. */
const LARGE_SUITE = 10_000;
const RSS_BUDGET_MB = 150;
/** Whole runs of the large suite: memory varies little, and each takes several seconds. */
const LARGE_RUNS = 4;
const USAGE = path.join(ROOT, 'bench', 'children', 'runnerUsage.js');
const CLI = path.join(ROOT, 'dist', 'cli.js');

interface ProcessRun {
  readonly seconds: number;
  readonly cpuMs: number;
  readonly peakRssMb: number;
  /** CPU the sandbox spent meanwhile. */
  readonly serverCpuMs: number;
}

function runProcess(args: readonly string[], cwd: string, usageFile: string, env: NodeJS.ProcessEnv, serverPid: number): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    fs.rmSync(usageFile, { force: true });
    const server0 = processCpuMs(serverPid);
    const t = performance.now();
    const child = spawn(process.execPath, ['-r', USAGE, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env, CARRIER_BENCH_USAGE: usageFile },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = (performance.now() - t) / 1000;
      if (code !== 0) return reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      const usage = JSON.parse(fs.readFileSync(usageFile, 'utf8')) as { cpuMs: number; peakRssMb: number };
      resolve({ seconds, ...usage, serverCpuMs: processCpuMs(serverPid) - server0 });
    });
  });
}

export const runnerThroughput: BenchRow = {
  id: 'runner-throughput',
  title: 'Runner throughput against the raw client',
  async run(ctx) {
    if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
    const sandbox = await startSandboxChild('children/sandbox.ts');
    try {
      const folder = writeRateQuoteFolder(ctx.tmp, sandbox.url, REQUESTS);
      const runFolder = (dir: string) =>
        runProcess(
          // As a CI job runs it: the JSON and JUnit reports written, start-up and exit included.
          [CLI, 'run', dir, '-c', String(CONCURRENCY), '--env', RATE_QUOTE_ENVIRONMENT, '--reporter', 'json,junit', '--out', path.join(ctx.tmp, 'reports')],
          ctx.tmp,
          path.join(ctx.tmp, 'usage-runner.json'),
          { CARRIER_API_KEY: BENCH_KEY },
          sandbox.pid,
        );
      const ours = () => runFolder(folder.dir);
      const theirs = () =>
        runProcess(
          [path.join(ROOT, 'bench', 'children', 'runnerRawClient.js'), folder.specFile, String(REQUESTS), String(CONCURRENCY)],
          ctx.tmp,
          path.join(ctx.tmp, 'usage-raw.json'),
          {},
          sandbox.pid,
        );
      // At least 10 pairs: on two shared cores one pair moves by ±5 %, and this row's verdict is
      // read against a threshold.
      const { a: runner, b: raw } = await interleaveSamples(Math.max(ctx.runs, 10), ours, theirs);
      const p = paired(
        runner.map((r) => REQUESTS / r.seconds),
        raw.map((r) => REQUESTS / r.seconds),
      );
      const perRequest = (runs: ProcessRun[], pick: (r: ProcessRun) => number) => median(runs.map((r) => pick(r) / REQUESTS));
      const cpu = { runner: perRequest(runner, (r) => r.cpuMs), raw: perRequest(raw, (r) => r.cpuMs) };
      const server = { runner: perRequest(runner, (r) => r.serverCpuMs), raw: perRequest(raw, (r) => r.serverCpuMs) };
      const rssPer1000 = median(runner.map((r) => r.peakRssMb / (REQUESTS / 1000)));
      const cpuRatio = pairedRatio(
        runner.map((r) => r.cpuMs),
        raw.map((r) => r.cpuMs),
      );
      // The large suite after the timed pairs, against the same sandbox: its folder has an
      // environments file of its own, so it goes in a folder of its own.
      const large = writeRateQuoteFolder(path.join(ctx.tmp, 'large-suite'), sandbox.url, LARGE_SUITE);
      const largePeaks: number[] = [];
      for (let i = 0; i < LARGE_RUNS; i++) largePeaks.push((await runFolder(large.dir)).peakRssMb);
      const results: RowResult[] = [
        {
          id: 'runner-throughput.c16',
          measured: `\`carrier run\` of ${REQUESTS} GetRateQuote 1.0.3 SOAP 1.1 test files at -c ${CONCURRENCY} with the JSON and JUnit reports, whole process, vs an undici script posting the same envelope ${REQUESTS} times at ${CONCURRENCY}`,
          a: { label: 'carrier run', value: p.medianA, unit: 'req/s' },
          b: { label: 'raw undici', value: p.medianB, unit: 'req/s' },
          ratio: p.ratio,
          ratioText: 'run / raw',
          // Within a tenth of the wire: whole process, start-up and reports included.
          target: atLeast(0.9),
          runs: p.runs,
          samples: { a: p.a, b: p.b },
          note: `client CPU per request ${cpu.runner.toFixed(3)} ms vs ${cpu.raw.toFixed(3)} ms; sandbox CPU per request ${server.runner.toFixed(3)} / ${server.raw.toFixed(3)} ms; runner peak RSS ${rssPer1000.toFixed(1)} MB per 1,000 requests`,
        },
        {
          id: 'runner-throughput.cpu',
          measured: 'Client CPU per request (process.cpuUsage of each whole process, start-up included): carrier run vs the undici script',
          a: { label: 'carrier run', value: cpu.runner, unit: 'ms' },
          b: { label: 'raw undici', value: cpu.raw, unit: 'ms' },
          ratio: cpuRatio,
          ratioText: 'run / raw',
          target: atMost(1.2),
          runs: p.runs,
          samples: { a: runner.map((r) => r.cpuMs), b: raw.map((r) => r.cpuMs) },
        },
        {
          id: 'runner-throughput.rss',
          measured: `Peak RSS of a whole \`carrier run\` of ${LARGE_SUITE.toLocaleString('en-US')} GetRateQuote test files at -c ${CONCURRENCY} with the JSON and JUnit reports vs the ${RSS_BUDGET_MB} MB budget`,
          a: { label: 'carrier run', value: median(largePeaks), unit: 'MB' },
          b: { label: 'budget', value: RSS_BUDGET_MB, unit: 'MB' },
          ratio: median(largePeaks) / RSS_BUDGET_MB,
          ratioText: 'peak / budget',
          target: atMost(1),
          runs: LARGE_RUNS,
          samples: { a: largePeaks, b: largePeaks.map(() => RSS_BUDGET_MB) },
        },
      ];
      return results;
    } finally {
      await sandbox.close();
    }
  },
};
