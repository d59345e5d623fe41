import { Agent, request as undiciRequest } from 'undici';
import { startSandboxProcess } from '../lib/child';
import { throughput } from '../lib/load';
import { interleave } from '../lib/interleave';
import { send, exchangeSucceeded } from '../../src/core/send';
import { benchEnvironment, rateQuoteRequest, wireRequest, BENCH_KEY } from '../fixtures/rateQuote';
(async () => {
  const sb = await startSandboxProcess();
  const env = benchEnvironment(sb.url);
  const req = rateQuoteRequest();
  const spec = wireRequest(req, env);
  const x = await send({ request: req, environment: env, apiKey: BENCH_KEY });
  console.log(exchangeSucceeded(x), x.findings, x.reply?.size);
  const agent = new Agent();
  const body = Buffer.from(spec.body);
  const headers = Object.fromEntries(spec.headers);
  const raw = async () => { const r = await undiciRequest(spec.url, { method: 'POST', headers, body, dispatcher: agent }); await r.body.arrayBuffer(); };
  const ours = async () => { await send({ request: req, environment: env, apiKey: BENCH_KEY }); };
  for (const c of [1, 16]) {
    const p = await interleave(5, () => throughput(600, c, ours), () => throughput(600, c, raw));
    console.log(c, p);
  }
  await sb.close(); await agent.close();
  process.exit(0);
})();
