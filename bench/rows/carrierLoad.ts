/**
 * Row — `carrier load` against a neutral load generator (issue 37): the built CLI as a whole
 * process (`node dist/cli.js load <folder> --vus 64 --duration 5s`, one GetRateQuote 1.0.3 test
 * file, each reply judged) against autocannon posting the same envelope bytes on 64 connections
 * for 5 s, interleaved, both against the bare node:http server of the sandbox-load row
 * (children/bareServer.js answering the sandbox's recorded reply), so that the server is not
 * what sets the pace. The rate is the server's count of replies from the first arrival to the
 * last reply, the same clock for both sides (each tool's start-up is not in it); the p99 is each
 * tool's own, carrier load's from load-report.json, autocannon's from the same microsecond
 * histogram (children/autocannon.js). An informational line puts raw undici (the prebuilt
 * envelope, nothing else) against autocannon the same way: the most a client built on undici,
 * as carrier load is, gets from this machine.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOAD_CONNECTIONS, LOAD_SECONDS, recordReply, runAutocannon, startBareServer, type BareServer } from '../fixtures/loadTarget';
import { BENCH_KEY, benchEnvironment, rateQuoteRequest, wireRequest } from '../fixtures/rateQuote';
import { RATE_QUOTE_ENVIRONMENT, writeRateQuoteFolder } from '../fixtures/rateQuoteFolder';
import { ROOT } from '../lib/child';
import { interleaveSamples, paired } from '../lib/interleave';
import { processCpuMs } from '../lib/processCpu';
import { atLeast, atMost, type BenchRow, type RowResult } from '../lib/row';
import { median } from '../lib/stats';

const CLI = path.join(ROOT, 'dist', 'cli.js');
/** Requests per run of the raw undici client: a few seconds of it. */
const RAW_REQUESTS = 40_000;

interface Measured {
  /** Replies per second as the bare server counted them. */
  readonly ratePerSecond: number;
  /** As the tool itself reports it. */
  readonly ownRatePerSecond: number;
  readonly p99Ms: number;
  /** The bare server's share of one core meanwhile (0–1). */
  readonly serverBusy: number;
}

