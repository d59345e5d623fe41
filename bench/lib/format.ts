/** The table: as text for the terminal, as Markdown for BENCHMARKS.md, as JSON for tools. */
import * as os from 'node:os';
import { median } from './stats';
import type { Figure, RowResult } from './row';
import { spreadOf, verdictOf, type Verdict } from './verdict';

export interface BenchReport {
  readonly startedAt: string;
  readonly durationS: number;
  readonly machine: { readonly node: string; readonly cpu: string; readonly cores: number; readonly platform: string };
  readonly runs: number;
  /** How many times the whole table was run (`--repeat`); each line then says the range of its ratios. */
  readonly repeat?: number;
  readonly results: readonly RowResult[];
  /** Rows that could not be measured at all, with why. */
  readonly errors: readonly { readonly row: string; readonly message: string }[];
}

export function machine(): BenchReport['machine'] {
  const cpus = os.cpus();
  return { node: process.version, cpu: cpus[0]?.model.trim() ?? 'unknown', cores: cpus.length, platform: `${os.platform()} ${os.arch()}` };
}

function num(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toFixed(3);
}

const figure = (f: Figure) => `${f.label} ${num(f.value)} ${f.unit}`;
export const verdict = (r: RowResult): Verdict => verdictOf(r.target, r.ratio, spreadOf(r, r.repeats));
const ratio = (r: RowResult) => {
  if (!Number.isFinite(r.ratio)) return '—';
  const s = spreadOf(r, r.repeats);
  const range = !s ? '' : s.of === 'repeats' ? ` (${num(s.low)}–${num(s.high)} over ${r.repeats!.length} runs)` : ` (pairs ${num(s.low)}–${num(s.high)})`;
  return `${num(r.ratio)}×${range}`;
};

function cells(r: RowResult): string[] {
  return [
    r.id,
    r.measured + (r.note ? ` (${r.note})` : ''),
    figure(r.a),
    figure(r.b),
    `${ratio(r)} ${r.ratioText}`,
    r.target?.text ?? '—',
    verdict(r),
    String(r.runs),
  ];
}

const HEADER = ['Row', 'Measured', 'A', 'B', 'Ratio', 'Target', 'Result', 'Runs'];

export function textTable(report: BenchReport): string {
  const lines: string[] = [];
  for (const r of report.results) {
    const [id, measured, a, b, rt, target, v, runs] = cells(r);
    lines.push(`${v.padEnd(11)}  ${id}`, `      ${measured}`, `      A: ${a}   B: ${b}   ratio ${rt}   target ${target}   runs ${runs}`);
  }
  for (const e of report.errors) lines.push(`ERROR ${e.row}: ${e.message}`);
  const failed = report.results.filter((r) => verdict(r) === 'FAIL').length;
  const atLine = report.results.filter((r) => verdict(r) === 'AT THE LINE').length;
  lines.push(
    '',
    `${report.results.length} lines${report.repeat && report.repeat > 1 ? ` (the table run ${report.repeat} times)` : ''}, ${failed} below target, ${atLine} at the line, ${report.errors.length} rows not measured — ${report.durationS.toFixed(0)} s on ${report.machine.cores} × ${report.machine.cpu}, Node ${report.machine.node}`,
  );
  return lines.join('\n');
}

const md = (s: string) => s.replace(/\|/g, '\\|');

export function markdownTable(report: BenchReport): string {
  const lines = [
    `Measured ${report.startedAt.slice(0, 10)} on ${report.machine.cores} × ${report.machine.cpu}, ${report.machine.platform}, Node ${report.machine.node}; ${report.durationS.toFixed(0)} s for the whole run. Medians of interleaved runs (at least ${report.runs}, the Runs column); the ratio is the median of the per-run ratios${report.repeat && report.repeat > 1 ? `, and with the table run ${report.repeat} times (\`--repeat ${report.repeat}\`) the median of the runs' ratios, their range in brackets` : ', the middle half of the pairs in brackets where the row keeps its samples'}. A target inside that range is AT THE LINE, not a PASS.`,
    '',
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => '---').join('|')}|`,
    ...report.results.map((r) => `| ${cells(r).map(md).join(' | ')} |`),
  ];
  for (const e of report.errors) lines.push('', `**Not measured — ${md(e.row)}:** ${md(e.message)}`);
  return lines.join('\n');
}

export const TABLE_START = '<!-- bench:table:start (npm run bench -- --markdown BENCHMARKS.md rewrites this part) -->';
export const TABLE_END = '<!-- bench:table:end -->';

/** Puts the table between the markers of an existing file (keeping the notes around it), or makes one. */
export function withTable(existing: string | undefined, table: string): string {
  const block = `${TABLE_START}\n${table}\n${TABLE_END}`;
  if (existing) {
    const a = existing.indexOf(TABLE_START);
    const b = existing.indexOf(TABLE_END);
    if (a >= 0 && b > a) return existing.slice(0, a) + block + existing.slice(b + TABLE_END.length);
  }
  return `# Benchmarks\n\n${block}\n`;
}

/** The results of several runs of the table as one line each: the median ratio, every run's ratio kept (`repeats`). */
export function combineRepeats(runs: readonly (readonly RowResult[])[]): RowResult[] {
  const byId = new Map<string, RowResult[]>();
  for (const results of runs) for (const r of results) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  return [...byId.values()].map((all) => {
    const first = all[0];
    const ratios = all.map((r) => r.ratio);
    return {
      ...first,
      a: { ...first.a, value: median(all.map((r) => r.a.value)) },
      b: { ...first.b, value: median(all.map((r) => r.b.value)) },
      ratio: median(ratios),
      runs: all.reduce((n, r) => n + r.runs, 0),
      repeats: ratios,
      ...(all.every((r) => r.samples) ? { samples: { a: all.flatMap((r) => r.samples!.a), b: all.flatMap((r) => r.samples!.b) } } : {}),
    };
  });
}
