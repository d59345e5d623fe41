import { startSandboxProcess } from '../lib/child';
import { send } from '../../src/core/send';
import { prepareRequest } from '../../src/core/envelope/prepare';
import { parseReply } from '../../src/core/reply/parse';
import { decodeText } from '../../src/core/reply/decodeText';
import { findShape } from '../../src/core/catalog';
import { benchEnvironment, rateQuoteRequest, BENCH_KEY } from '../fixtures/rateQuote';
async function time(label: string, n: number, f: () => unknown) {
  for (let i = 0; i < 300; i++) await f();
  const t = performance.now();
  for (let i = 0; i < n; i++) await f();
  console.log(label, ((performance.now() - t) / n * 1000).toFixed(1), 'µs');
}
(async () => {
  const sb = await startSandboxProcess();
  const env = benchEnvironment(sb.url);
  const req = rateQuoteRequest();
  const x = await send({ request: req, environment: env, apiKey: BENCH_KEY });
  const text = x.reply!.bodyText;
  console.log(text.length, 'reply chars;', x.request.body.length, 'request chars');
  await sb.close();
  const op = findShape('GetRateQuote', '1.0.3')!;
  for (let round = 0; round < 2; round++) {
    await time('prepareRequest', 3000, () => prepareRequest({ request: req, environment: env, apiKey: BENCH_KEY }));
    await time('decodeText', 3000, () => decodeText(Buffer.from(text), 'text/xml; charset=utf-8'));
    await time('parseReply', 3000, () => parseReply({ op, binding: 'soap11', namespaces: env.namespaces, status: 200, contentType: 'text/xml; charset=utf-8', text }));
  }
  process.exit(0);
})();
