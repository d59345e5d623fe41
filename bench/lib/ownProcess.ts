/**
 * A row that times client code in a process of its own (children/row.ts). By the time a row
 * runs, the bench's process holds newman, node-soap and the rows before it; every young
 * collection there cost more, and the side that allocates more paid more of it: send() against
 * raw undici at concurrency 1 was 0.81–0.86 in five runs in the bench's process and 0.864–0.877
 * in four in one of its own, which also moves far less. The validation row moved to a child for
 * the same reason.
 */
import { runJsonChild } from './child';
import type { BenchContext, BenchRow, RowResult } from './row';

/** `row`, exported as `name` from `module` (a path from bench/, e.g. `rows/clientOverhead`), run in a child. */
export function inOwnProcess(row: BenchRow, module: string, name: string): BenchRow {
  return {
    id: row.id,
    title: row.title,
    run: (ctx: BenchContext) => {
      const context = { sandboxUrl: ctx.sandboxUrl, runs: ctx.runs, tmp: ctx.tmp, root: ctx.root };
      return runJsonChild<RowResult[]>('children/row.ts', [module, name, JSON.stringify(context)]);
    },
  };
}
