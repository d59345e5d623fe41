/**
 * `carrier run <files or folders…>`: runs request files and collections, judging each reply by
 * its `expect`, passing `capture`d values on, and reporting to the terminal, JUnit XML and JSON.
 * Exit 0 when every test passes, 1 when any fails (or is skipped because of a failure), 2 for
 * usage, file and environment errors (then nothing is sent).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALL_BINDINGS, CliReporter, createRunBackend, environmentProblems, executePlan, jsonReport, junitXml, loadRun, Redactor, relativeTo, validateRequestText, variableNameProblem, where, type Binding, type BindingChoice, type Failure, type RunObserver, type RunReport, type TestResult } from '../../core';
import { EmbeddedSandbox } from '../embeddedSandbox';
import { describeFlags, parseArgs, type FlagSpec } from '../args';
import { UsageError, type CliIo, type Command } from '../command';

const REPORTERS = ['cli', 'junit', 'json'] as const;
type ReporterName = (typeof REPORTERS)[number];
export const REPORT_FILES: Record<Exclude<ReporterName, 'cli'>, string> = { junit: 'junit.xml', json: 'report.json' };

const FLAGS: readonly FlagSpec[] = [
  { name: 'env', short: 'e', value: true, description: 'environment to run against (default: each file\'s or collection\'s, else the sandbox)' },
  { name: 'binding', short: 'b', value: true, description: `binding for every file: ${ALL_BINDINGS.join(', ')}, or all (every binding each operation offers)` },
  { name: 'concurrency', short: 'c', value: true, description: 'requests in flight at once, at most (default: each collection.json\'s concurrency, else 1)' },
  { name: 'bail', description: 'stop after the first failure (the rest are reported as skipped)' },
  { name: 'reporter', short: 'r', value: true, description: 'cli, junit, json; repeat or comma-separate for several (default cli)' },
  { name: 'out', short: 'o', value: true, description: 'folder for junit.xml and report.json (default reports/)' },
  { name: 'timeout', short: 't', value: true, description: 'milliseconds each request may take (default: the environment\'s)' },
  { name: 'var', value: true, description: 'name=value for {{name}}; repeatable (over collection and environment variables)' },
  { name: 'pass-with-no-tests', description: 'exit 0 when no test ran (by default a run where nothing ran fails)' },
];
const REPEATABLE = new Set(['reporter', 'r', 'var']);

const USAGE = [
  'Usage: carrier run [options] <files or folders…>',
  '',
  'Runs request files (*.carrier.json) and checks each reply against its "expect". A folder is a',
  'collection: its files run in natural file-name order (2 before 10), or as its collection.json',
  '"order" says; subfolders are collections of their own. Values named in "capture" fill',
  '{{variables}} of later requests; a request waits for the one that captures what it uses.',
  '',
  'A folder\'s settings are its collection.json over those of the folders above it, up to the',
  'repository root or a collection.json with "root": true, from whatever folder the run starts.',
  'Folders named node_modules or starting with "." and the report folder (--out) are never run;',
  'the run names the ones it passed by.',
  '',
  'Exit code: 0 all passed, 1 a test failed or no test ran, 2 usage, file or environment error',
  '(nothing sent). Reports from an earlier run in --out are removed first, so a run that cannot',
  'start leaves none behind.',
  '',
  'Options:',
  describeFlags(FLAGS),
].join('\n');

/** Repeatable flags first (the shared parser keeps one value per flag), the rest to parseArgs. */
function splitRepeatable(args: readonly string[]): { rest: string[]; repeated: Map<string, string[]> } {
  const rest: string[] = [];
  const repeated = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') { rest.push(...args.slice(i)); break; }
    const m = /^--?([a-z]+)(?:=(.*))?$/.exec(arg);
    if (m && REPEATABLE.has(m[1])) {
      const name = m[1] === 'r' ? 'reporter' : m[1];
      const value = m[2] ?? args[++i];
      if (value === undefined) throw new UsageError(`option --${name} needs a value`);
      repeated.set(name, [...(repeated.get(name) ?? []), value]);
      continue;
    }
    rest.push(arg);
  }
  return { rest, repeated };
}

function positiveInt(value: string | true | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < 1) throw new UsageError(`--${flag} needs a whole number of 1 or more, not "${value}"`);
  return n;
}

interface RunSettings {
  readonly inputs: string[];
  readonly environment?: string;
  readonly binding?: BindingChoice;
  readonly concurrency?: number;
  readonly bail: boolean;
  readonly reporters: ReporterName[];
  readonly out: string;
  readonly timeoutMs?: number;
  readonly variables: Record<string, string>;
  readonly passWithNoTests: boolean;
}

