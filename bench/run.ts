/**
 * `npm run bench [-- --json file] [--markdown BENCHMARKS.md] [--only row,row] [--runs N] [--repeat N]`
 *
 * Starts the sandbox on loopback (in a process of its own), runs every row of rows/index.ts and
 * prints the table. Every figure is a ratio of two things measured in the same run, interleaved,
 * because a 2-core machine shared with other work is too noisy for absolute numbers to mean
 * anything from one run to the next. `--repeat N` runs the whole table N times over and gives
 * each line the range of its N ratios: a verdict two runs of the table agree on (lib/verdict.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSandboxProcess } from './lib/child';
import { combineRepeats, machine, markdownTable, textTable, withTable, type BenchReport } from './lib/format';
import type { RowResult } from './lib/row';
import { ROWS } from './rows';

const MIN_RUNS = 5;

interface Options {
  json?: string;
  markdown?: string;
  only?: string[];
  runs: number;
  repeat: number;
}

function options(argv: readonly string[]): Options {
  const o: Options = { runs: MIN_RUNS, repeat: 1 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === '--json') o.json = value();
    else if (flag === '--markdown') o.markdown = value();
    else if (flag === '--only')
      o.only = value()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (flag === '--runs') o.runs = Math.max(MIN_RUNS, Number(value()) || MIN_RUNS);
    else if (flag === '--repeat') o.repeat = Math.max(1, Math.floor(Number(value())) || 1);
    else fail(`unknown option ${flag} (options: --json FILE, --markdown FILE, --only ROW[,ROW], --runs N, --repeat N)`);
  }
  return o;
}

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const rows = o.only ? ROWS.filter((r) => o.only!.some((id) => r.id === id || id.startsWith(`${r.id}.`))) : ROWS;
  if (o.only && !rows.length) fail(`no row named ${o.only.join(', ')} (rows: ${ROWS.map((r) => r.id).join(', ')})`);
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-bench-'));
  const sandbox = await startSandboxProcess();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const tables: RowResult[][] = [];
  const errors: { row: string; message: string }[] = [];
  try {
    for (let round = 1; round <= o.repeat; round++) {
      const results: RowResult[] = [];
      const of = o.repeat > 1 ? ` (run ${round} of ${o.repeat})` : '';
      for (const row of rows) {
        const t = performance.now();
        log(`bench: ${row.title}${of}…`);
        try {
          const rowTmp = fs.mkdtempSync(path.join(tmp, `${row.id}-`));
          const got = await row.run({ sandboxUrl: sandbox.url, runs: o.runs, tmp: rowTmp, root: path.resolve(__dirname, '..'), log });
          results.push(...got);
        } catch (err) {
          errors.push({ row: `${row.id}${of}`, message: err instanceof Error ? err.message : String(err) });
        }
        log(`bench: ${row.title}${of} — ${((performance.now() - t) / 1000).toFixed(1)} s`);
      }
      tables.push(results);
    }
  } finally {
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const results = o.repeat > 1 ? combineRepeats(tables) : tables[0];
  const report: BenchReport = { startedAt, durationS: (performance.now() - t0) / 1000, machine: machine(), runs: o.runs, repeat: o.repeat, results, errors };
  process.stdout.write(`${textTable(report)}\n`);
  if (o.json) fs.writeFileSync(o.json, `${JSON.stringify(report, null, 2)}\n`);
  if (o.markdown) {
    const existing = fs.existsSync(o.markdown) ? fs.readFileSync(o.markdown, 'utf8') : undefined;
    fs.writeFileSync(o.markdown, withTable(existing, markdownTable(report)));
  }
  if (errors.length) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
