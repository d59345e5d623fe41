import * as fs from 'node:fs';
import { prepareRequest } from '../../src/core/envelope/prepare';
import { parseReply } from '../../src/core/reply/parse';
import { findShape } from '../../src/core/catalog';
import { benchEnvironment, rateQuoteRequest, BENCH_KEY } from '../fixtures/rateQuote';
const mode = process.argv[2];
(async () => {
  const env = benchEnvironment('http://127.0.0.1:1');
  const req = rateQuoteRequest();
  const text = fs.readFileSync('/tmp/rq-reply.xml', 'utf8');
  const op = findShape('GetRateQuote', '1.0.3')!;
  const t = performance.now();
  for (let i = 0; i < 10000; i++) {
    if (mode === 'prep') prepareRequest({ request: req, environment: env, apiKey: BENCH_KEY });
    else await parseReply({ op, binding: 'soap11', namespaces: env.namespaces, status: 200, contentType: 'text/xml; charset=utf-8', text });
  }
  console.log(mode, (performance.now() - t) / 10, 'µs');
})();