/** `node <args>` to the end. */
function runNode(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`))));
  });
}

/** `carrier load` as a user runs it, to the end; its load-report.json. */
function carrierLoad(
  folder: string,
  out: string,
  cwd: string,
): Promise<{ overall: { count: number; errors: number; ratePerSecond: number; latency: { p99Ms: number } } }> {
  return new Promise((resolve, reject) => {
    const args = [
      CLI,
      'load',
      folder,
      '--vus',
      String(LOAD_CONNECTIONS),
      '--duration',
      `${LOAD_SECONDS}s`,
      '--env',
      RATE_QUOTE_ENVIRONMENT,
      '-r',
      'cli,json',
      '--out',
      out,
    ];
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CARRIER_API_KEY: BENCH_KEY } });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`carrier load exited ${code}: ${err.slice(-2000)}`));
      resolve(JSON.parse(fs.readFileSync(path.join(out, 'load-report.json'), 'utf8')));
    });
  });
}

export const carrierLoadRow: BenchRow = {
  id: 'carrier-load',
  title: 'carrier load against autocannon',
  async run(ctx) {
    if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
    let server: BareServer | undefined;
    try {
      const replyFile = path.join(ctx.tmp, 'reply.json');
      await recordReply(wireRequest(rateQuoteRequest(), benchEnvironment(ctx.sandboxUrl)), replyFile);
      const bare = (server = await startBareServer(replyFile));
      // One test file (status, success, a priced reply) and the envelope it sends, against the bare server.
      const folder = writeRateQuoteFolder(ctx.tmp, bare.url, 1);
      const out = path.join(ctx.tmp, 'reports');
      const measure = async (run: () => Promise<{ ownRatePerSecond: number; p99Ms: number }>): Promise<Measured> => {
        await bare.stats();
        const cpu0 = processCpuMs(bare.pid);
        const t0 = performance.now();
        const own = await run();
        const busy = (processCpuMs(bare.pid) - cpu0) / (performance.now() - t0);
        const counted = await bare.stats();
        return { ...own, ratePerSecond: counted.ratePerSecond, serverBusy: busy };
      };
      const ours = () =>
        measure(async () => {
          const report = await carrierLoad(folder.dir, out, ctx.tmp);
          if (report.overall.errors || !report.overall.count)
            throw new Error(`carrier load: ${report.overall.errors} errors in ${report.overall.count} exchanges`);
          return { ownRatePerSecond: report.overall.ratePerSecond, p99Ms: report.overall.latency.p99Ms };
        });
      const theirs = () =>
        measure(async () => {
          const run = await runAutocannon(folder.specFile);
          return { ownRatePerSecond: run.ok / run.seconds, p99Ms: run.p99Ms };
        });
      // At least 10 pairs, as the other rows read against a threshold.
      const s = await interleaveSamples(Math.max(ctx.runs, 10), ours, theirs);
      const rate = paired(
        s.a.map((r) => r.ratePerSecond),
        s.b.map((r) => r.ratePerSecond),
      );
      const p99 = paired(
        s.a.map((r) => r.p99Ms),
        s.b.map((r) => r.p99Ms),
      );
      // The floor of any client built on undici, as carrier load is: undici posting the prebuilt
      // envelope with 64 in flight and nothing else (children/runnerRawClient.js), against autocannon.
      const raw = await interleaveSamples(
        ctx.runs,
        () =>
          measure(async () => {
            await runNode([path.join(ROOT, 'bench', 'children', 'runnerRawClient.js'), folder.specFile, String(RAW_REQUESTS), String(LOAD_CONNECTIONS)]);
            return { ownRatePerSecond: NaN, p99Ms: NaN };
          }),
        theirs,
      );
      const floor = paired(
        raw.a.map((r) => r.ratePerSecond),
        raw.b.map((r) => r.ratePerSecond),
      );
      const tail = (runs: Measured[]) => `${median(runs.map((r) => r.p99Ms / ((LOAD_CONNECTIONS / r.ratePerSecond) * 1000))).toFixed(1)}×`;
      const own = (runs: Measured[]) => median(runs.map((r) => r.ownRatePerSecond)).toFixed(0);
      const busy = (runs: Measured[]) => `${(median(runs.map((r) => r.serverBusy)) * 100).toFixed(0)} %`;
      const measured = `\`carrier load --vus ${LOAD_CONNECTIONS} --duration ${LOAD_SECONDS}s\` of one GetRateQuote 1.0.3 SOAP 1.1 test file, whole process, vs autocannon (own process) posting the same envelope on ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s, both against a bare node:http server answering the sandbox's recorded reply`;
      const results: RowResult[] = [
        {
          id: 'carrier-load.rate',
          measured: `${measured}: replies per second as the server counted them`,
          a: { label: 'carrier load', value: rate.medianA, unit: 'req/s' },
          b: { label: 'autocannon', value: rate.medianB, unit: 'req/s' },
          ratio: rate.ratio,
          ratioText: 'carrier load / autocannon',
          target: atLeast(0.8),
          runs: rate.runs,
          samples: { a: rate.a, b: rate.b },
          note: `as each tool reports its rate: ${own(s.a)} vs ${own(s.b)} req/s; the bare server busy ${busy(s.a)} vs ${busy(s.b)} of a core`,
        },
        {
          id: 'carrier-load.p99',
          measured: `The same runs: p99 latency, carrier load's (load-report.json) vs autocannon's (microsecond histogram)`,
          a: { label: 'carrier load', value: p99.medianA, unit: 'ms' },
          b: { label: 'autocannon', value: p99.medianB, unit: 'ms' },
          ratio: p99.ratio,
          ratioText: 'carrier load / autocannon p99',
          target: atMost(1.1),
          runs: p99.runs,
          samples: { a: p99.a, b: p99.b },
          // A closed loop of 64 waits 64 ÷ rate on average (Little's law): a slower client has a
          // longer p99 whatever it adds itself. The p99 over that mean is the tail's own shape.
          note: `p99 over ${LOAD_CONNECTIONS} ÷ rate, the mean latency a closed loop of ${LOAD_CONNECTIONS} has at its rate: ${tail(s.a)} vs ${tail(s.b)}`,
        },
        {
          id: 'carrier-load.undici',
          measured: `Raw undici (children/runnerRawClient.js: the prebuilt envelope ${RAW_REQUESTS} times with ${LOAD_CONNECTIONS} in flight, nothing else) vs autocannon on ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s, the same bare server: what an undici client reaches at best (carrier load sends plain HTTP over its own lean dispatcher, src/host/leanDispatcher.ts, not undici), replies per second as the server counted them`,
          a: { label: 'raw undici', value: floor.medianA, unit: 'req/s' },
          b: { label: 'autocannon', value: floor.medianB, unit: 'req/s' },
          ratio: floor.ratio,
          ratioText: 'raw undici / autocannon',
          runs: floor.runs,
          samples: { a: floor.a, b: floor.b },
        },
      ];
      return results;
    } finally {
      await server?.close();
    }
  },
};
