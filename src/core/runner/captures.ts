/**
 * Takes `capture` values out of a reply. A capture that finds nothing fails its request: a
 * later request would otherwise be sent with a hole where the BolID or PRO should be.
 */
import type { Exchange } from '../exchange';
import type { CompiledCapture } from './compileExpect';
import { valueAt } from './replyPath';
import type { Failure } from './types';
import { show } from './values';

export interface Captured {
  /** As text, for reports. */
  readonly values: Record<string, string>;
  /** As the reply typed them: a captured int fills an int field as a number. */
  readonly typed: Record<string, unknown>;
  readonly failures: Failure[];
}

export function takeCaptures(exchange: Exchange, captures: readonly CompiledCapture[]): Captured {
  const values: Record<string, string> = {};
  const typed: Record<string, unknown> = {};
  const failures: Failure[] = [];
  for (const c of captures) {
    const v = exchange.parsed === undefined ? undefined : valueAt(exchange.parsed, c.path);
    if ((typeof v === 'string' && v !== '') || typeof v === 'number' || typeof v === 'boolean') {
      values[c.name] = String(v);
      typed[c.name] = v;
    } else {
      const got =
        v === undefined ? 'nothing there' : v === '' ? 'an empty value' : v === null ? 'nil (xsi:nil)' : `a record or list, not a single value: ${show(v, 80)}`;
      failures.push({
        kind: 'capture',
        message: `capture ${c.name}: ${c.path.text} has no value to capture (found ${got})`,
        expected: `a value at ${c.path.text}`,
        actual: got,
        path: c.path.text,
        location: c.location,
      });
    }
  }
  return { values, typed, failures };
}
