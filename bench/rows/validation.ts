/**
 * Row 5 — validating a 500-item bill of lading as the editor does on every keystroke
 * (validateRequestText: syntax, shape, schema, catalog rules) against JSON.parse of the same
 * text; then re-validation after a one-character edit against JSON.parse of the edited text.
 * Measured in a child process (children/validationTime.ts); calls are timed in batches, since one
 * call is well under the timer's noise. The row is cheap, so it takes three times the runs.
 */
import { BOL_ITEMS } from '../fixtures/bigBol';
import { runJsonChild } from '../lib/child';
import { median, pairedRatio } from '../lib/stats';
import { atMost, type BenchRow, type RowResult } from '../lib/row';

interface Times {
  readonly batch: number;
  readonly kb: number;
  readonly full: { validateUs: number[]; parseUs: number[] };
  readonly edit: { validateUs: number[]; parseUs: number[] };
}

export const validation: BenchRow = {
  id: 'validation',
  title: 'Validation',
  async run(ctx) {
    const t = await runJsonChild<Times>('children/validationTime.ts', [String(ctx.runs * 3)]);
    const line = (id: string, what: string, s: Times['full']): RowResult => ({
      id,
      measured: what,
      a: { label: 'validate', value: median(s.validateUs) / 1000, unit: 'ms' },
      b: { label: 'JSON.parse', value: median(s.parseUs) / 1000, unit: 'ms' },
      ratio: pairedRatio(s.validateUs, s.parseUs),
      ratioText: 'validate / JSON.parse',
      target: atMost(2),
      runs: s.validateUs.length,
      note: `${t.batch} calls per run`,
    });
    return [
      line('validation.full', `CreateBillOfLading with ${BOL_ITEMS} items (${t.kb.toFixed(0)} KB): validateRequestText vs JSON.parse`, t.full),
      line('validation.edit', 'the same after a one-character edit: re-validation vs JSON.parse of the edited text', t.edit),
    ];
  },
};
