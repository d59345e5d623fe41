/**
 * `row.ts <module> <export> <context JSON>`: runs one bench row in a process of its own and prints
 * its results as one JSON line (bench/lib/ownProcess.ts, through lib/child.ts runJsonChild). Only
 * the row's own module is loaded here, not the bench's other rows (newman, node-soap's WSDL
 * machinery…), whose heap would tax whichever side of a row allocates more. Log lines go to
 * stderr (shown if the row fails).
 */
import * as path from 'node:path';
import type { BenchContext, BenchRow } from '../lib/row';

async function main(): Promise<void> {
  const [module, name, json] = process.argv.slice(2);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the row named on the command line
  const row = (require(path.resolve(__dirname, '..', module)) as Record<string, BenchRow>)[name];
  if (!row) throw new Error(`${module} exports no row ${name}`);
  const context = JSON.parse(json) as Omit<BenchContext, 'log'>;
  const results = await row.run({ ...context, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
