/**
 * `validationTime.ts <runs>`: validateRequestText on the 500-item bill of lading against JSON.parse,
 * interleaved, in a process of its own: the bench's own heap, holding newman and a thousand
 * exchanges by then, made every collection slow. (No forced GC between batches: V8 ages code out
 * of its caches on every full collection, so forcing one per batch measured recompilation.)
 * Prints one JSON line of microseconds per call.
 */
import { performance } from 'node:perf_hooks';
import { hasErrors, validateRequestText } from '../../src/core';
import { bigBol } from '../fixtures/bigBol';
import { interleave } from '../lib/interleave';

const BATCH = 20;

async function main(): Promise<void> {
  const runs = Number(process.argv[2]);
  const bol = bigBol();
  const check = validateRequestText(bol.text, 'bol.carrier.json');
  if (hasErrors(check.findings) || !check.request)
    throw new Error(`the 500-item bill of lading does not validate: ${check.findings.map((f) => f.message).join('; ')}`);
  // Every call gets a text different from the call before, as in an editor: two variants that
  // differ in every item, and two one-character edits of the same text.
  const cases = { full: [bol.text, bigBol(3).text], edit: [bol.edited(1), bol.edited(2)] };
  const validate = (text: string) => validateRequestText(text, 'bol.carrier.json');
  const perCall = (texts: readonly string[], f: (text: string) => unknown) => () => {
    const t = performance.now();
    for (let i = 0; i < BATCH; i++) f(texts[i % texts.length]);
    return ((performance.now() - t) / BATCH) * 1000;
  };
  const out: Record<string, { validateUs: number[]; parseUs: number[] }> = {};
  for (const [name, texts] of Object.entries(cases)) {
    const p = await interleave(runs, perCall(texts, validate), perCall(texts, JSON.parse), 3);
    out[name] = { validateUs: p.a, parseUs: p.b };
  }
  process.stdout.write(`${JSON.stringify({ batch: BATCH, kb: bol.text.length / 1024, ...out })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
