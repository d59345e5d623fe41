/**
 * Row 1 — what the workbench's client costs on top of the wire: `send()` with a prepared request
 * (envelope build, HTTP, reply parse, redaction) against undici posting the same prebuilt
 * envelope and reading the body, at concurrency 1 and 16. Core runs as bundled (fixtures/builtCore.ts),
 * and the row in a process of its own (rows/index.ts, lib/ownProcess.ts).
 */
import { Agent, request } from 'undici';
import { builtCore } from '../fixtures/builtCore';
import { benchEnvironment, BENCH_KEY, rateQuoteRequest, wireRequest } from '../fixtures/rateQuote';
import { interleave } from '../lib/interleave';
import { throughput } from '../lib/load';
import { atLeast, type BenchRow, type RowResult } from '../lib/row';

const SETTINGS = [
  { concurrency: 1, requests: 400 },
  { concurrency: 16, requests: 800 },
] as const;

/**
 * Requests each side sends, in turns, before the first timed run: both then run code V8 has
 * finished optimising, rather than whichever side happens to be timed first paying for it.
 */
const WARM_UP = 1000;

export const clientOverhead: BenchRow = {
  id: 'client-overhead',
  title: 'Client overhead: send() against raw undici',
  async run(ctx) {
    const { classifyExchange, nodeContext, send } = builtCore(ctx.tmp);
    // One context for the row, its pooled dispatchers reused by every send as the product's are.
    const context = nodeContext();
    const environment = benchEnvironment(ctx.sandboxUrl);
    const sendable = rateQuoteRequest();
    const spec = wireRequest(sendable, environment);
    const body = Buffer.from(spec.body, 'utf8');
    const headers = Object.fromEntries(spec.headers);
    const agent = new Agent();

    const first = await send({ context, request: sendable, environment, apiKey: BENCH_KEY });
    if (!classifyExchange(first).ok) throw new Error(`the sandbox did not answer the rate quote cleanly: ${first.findings.map((f) => f.message).join('; ')}`);

    const ours = () => send({ context, request: sendable, environment, apiKey: BENCH_KEY });
    const raw = async () => {
      const r = await request(spec.url, { method: 'POST', headers, body, dispatcher: agent });
      await r.body.arrayBuffer();
    };
    for (let i = 0; i < WARM_UP; i += 100) {
      await throughput(100, 1, ours);
      await throughput(100, 1, raw);
    }
    const results: RowResult[] = [];
    try {
      for (const { concurrency, requests } of SETTINGS) {
        // At least 10 pairs, as runner-throughput: one pair moves by about 5 % on two shared
        // cores, and the verdict is read against a threshold.
        const p = await interleave(
          Math.max(ctx.runs, 10),
          () => throughput(requests, concurrency, ours),
          () => throughput(requests, concurrency, raw),
        );
        results.push({
          id: `client-overhead.c${concurrency}`,
          measured: `GetRateQuote 1.0.3 SOAP 1.1, concurrency ${concurrency}: send() (build + HTTP + parse) vs raw undici POST of the prebuilt envelope`,
          a: { label: 'send()', value: p.medianA, unit: 'req/s' },
          b: { label: 'raw undici', value: p.medianB, unit: 'req/s' },
          ratio: p.ratio,
          ratioText: 'send / raw',
          target: atLeast(0.9),
          runs: p.runs,
          samples: { a: p.a, b: p.b },
          note: `${requests} requests per run after ${WARM_UP} by each side`,
        });
      }
    } finally {
      await agent.close();
      await context.http.close();
    }
    return results;
  },
};
