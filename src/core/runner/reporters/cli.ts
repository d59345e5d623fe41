/**
 * The terminal reporter. On a TTY one progress line is redrawn in place (throttled, so a
 * thousand fast requests do not spend their time repainting) and only failures and skips stay
 * on screen; otherwise (CI logs, pipes) every test gets one plain line. Both end with a summary.
 *
 * It writes escape sequences of its own (colours, the progress line's clear-line), so its sink
 * writes as given, and every text from outside — collection, test and file names, titles,
 * failure and warning messages, skip reasons, environment names — is made terminal-safe where it
 * is put in (`t`, core's terminalSafe in src/core/terminalText.ts): a reply holding the same
 * sequences shows them as `\u001b…`, never as colours or a cleared line.
 */
import * as path from 'node:path';
import { isFlaky, type PlannedTest, type RunObserver, type RunReport, type ShardInfo, type TestResult } from '../types';
import { terminalSafe as t } from '../../terminalText';
import { duration, failureLine, waitedLines, waitedText, type Relative } from './format';

export interface TextSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliReporterOptions {
  readonly rel: Relative;
  /** Redraw in place; defaults to the sink's isTTY. */
  readonly tty?: boolean;
  readonly color?: boolean;
  /** Minimum milliseconds between progress redraws. */
  readonly redrawMs?: number;
  /** The part of a sharded run this is (`--shard`), for the progress line. */
  readonly shard?: ShardInfo;
}

const CLEAR_LINE = '\r\x1b[2K';
/** A log's lines are written at least this often (ms), and whenever this many characters wait. */
const FLUSH_MS = 100;
const FLUSH_CHARS = 16 * 1024;

