/**
 * Row 5 — validating a 500-item bill of lading as the editor does on every keystroke
 * (validateRequestText: syntax, shape, schema, catalog rules) against JSON.parse of the same
 * text; then re-validation after a one-character edit against JSON.parse of the edited text.
 * Calls are timed in batches (one call is well under the timer's noise) and every call gets a
 * text different from the call before, as an editor would.
 */
import { performance } from 'node:perf_hooks';
import { hasErrors, validateRequestText } from '../../src/core/validation/validate';
import { bigBol, BOL_ITEMS } from '../fixtures/bigBol';
import { interleave } from '../lib/interleave';
import { atMost, type BenchRow, type RowResult } from '../lib/row';

const BATCH = 20;

function perCall(texts: readonly string[], f: (text: string) => unknown): () => number {
  return () => {
    const t = performance.now();
    for (let i = 0; i < BATCH; i++) f(texts[i % texts.length]);
    return ((performance.now() - t) / BATCH) * 1000;
  };
}

export const validation: BenchRow = {
  id: 'validation',
  title: 'Validation',
  async run(ctx) {
    const bol = bigBol();
    const variants = [bol.text, bigBol(3).text];
    const edits = [bol.edited(1), bol.edited(2)];
    const check = validateRequestText(bol.text, 'bol.carrier.json');
    if (hasErrors(check.findings) || !check.request) throw new Error(`the 500-item bill of lading does not validate: ${check.findings.map((f) => f.message).join('; ')}`);
    const validate = (text: string) => validateRequestText(text, 'bol.carrier.json');
    const kb = (bol.text.length / 1024).toFixed(0);
    const results: RowResult[] = [];
    // The first case alternates two texts that differ in every item: nothing can be reused.
    const cases = [
      { id: 'validation.full', what: `CreateBillOfLading with ${BOL_ITEMS} items (${kb} KB): validateRequestText vs JSON.parse`, texts: variants },
      { id: 'validation.edit', what: `the same after a one-character edit: re-validation vs JSON.parse of the edited text`, texts: edits },
    ];
    for (const c of cases) {
      const p = await interleave(ctx.runs, perCall(c.texts, validate), perCall(c.texts, JSON.parse), 2);
      results.push({
        id: c.id,
        measured: c.what,
        a: { label: 'validate', value: p.medianA / 1000, unit: 'ms' },
        b: { label: 'JSON.parse', value: p.medianB / 1000, unit: 'ms' },
        ratio: p.ratio,
        ratioText: 'validate / JSON.parse',
        target: atMost(2),
        runs: p.runs,
        note: `${BATCH} calls per run`,
      });
    }
    return results;
  },
};
