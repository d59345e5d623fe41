import * as fs from 'node:fs';
import { startSandboxProcess } from '../lib/child';
import { send } from '../../src/core/send';
import { benchEnvironment, rateQuoteRequest, BENCH_KEY } from '../fixtures/rateQuote';
(async () => {
  const sb = await startSandboxProcess();
  const x = await send({ request: rateQuoteRequest(), environment: benchEnvironment(sb.url), apiKey: BENCH_KEY });
  fs.writeFileSync('/tmp/rq-reply.xml', x.reply!.bodyText);
  fs.writeFileSync('/tmp/rq-request.xml', x.request.body);
  await sb.close(); process.exit(0);
})();
