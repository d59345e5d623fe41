/**
 * Row 3 — a 1,000-request collection with a status check on each: `carrier run`'s engine against
 * newman, both in this process through their node APIs, one request at a time (newman's only
 * mode). Each run starts from the files — ours loads and validates the 1,000 request files,
 * newman reads its collection — and ends when the last check has been judged.
 */
import * as newman from 'newman';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRunBackend, executePlan, loadRun, validateRequestText, type CoreContext } from '../../src/core';
import { nodeContext } from '../../src/host';
import { BENCH_KEY, ENVIRONMENT, writeCollection, type BenchCollection } from '../fixtures/collection';
import { interleave } from '../lib/interleave';
import { pairedRatio } from '../lib/stats';
import { atLeast, type BenchRow } from '../lib/row';

const REQUESTS = 1000;
/** A warm-up run of each on a small collection: loads newman's modules and JIT-compiles ours. */
const WARM_UP = 40;

/** `context` is the row's: one set of pooled dispatchers for every run, as one `carrier run` process has. */
async function ours(context: CoreContext, c: BenchCollection): Promise<number> {
  const t0 = performance.now();
  // As `carrier run` validates (src/cli/commands/run.ts): through the context, so a stored contract is looked for.
  const plan = loadRun(context, [c.requests], { baseDir: c.dir, validate: (text, fileName) => validateRequestText(text, fileName, { context }).findings });
  const backend = createRunBackend({ context, environmentsFrom: [c.dir] });
  try {
    const report = await executePlan(plan, { backend, environment: ENVIRONMENT, concurrency: 1 });
    const seconds = (performance.now() - t0) / 1000;
    if (report.summary.passed !== c.count) {
      const failure = report.results.find((r) => r.status !== 'passed');
      throw new Error(
        `carrier run: ${report.summary.passed}/${c.count} passed (${failure?.test.name}: ${failure?.failures[0]?.message ?? failure?.skipReason})`,
      );
    }
    return seconds;
  } finally {
    await backend.close?.();
  }
}

function theirs(c: BenchCollection): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    newman.run({ collection: c.postman, reporters: [] }, (err, summary) => {
      const seconds = (performance.now() - t0) / 1000;
      if (err) return reject(err);
      const { requests, assertions } = summary.run.stats;
      if (requests.total !== c.count || assertions.failed || requests.failed)
        return reject(new Error(`newman: ${requests.total} requests, ${assertions.failed} failed checks`));
      resolve(seconds);
    });
  });
}

export const runnerVsNewman: BenchRow = {
  id: 'runner',
  title: 'Collection runner against newman',
  async run(ctx) {
    const collection = writeCollection(path.join(ctx.tmp, 'full'), ctx.sandboxUrl, REQUESTS);
    const warm = writeCollection(path.join(ctx.tmp, 'warm'), ctx.sandboxUrl, WARM_UP);
    // The API key as the CLI finds it, in the context's variables.
    const context = nodeContext({ env: { CARRIER_API_KEY: BENCH_KEY } });
    try {
      await ours(context, warm);
      await theirs(warm);
      const p = await interleave(
        ctx.runs,
        () => ours(context, collection),
        () => theirs(collection),
        0,
      );
      return [
        {
          id: 'runner.newman',
          measured: `${REQUESTS} SOAP 1.1 requests (4 operations) with a status check each, sequential: carrier run engine vs newman, both in-process`,
          a: { label: 'carrier run', value: p.medianA, unit: 's' },
          b: { label: 'newman', value: p.medianB, unit: 's' },
          // Faster is the claim: newman's time over ours.
          ratio: pairedRatio(p.b, p.a),
          ratioText: 'newman / carrier run',
          target: atLeast(3),
          runs: p.runs,
        },
      ];
    } finally {
      await context.http.close();
    }
  },
};
