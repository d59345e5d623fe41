/**
 * The traffic inspector's overhead: the same prebuilt GetRateQuote envelope posted with undici
 * straight to the sandbox and through `carrier inspect` (its own process, as people run it, so
 * its recording work competes for the CPU like it does for them), at concurrency 1 and 16.
 * The ratio is the slowdown: direct throughput over throughput through the inspector.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { Agent, request } from 'undici';
import { benchEnvironment, rateQuoteRequest, wireRequest } from '../fixtures/rateQuote';
import { ROOT } from '../lib/child';
import { interleave } from '../lib/interleave';
import { throughput } from '../lib/load';
import { atMost, type BenchRow, type RowResult } from '../lib/row';

const SETTINGS = [
  { concurrency: 1, requests: 400 },
  { concurrency: 16, requests: 800 },
] as const;

interface InspectorProcess {
  readonly url: string;
  close(): Promise<void>;
}

function startInspector(target: string): Promise<InspectorProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'carrier.js'), 'inspect', '--target', target, '--port', '0', '--quiet'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`carrier inspect exited ${code} before listening: ${out}`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      child.removeAllListeners('exit');
      resolve({
        url: m[1],
        close: () => new Promise<void>((done) => {
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    });
  });
}

export const inspectorOverhead: BenchRow = {
  id: 'inspector',
  title: 'Traffic inspector: through carrier inspect against direct',
  async run(ctx) {
    const inspector = await startInspector(ctx.sandboxUrl);
    const spec = wireRequest(rateQuoteRequest(), benchEnvironment(ctx.sandboxUrl));
    const body = Buffer.from(spec.body, 'utf8');
    const headers = Object.fromEntries(spec.headers);
    const viaUrl = spec.url.replace(ctx.sandboxUrl, inspector.url);
    const agent = new Agent();
    const post = (url: string) => async () => {
      const r = await request(url, { method: 'POST', headers, body, dispatcher: agent });
      if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode} from ${url}`);
      await r.body.arrayBuffer();
    };
    const results: RowResult[] = [];
    try {
      for (const { concurrency, requests } of SETTINGS) {
        const p = await interleave(ctx.runs, () => throughput(requests, concurrency, post(spec.url)), () => throughput(requests, concurrency, post(viaUrl)));
        results.push({
          id: `inspector.c${concurrency}`,
          measured: `GetRateQuote 1.0.3 SOAP 1.1 posted with undici, concurrency ${concurrency}: direct to the sandbox vs through carrier inspect (recording, own process)`,
          a: { label: 'direct', value: p.medianA, unit: 'req/s' },
          b: { label: 'through inspector', value: p.medianB, unit: 'req/s' },
          ratio: p.ratio,
          ratioText: 'direct / through inspector (slowdown)',
          target: atMost(1.1),
          runs: p.runs,
          note: `${requests} requests per run`,
        });
      }
    } finally {
      await agent.close();
      await inspector.close();
    }
    return results;
  },
};
