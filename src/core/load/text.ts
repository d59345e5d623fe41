/**
 * The terminal's view of a load run (docs/load.md#what-it-prints): the progress line while it
 * runs, the table per operation at its end, and each threshold held or crossed.
 */
import { duration } from '../runner/reporters/format';
import { ALL_OPERATIONS, type LoadProgress, type LoadReport, type OperationLoad, type ThresholdOutcome } from './report';

const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

function classesText(classes: Readonly<Record<string, number>>): string {
  const parts = Object.entries(classes)
    .sort(([, a], [, b]) => b - a)
    .map(([k, v]) => `${k} ${v}`);
  return parts.length ? parts.join(', ') : '';
}

/** `12.3 s · 1,204 req · 98.1 req/s · p50 4.21 ms · p95 9.80 ms · p99 21.3 ms · errors 3 (fault 2, expect-failed 1) · 8 in flight`. */
export function progressLine(p: LoadProgress): string {
  const errors = p.errors ? `errors ${p.errors} (${classesText(p.errorClasses)})` : 'no errors';
  return [
    duration(p.elapsedMs),
    `${p.count.toLocaleString('en-US')} req`,
    `${p.ratePerSecond.toFixed(1)} req/s`,
    `p50 ${ms(p.p50Ms)} ms`,
    `p95 ${ms(p.p95Ms)} ms`,
    `p99 ${ms(p.p99Ms)} ms`,
    errors,
    `${p.inFlight} in flight`,
  ].join(' · ');
}

const HEAD = ['operation', 'count', 'req/s', 'min', 'p50', 'p90', 'p95', 'p99', 'max', 'errors'];

function cells(o: OperationLoad): string[] {
  const l = o.latency;
  const errors = o.errors ? `${o.errors} (${classesText(o.errorClasses)})` : '0';
  return [
    o.name === ALL_OPERATIONS ? 'all' : o.name,
    String(o.count) + (o.skipped ? ` +${o.skipped} skipped` : ''),
    o.ratePerSecond.toFixed(1),
    ...[l.minMs, l.p50Ms, l.p90Ms, l.p95Ms, l.p99Ms, l.maxMs].map(ms),
    errors,
  ];
}

/** The table per operation, latencies in ms, the whole run last. */
export function loadTable(report: LoadReport): string {
  const rows = [HEAD, ...report.operations.map(cells), ...(report.operations.length > 1 ? [cells(report.overall)] : [])];
  const widths = HEAD.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 0 || i === r.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  const said = [
    `${report.iterations} iteration${report.iterations === 1 ? '' : 's'} by ${report.vus} user${report.vus === 1 ? '' : 's'}${report.model === 'open' ? ` at ${report.ratePerSecond}/s` : ''} in ${duration(report.durationMs)}${report.shard ? ` as shard ${report.shard.index}/${report.shard.total}` : ''}${report.cancelled ? ' (cancelled)' : ''}${report.abandoned ? `; ${report.abandoned} request${report.abandoned === 1 ? '' : 's'} in flight abandoned` : ''}`,
    'latencies in ms',
  ];
  return `${rows.map(line).join('\n')}\n${said.join('; ')}\n`;
}

/** One line per threshold: `✓ GetRateQuote:p95<800ms (412.0 ms)` or `✗ … crossed: …`. */
export function thresholdLines(outcomes: readonly ThresholdOutcome[]): string {
  return outcomes.map((o) => (o.held ? `✓ threshold ${o.threshold} held (${o.measured})\n` : `✗ threshold ${o.threshold} crossed: ${o.measured}\n`)).join('');
}
