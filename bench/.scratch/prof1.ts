import { startSandboxProcess } from '../lib/child';
import { send } from '../../src/core/send';
import { benchEnvironment, rateQuoteRequest, BENCH_KEY } from '../fixtures/rateQuote';
(async () => {
  const sb = await startSandboxProcess();
  const env = benchEnvironment(sb.url);
  const req = rateQuoteRequest();
  for (let i = 0; i < 300; i++) await send({ request: req, environment: env, apiKey: BENCH_KEY });
  const t = performance.now();
  for (let i = 0; i < 3000; i++) await send({ request: req, environment: env, apiKey: BENCH_KEY });
  console.log('per send ms', (performance.now() - t) / 3000);
  await sb.close();
  process.exit(0);
})();
