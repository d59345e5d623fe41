/** The table: as text for the terminal, as Markdown for BENCHMARKS.md, as JSON for tools. */
import * as os from 'node:os';
import { passed, type Figure, type RowResult } from './row';

export interface BenchReport {
  readonly startedAt: string;
  readonly durationS: number;
  readonly machine: { readonly node: string; readonly cpu: string; readonly cores: number; readonly platform: string };
  readonly runs: number;
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
const verdict = (r: RowResult) => {
  const p = passed(r);
  return p === undefined ? 'info' : p ? 'PASS' : 'FAIL';
};
const ratio = (r: RowResult) => (Number.isFinite(r.ratio) ? `${num(r.ratio)}×` : '—');

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
    lines.push(`${v.padEnd(4)}  ${id}`, `      ${measured}`, `      A: ${a}   B: ${b}   ratio ${rt}   target ${target}   runs ${runs}`);
  }
  for (const e of report.errors) lines.push(`ERROR ${e.row}: ${e.message}`);
  const failed = report.results.filter((r) => passed(r) === false).length;
  lines.push(
    '',
    `${report.results.length} lines, ${failed} below target, ${report.errors.length} rows not measured — ${report.durationS.toFixed(0)} s on ${report.machine.cores} × ${report.machine.cpu}, Node ${report.machine.node}`,
  );
  return lines.join('\n');
}

const md = (s: string) => s.replace(/\|/g, '\\|');

export function markdownTable(report: BenchReport): string {
  const lines = [
    `Measured ${report.startedAt.slice(0, 10)} on ${report.machine.cores} × ${report.machine.cpu}, ${report.machine.platform}, Node ${report.machine.node}; ${report.durationS.toFixed(0)} s for the whole run. Medians of interleaved runs (at least ${report.runs}, the Runs column); the ratio is the median of the per-run ratios.`,
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