function readSettings(args: readonly string[], cwd: string): RunSettings {
  const { rest, repeated } = splitRepeatable(args);
  const { positionals, flags } = parseArgs(rest, FLAGS);
  if (!positionals.length) throw new UsageError('name at least one request file or folder to run');
  const binding = flags.get('binding');
  if (binding !== undefined && (typeof binding !== 'string' || (binding !== 'all' && !(ALL_BINDINGS as readonly string[]).includes(binding)))) {
    throw new UsageError(`--binding must be one of ${ALL_BINDINGS.join(', ')} or all, not "${String(binding)}"`);
  }
  const reporters = (repeated.get('reporter') ?? ['cli']).flatMap((r) => r.split(',')).map((r) => r.trim()).filter(Boolean);
  for (const r of reporters) if (!(REPORTERS as readonly string[]).includes(r)) throw new UsageError(`unknown reporter "${r}" (reporters: ${REPORTERS.join(', ')})`);
  const variables: Record<string, string> = {};
  for (const v of repeated.get('var') ?? []) {
    const m = /^([^=]*)=(.*)$/s.exec(v);
    if (!m) throw new UsageError(`--var needs name=value, not "${v}"`);
    const nameProblem = variableNameProblem(m[1]);
    if (nameProblem) throw new UsageError(`--var ${v}: ${nameProblem}`);
    variables[m[1]] = m[2];
  }
  const env = flags.get('env');
  const out = flags.get('out');
  if (env === true || out === true) throw new UsageError('--env and --out need a value');
  const outDir = path.resolve(cwd, out ?? 'reports');
  // Found now, not after every request was sent.
  const outStat = safeStat(outDir);
  if (outStat && !outStat.isDirectory()) throw new UsageError(`--out ${out ?? 'reports'} is a file; it must be a folder for the reports`);
  return {
    inputs: positionals,
    ...(env !== undefined ? { environment: env } : {}),
    ...(binding !== undefined ? { binding: binding as Binding | 'all' } : {}),
    ...(flags.has('concurrency') ? { concurrency: positiveInt(flags.get('concurrency'), 'concurrency') } : {}),
    bail: flags.has('bail'),
    reporters: [...new Set(reporters)] as ReporterName[],
    out: outDir,
    ...(flags.has('timeout') ? { timeoutMs: positiveInt(flags.get('timeout'), 'timeout') } : {}),
    variables,
    passWithNoTests: flags.has('pass-with-no-tests'),
  };
}

function safeStat(file: string): fs.Stats | undefined {
  try { return fs.statSync(file); } catch { return undefined; }
}

/** Reports of an earlier run, gone before this one starts: CI must never publish an old green. */
function removeStaleReports(settings: RunSettings): void {
  for (const r of settings.reporters) if (r !== 'cli') fs.rmSync(path.join(settings.out, REPORT_FILES[r]), { force: true });
}

/** `path:line:col: error: message`, as `carrier validate` prints findings. */
function problemLine(p: Failure, rel: (f: string) => string, severity: 'error' | 'warning' = 'error'): string {
  return `${p.location ? `${where(p.location, rel)}: ` : ''}${severity}: ${p.message}\n`;
}

/** What finished before an internal error, as a report: the tests that ran are not lost. */
function partialReport(results: readonly TestResult[], problems: readonly Failure[], started: number): RunReport {
  const count = (s: TestResult['status']) => results.filter((r) => r.status === s).length;
  return {
    summary: { total: results.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), durationMs: Date.now() - started, startedAt: new Date(started).toISOString() },
    results,
    problems: [...problems, { kind: 'file', message: 'the run stopped on an internal error; these are the tests that finished before it' }],
  };
}

/** The terminal, for the CLI reporter: redraws only when stdout is a real TTY. */
function terminalOf(io: CliIo): { isTTY: boolean; columns?: number } {
  return { isTTY: io.isTTY === true, ...(io.columns ? { columns: io.columns } : {}) };
}

function writeReports(report: RunReport, settings: RunSettings, io: CliIo, rel: (f: string) => string, mask: (text: string) => string): string[] {
  const written: string[] = [];
  for (const r of settings.reporters) {
    if (r === 'cli') continue;
    fs.mkdirSync(settings.out, { recursive: true });
    const file = path.join(settings.out, REPORT_FILES[r]);
    fs.writeFileSync(file, mask(r === 'junit' ? junitXml(report, rel) : jsonReport(report, rel)));
    written.push(file);
  }
  if (written.length) io.stdout(`Reports: ${written.map((f) => rel(f)).join(', ')}\n`);
  return written;
}