export class CliReporter implements RunObserver {
  private total = 0;
  private done = 0;
  private passed = 0;
  private failed = 0;
  private skipped = 0;
  private readonly running = new Map<string, PlannedTest>();
  private lastDraw = 0;
  private progressShown = false;
  private lastCollection: string | undefined;
  /** The data row most recently started: where a long data-driven run is. */
  private row: { readonly data: string; readonly index: number; readonly count: number } | undefined;
  private readonly tty: boolean;
  private readonly color: boolean;
  /** Lines for a log not written yet (at most FLUSH_MS old). */
  private pending = '';
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: TextSink,
    private readonly options: CliReporterOptions,
  ) {
    this.tty = options.tty ?? !!out.isTTY;
    this.color = options.color ?? this.tty;
  }

  private paint(code: string, text: string): string {
    return this.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  private line(text: string): void {
    if (this.tty && this.progressShown) {
      this.out.write(CLEAR_LINE);
      this.progressShown = false;
    }
    if (this.tty) {
      this.out.write(`${text}\n`);
      return;
    }
    // A log gets its lines in batches: one write (and one masking pass) per batch, not per test.
    this.pending += `${text}\n`;
    if (this.pending.length >= FLUSH_CHARS) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  private flush(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.out.write(text);
  }

  private draw(force = false): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < (this.options.redrawMs ?? 50)) return;
    this.lastDraw = now;
    const current = [...this.running.values()].map((test) => t(test.name));
    const shard = this.options.shard ? `shard ${this.options.shard.index}/${this.options.shard.total} ` : '';
    const row = this.row ? `${t(this.row.data)} row ${this.row.index}/${this.row.count}  ` : '';
    const head = `${shard}[${String(this.done).padStart(String(this.total).length)}/${this.total}] ${row}`;
    const counts = [`✓ ${this.passed}`, `✗ ${this.failed}`, `○ ${this.skipped}`];
    let running = current.length ? `  running ${current.length}: ${current.slice(0, 2).join(', ')}${current.length > 2 ? ', …' : ''}` : '';
    // Only the names of running tests are cut to fit; colour codes take no room on screen.
    const room = (this.out.columns ?? 120) - 1 - head.length - counts.join('  ').length;
    if (running.length > room) running = room > 1 ? `${running.slice(0, room - 1)}…` : '';
    const text = `${head}${this.paint('32', counts[0])}  ${this.paint('31', counts[1])}  ${this.paint('33', counts[2])}${running ? this.paint('2', running) : ''}`;
    this.out.write(`${CLEAR_LINE}${text}`);
    this.progressShown = true;
  }

  runStart(tests: readonly PlannedTest[]): void {
    this.total = tests.length;
    const shard = this.options.shard;
    if (shard) this.line(`shard ${shard.index}/${shard.total}: ${tests.length} of ${shard.tests} tests`);
    this.draw(true);
  }

  testStart(test: PlannedTest): void {
    this.running.set(test.id, test);
    if (test.row && (!this.row || test.row.index >= this.row.index || path.basename(test.row.file) !== this.row.data)) {
      this.row = { data: path.basename(test.row.file), index: test.row.index, count: test.row.count };
    }
    if (!this.tty && test.collection.name !== this.lastCollection) {
      this.lastCollection = test.collection.name;
      const settings = test.collection.configFiles.map((f) => t(this.options.rel(f)));
      const data = test.row ? `  (data: ${t(this.options.rel(test.row.file))}, ${test.row.count} row${test.row.count === 1 ? '' : 's'})` : '';
      this.line(
        `${this.paint('1', t(test.collection.name))}${test.collection.title ? ` — ${t(test.collection.title)}` : ''}${settings.length ? this.paint('2', `  (settings: ${settings.join(', ')})`) : ''}${data ? this.paint('2', data) : ''}`,
      );
    }
    this.draw();
  }

  testEnd(result: TestResult): void {
    this.running.delete(result.test.id);
    this.done++;
    const rel = this.options.rel;
    const name = t(result.test.name);
    const label = `${t(result.test.collection.name)}/${name}`;
    const attempts = result.attempts?.length ?? 0;
    if (isFlaky(result)) {
      this.passed++;
      // Flaky stays on screen on a terminal too: a pass the run had to ask for twice is news.
      this.line(
        `  ${this.paint('33', '✓')} ${this.tty ? label : name}  ${this.paint('33', `flaky: failed ${attempts} time${attempts === 1 ? '' : 's'}, then passed`)}  ${this.paint('2', duration(result.durationMs))}`,
      );
      for (const [i, a] of (result.attempts ?? []).entries())
        for (const f of a.failures) this.line(`      ${this.paint('2', `attempt ${i + 1}:`)} ${t(failureLine(f, rel))}`);
    } else if (result.status === 'passed') {
      this.passed++;
      if (!this.tty)
        this.line(
          `  ${this.paint('32', '✓')} ${name}  ${this.paint('2', `${duration(result.durationMs)}${result.environment ? ` · ${t(result.environment)}` : ''}${result.untilAttempts ? ` · ${waitedText(result.untilAttempts)}` : ''}`)}`,
        );
      // Contract warnings stay on screen beside a pass: a field the contract does not know is news (docs/collections.md#contract-findings).
      else if (result.warnings?.length)
        this.line(
          `  ${this.paint('32', '✓')} ${label}  ${this.paint('33', `${result.warnings.length} contract warning${result.warnings.length === 1 ? '' : 's'}`)}`,
        );
      for (const w of result.warnings ?? []) this.line(`      ${this.paint('33', '⚠')} ${t(failureLine(w, rel))}`);
    } else if (result.status === 'failed') {
      this.failed++;
      this.line(`  ${this.paint('31', '✗')} ${this.tty ? label : name}  ${this.paint('2', duration(result.durationMs))}`);
      for (const f of result.failures) this.line(`      ${t(failureLine(f, rel))}`);
      if (result.untilAttempts) for (const l of waitedLines(result.untilAttempts)) this.line(`      ${this.paint('2', t(l))}`);
      if (attempts) this.line(`      ${this.paint('2', `failed all ${attempts + 1} attempts`)}`);
      if (result.notRetried) this.line(`      ${this.paint('2', t(result.notRetried))}`);
    } else {
      this.skipped++;
      this.line(`  ${this.paint('33', '○')} ${this.tty ? label : name}  ${this.paint('2', `skipped: ${t(result.skipReason ?? '')}`)}`);
    }
    this.draw(this.done === this.total);
  }

  runEnd(report: RunReport): void {
    this.flush();
    if (this.tty && this.progressShown) {
      this.out.write(CLEAR_LINE);
      this.progressShown = false;
    }
    const s = report.summary;
    const parts = [
      // Flaky tests passed: counted among them, and apart.
      `${this.paint(s.passed ? '32' : '2', `${s.passed} passed`)}${s.flaky ? ` ${this.paint('33', `(${s.flaky} flaky)`)}` : ''}`,
      this.paint(s.failed ? '31' : '2', `${s.failed} failed`),
      this.paint(s.skipped ? '33' : '2', `${s.skipped} skipped`),
    ];
    this.out.write(`\n${s.total} test${s.total === 1 ? '' : 's'}: ${parts.join(', ')} in ${duration(s.durationMs)}\n`);
    // Right under the counts: they are not the whole run's.
    const incomplete = report.incompleteReasons ?? [];
    if (incomplete.length)
      this.out.write(
        `${this.paint('31', 'Incomplete report: not one whole run')}\n${incomplete.map((r) => `  ${this.paint('31', '✗')} ${t(r.message)}\n`).join('')}`,
      );
  }
}
