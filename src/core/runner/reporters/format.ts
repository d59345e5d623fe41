/** Text shared by the reporters: failures with their locations, durations, relative paths. */
import * as path from 'node:path';
import type { Failure, SourceLocation, UntilAttempts } from '../types';

export type Relative = (file: string) => string;

/** Paths a Relative remembers: every report asks for each test's file several times. */
const REMEMBERED_PATHS = 100_000;

export function relativeTo(baseDir: string): Relative {
  const known = new Map<string, string>();
  const base = path.resolve(baseDir);
  const inside = base.endsWith(path.sep) ? base : base + path.sep;
  return (file) => {
    let shown = known.get(file);
    if (shown === undefined) {
      // A file below the base, its path already plain (no `.` or `..` segment, no doubled
      // separator), is the rest of its path: path.relative would resolve both sides again.
      const plain =
        file.startsWith(inside) &&
        !file.endsWith(path.sep) &&
        !file.includes(`${path.sep}.`, inside.length - 1) &&
        !file.includes(path.sep + path.sep, inside.length - 1);
      const rel = plain ? file.slice(inside.length) : path.relative(baseDir, file);
      shown = (rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file).split(path.sep).join('/');
      if (known.size >= REMEMBERED_PATHS) known.clear();
      known.set(file, shown);
    }
    return shown;
  };
}

export function where(loc: SourceLocation | undefined, rel: Relative): string {
  return loc ? `${rel(loc.file)}:${loc.line}:${loc.column}` : '';
}

/** `file:line:col  message` (the location first, so terminals make it a link). */
export function failureLine(f: Failure, rel: Relative): string {
  const at = where(f.location, rel);
  return at ? `${at}  ${f.message}` : f.message;
}

/** Every failure, with expected/actual where the message alone would be cut short. */
export function failureDetails(failures: readonly Failure[], rel: Relative): string {
  return failures
    .map((f) => {
      const lines = [failureLine(f, rel)];
      if (f.path) lines.push(`  reply path: ${f.path}`);
      if (f.expected !== undefined) lines.push(`  expected:   ${f.expected}`);
      if (f.actual !== undefined) lines.push(`  actual:     ${f.actual}`);
      return lines.join('\n');
    })
    .join('\n');
}

export function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms - m * 60_000) / 1000)} s`;
}

/** A test that waited (`retry`), in brief: `attempt 3 of 10` (the console and the Test Explorer's output). */
export function waitedText(w: UntilAttempts): string {
  return `attempt ${w.each.length} of ${w.max}${w.heldAt !== undefined ? '' : w.cancelled ? ', cancelled' : ', until never held'}`;
}

/** The last few attempts of a test that waited (a thousand attempts would bury the failure). */
export function waitedLines(w: UntilAttempts): string[] {
  const shown = w.each.slice(-WAITED_LINES);
  const lines = shown.map(
    (a) =>
      `attempt ${a.number} of ${w.max}: ${a.verdict}${a.durationMs !== undefined ? `, ${duration(a.durationMs)}` : ''}${a.held ? ', until held' : ''}${a.note && !a.held ? ` — ${a.note}` : ''}`,
  );
  return w.each.length > shown.length ? [`${w.each.length - shown.length} earlier attempts not shown`, ...lines] : lines;
}
const WAITED_LINES = 5;