export const run: Command = {
  name: 'run',
  summary: 'run request files and collections as tests (expect, capture, JUnit/JSON reports)',
  usage: USAGE,
  async run(args, io) {
    const settings = readSettings(args, io.cwd);
    removeStaleReports(settings);
    const rel = relativeTo(io.cwd);
    const plan = loadRun(settings.inputs, {
      baseDir: io.cwd,
      ...(settings.binding ? { binding: settings.binding } : {}),
      validate: (text, fileName) => validateRequestText(text, fileName).findings,
      exclude: [settings.out],
    });
    for (const w of plan.warnings) io.stderr(problemLine(w, rel, 'warning'));
    if (plan.skippedFolders.length) {
      io.stderr(`carrier run: not run: ${plan.skippedFolders.map((f) => `${rel(f)}/`).join(', ')} (node_modules, folders starting with "." and the report folder never run; name one to run it)\n`);
    }
    if (plan.problems.length) {
      for (const p of plan.problems) io.stderr(problemLine(p, rel));
      io.stderr(`carrier run: ${plan.problems.length} problem${plan.problems.length === 1 ? '' : 's'} in the files to run; nothing was sent\n`);
      return 2;
    }
    const sandbox = new EmbeddedSandbox();
    // Environments from the repository of what is run, whatever the working directory (environments/where.ts).
    const starts = [...new Set(plan.tests.map((t) => t.collection.folder)), io.cwd];
    const backend = createRunBackend({ environmentsFrom: starts, env: io.env, embeddedUrl: () => sandbox.url() });
    try {
      const envProblems = [...backend.problems, ...environmentProblems(plan, { backend, ...(settings.environment ? { environment: settings.environment } : {}) })];
      if (envProblems.length) {
        for (const p of envProblems) io.stderr(problemLine(p, rel));
        return 2;
      }
      // Every environment of the run is resolved now. Masking is the last step of every text the
      // run prints or writes, so a secret escaped, quoted or encoded along the way is still found.
      const masker = new Redactor(backend.secretValues(), { derived: true });
      const mask = (text: string) => masker.text(text);
      const shown: CliIo = { ...io, stdout: (t) => io.stdout(mask(t)), stderr: (t) => io.stderr(mask(t)) };
      const observers: RunObserver[] = [];
      if (settings.reporters.includes('cli')) {
        const term = terminalOf(io);
        observers.push(new CliReporter({ write: (t) => shown.stdout(t), ...term }, { rel, tty: term.isTTY, color: term.isTTY && !io.env.NO_COLOR }));
      }
      // Kept as they finish, so an internal error still leaves the reports of what ran.
      const finished: TestResult[] = [];
      const started = Date.now();
      const observer: RunObserver = {
        runStart: (t) => observers.forEach((o) => o.runStart?.(t)),
        testStart: (t) => observers.forEach((o) => o.testStart?.(t)),
        testEnd: (r) => { finished.push(r); observers.forEach((o) => o.testEnd?.(r)); },
        runEnd: (r) => observers.forEach((o) => o.runEnd?.(r)),
      };
      const abort = new AbortController();
      const onSigint = () => abort.abort();
      process.once('SIGINT', onSigint);
      let report: RunReport;
      try {
        report = await executePlan(plan, {
          backend,
          bail: settings.bail,
          signal: abort.signal,
          ...(settings.concurrency !== undefined ? { concurrency: settings.concurrency } : {}),
          ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
          ...(settings.environment ? { environment: settings.environment } : {}),
          variables: settings.variables,
        }, observer);
      } catch (err) {
        writeReports(partialReport(finished, plan.problems, started), settings, shown, rel, mask);
        throw err;
      } finally {
        process.off('SIGINT', onSigint);
      }
      writeReports(report, settings, shown, rel, mask);
      // Skipped for a binding the operation lacks is not a failure; skipped because of one is
      // already counted as that failure; a cancelled run did not pass; nothing run is no pass.
      const cancelled = report.results.some((r) => r.skipReason === 'cancelled');
      const ran = report.summary.passed + report.summary.failed;
      if (!ran && !settings.passWithNoTests) {
        shown.stderr(`carrier run: no tests ran (${report.summary.skipped} skipped); --pass-with-no-tests accepts that\n`);
        return 1;
      }
      return report.summary.failed > 0 || cancelled ? 1 : 0;
    } finally {
      await backend.close?.();
      await sandbox.close();
    }
  },
};
