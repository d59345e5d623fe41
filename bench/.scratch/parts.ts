import { Agent, request as undiciRequest } from 'undici';
import { startSandboxProcess } from '../lib/child';
import { send } from '../../src/core/send';
import { sendHttp } from '../../src/core/transport/http';
import { dispatcherFor } from '../../src/core/transport/agents';
import { benchEnvironment, rateQuoteRequest, wireRequest, BENCH_KEY } from '../fixtures/rateQuote';
async function time(label: string, n: number, f: () => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await f();
  const t = performance.now();
  for (let i = 0; i < n; i++) await f();
  console.log(label, ((performance.now() - t) / n).toFixed(3), 'ms');
}
(async () => {
  const sb = await startSandboxProcess();
  const env = benchEnvironment(sb.url);
  const req = rateQuoteRequest();
  const spec = wireRequest(req, env);
  const agent = new Agent();
  const ours = dispatcherFor({ connectTimeoutMs: 10000 });
  const body = Buffer.from(spec.body);
  const headers = Object.fromEntries(spec.headers);
  for (let round = 0; round < 2; round++) {
    await time('raw undici, own Agent', 1000, async () => { const r = await undiciRequest(spec.url, { method: 'POST', headers, body, dispatcher: agent }); await r.body.arrayBuffer(); });
    await time('raw undici, our dispatcher', 1000, async () => { const r = await undiciRequest(spec.url, { method: 'POST', headers, body, dispatcher: ours }); await r.body.arrayBuffer(); });
    await time('sendHttp, own Agent', 1000, () => sendHttp(spec, { dispatcher: agent, timeoutMs: 30000, connectTimeoutMs: 10000, maxReplyBytes: 1e8 }));
    await time('sendHttp, our dispatcher', 1000, () => sendHttp(spec, { dispatcher: ours, timeoutMs: 30000, connectTimeoutMs: 10000, maxReplyBytes: 1e8 }));
    await time('send', 1000, () => send({ request: req, environment: env, apiKey: BENCH_KEY }));
  }
  await sb.close();
  process.exit(0);
})();
