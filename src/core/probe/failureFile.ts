/**
 * A failure of `carrier probe` as a request file (docs/probe.md#failure-files): the shrunk
 * example's params (`"asWritten": true` when it breaks a rule on purpose), and an `expect` that
 * fails for the same reason today, so `carrier run` on the folder reproduces every failure. A request over a binding the operation does not offer is
 * no request file (validation refuses it): that one is kept as the exact HTTP request instead.
 */
import { formatHttpRequest } from '../envelope/format';
import type { ProbeFailure } from './run';

export interface FailureFile {
  readonly name: string;
  readonly text: string;
}

/** `<operation>-<property>-<n>.carrier.json` (`.http` for a wrong binding), `n` counting from 1 per operation and property. */
export function failureFiles(failures: readonly ProbeFailure[], seed: number): FailureFile[] {
  const numbers = new Map<string, number>();
  return failures.map((f) => {
    const stem = `${f.operation}-${f.property.replace(/[^\w.-]+/g, '-')}`;
    const n = (numbers.get(stem) ?? 0) + 1;
    numbers.set(stem, n);
    const description = `carrier probe --seed ${seed}: ${f.property}: ${f.reason}`;
    if (f.exchange) return { name: `${stem}-${n}.http`, text: `# ${description.replace(/\n/g, ' ')}\n${formatHttpRequest(f.exchange.request)}\n` };
    const file = {
      operation: f.operation,
      version: f.version,
      binding: f.binding,
      description,
      params: f.example.params,
      // An invalid example breaks a rule on purpose: `carrier run` sends it as written.
      ...(f.example.kind === 'invalid' ? { asWritten: true } : {}),
      expect: f.expect,
    };
    return { name: `${stem}-${n}.carrier.json`, text: `${JSON.stringify(file, null, 2)}\n` };
  });
}
