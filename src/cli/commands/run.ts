/**
 * `carrier run <files or folders…>`: runs request files and collections, judging each reply by
 * its `expect`, passing `capture`d values on, and reporting to the terminal, JUnit XML and JSON.
 * Exit 0 when every test passes, 1 when any fails (or is skipped because of a failure), 2 for
 * usage, file and environment errors (then nothing is sent).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TranscriptSpill } from '../../host';
import { JsonReportParts, JunitReportParts } from '../reportParts';
import { commandContext } from '../context';
import {
  ALL_BINDINGS,
  CliReporter,
  createRunBackend,
  emptyVariableProblems,
  environmentProblems,
  executePlan,
  linearPattern,
  readTextFile,
  selectByName,
  selectFailed,
  selectWhere,
  tagFilter,
  htmlReport,
  jsonReportHead,
  jsonTestPart,
  JSON_REPORT_END,
  JSON_TEST_SEPARATOR,
  HeldTranscripts,
  junitXml,
  loadRun,
  parseRunReport,
  parseShard,
  Redactor,
  relativeId,
  relativeTo,
  shardPlan,
  validateRequestText,
  variableProblems,
  where,
  type Binding,
  type BindingChoice,
  type CoreContext,
  type Matcher,
  type TestFilter,
  type TestSelection,
  type Failure,
  type PlannedTest,
  type Relative,
  type RunObserver,
  type RunReport,
  type ShardInfo,
  type ShardSpec,
  type TestResult,
} from '../../core';
import { EmbeddedSandbox } from '../embeddedSandbox';
import { runFingerprint } from '../runFingerprint';
import { describeFlags, listFlag, parseArgs, type FlagSpec } from '../args';
import { UsageError, type CliIo, type Command } from '../command';
import { SUMMARIES } from './summaries';

export const REPORTERS = ['cli', 'junit', 'json', 'html'] as const;
export type ReporterName = (typeof REPORTERS)[number];
export const REPORT_FILES: Record<Exclude<ReporterName, 'cli'>, string> = { junit: 'junit.xml', json: 'report.json', html: 'report.html' };

const FLAGS: readonly FlagSpec[] = [
  { name: 'env', short: 'e', value: true, description: "environment to run against (default: each file's or collection's, else the sandbox)" },
  { name: 'binding', short: 'b', value: true, description: `binding for every file: ${ALL_BINDINGS.join(', ')}, or all (every binding each operation offers)` },
  { name: 'concurrency', short: 'c', value: true, description: "requests in flight at once, at most (default: each collection.json's concurrency, else 1)" },
  { name: 'bail', description: 'stop after the first failure (the rest are reported as skipped)' },
  { name: 'reporter', short: 'r', value: true, repeatable: true, description: 'cli, junit, json, html; repeat or comma-separate for several (default cli)' },
  { name: 'out', short: 'o', value: true, description: 'folder for junit.xml, report.json and report.html (default reports/)' },
  {
    name: 'data',
    value: true,
    description: 'a .csv (header row) or .json array of objects: every file runs once per row, the columns as {{variables}} (over collection.json "data")',
  },
  { name: 'shard', value: true, description: 'i/n: run part i of n (CI machines); capture chains and collections whose order matters stay whole' },
  { name: 'durations', value: true, description: 'an earlier report.json: balance --shard by its test durations instead of test counts' },
  { name: 'timeout', short: 't', value: true, description: "milliseconds each request may take (default: the environment's)" },
  {
    name: 'var',
    value: true,
    variables: true,
    repeatable: true,
    description: 'name=value for {{name}}; repeatable (over collection and environment variables)',
  },
  { name: 'grep', value: true, description: 'run only the tests whose name matches this pattern (and the tests whose captures they use)' },
  {
    name: 'last-failed',
    value: true,
    description: 'an earlier report.json: run only the tests that failed in it (and the tests whose captures they use)',
  },
  {
    name: 'tag',
    value: true,
    repeatable: true,
    description: "run only the tests with this tag (several: any of them); '!slow' leaves out the tests tagged slow; with --grep or --last-failed, of those",
  },
  {
    name: 'retries',
    value: true,
    description: 'run a failed test again up to this many times (over collection.json "retries"); one that then passes is flaky, and passes',
  },
  { name: 'fail-on-flaky', description: 'a flaky test (failed, then passed when run again) fails the run' },
  { name: 'pass-with-no-tests', description: 'exit 0 when no test ran (by default a run where nothing ran fails)' },
  { name: 'strict-contract', description: 'contract warnings (an element the contract does not know, order) fail tests too; contract errors always do' },
  {
    name: 'update-snapshots',
    description: "write each test's reply as its snapshot in __snapshots__/ beside its file (differences accepted); later runs compare with it",
  },
  { name: 'ci', description: 'a missing snapshot fails instead of being written (also when the environment has CI=true)' },
];

const USAGE = [
  'Usage: carrier run [options] <files or folders…>',
  '',
  'Runs request files (*.carrier.json) and checks each reply against its "expect". A folder is a',
  'collection: its files run in natural file-name order (2 before 10), or as its collection.json',
  '"order" says; subfolders are collections of their own. Values named in "capture" fill',
  '{{variables}} of later requests; a request waits for the one that captures what it uses.',
  '',
  "A folder's settings are its collection.json over those of the folders above it, up to the",
  'repository root or a collection.json with "root": true, from whatever folder the run starts.',
  'Folders named node_modules or starting with "." and the report folder (--out) are never run;',
  'the run names the ones it passed by.',
  '',
  'A collection.json "data" (or --data) names a .csv with a header row or a .json array of objects:',
  'each file runs once per row, the columns as {{variables}}; each row is its own test,',
  '"file [binding] [row 3: Tampa]" (the "name" column, else the row number). --shard i/n runs part i',
  'of n so that n CI machines run every test once; chains of captures and collections whose order',
  'matters ("order", "keepTogether") stay in one shard. Merge the shards\' report.json files with',
  '"carrier report".',
  '',
  'Exit code: 0 all passed, 1 a test failed or no test ran, 2 usage, file or environment error',
  '(nothing sent). Reports from an earlier run in --out are removed first, so a run that cannot',
  'start leaves none behind.',
  '',
  'Options:',
  describeFlags(FLAGS),
].join('\n');

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
  readonly strictContract: boolean;
  readonly data?: string;
  readonly shard?: ShardSpec;
  readonly durations?: string;
  /** `--grep`: only the tests whose name it matches (src/core/runner/select.ts). */
  readonly grep?: { readonly source: string; readonly matcher: Matcher };
  /** `--last-failed`: an earlier report.json, whose failed tests alone run. */
  readonly lastFailed?: string;
  /** `--tag`: as given, and the tests they take (select.ts tagFilter). */
  readonly tags?: { readonly given: readonly string[]; readonly filter: TestFilter };
  /** `--retries`: over every collection's `retries`. */
  readonly retries?: number;
  readonly failOnFlaky: boolean;
  /** `--update-snapshots`: every test's reply written as its snapshot. */
  readonly updateSnapshots: boolean;
  /** `--ci` or CI=true: a missing snapshot fails. */
  readonly ci: boolean;
}

function readSettings(args: readonly string[], cwd: string, processEnv: CliIo['env']): RunSettings {
  const parsed = parseArgs(args, FLAGS);
  const { positionals, flags, variables } = parsed;
  if (!positionals.length) throw new UsageError('name at least one request file or folder to run');
  const binding = flags.get('binding');
  if (binding !== undefined && (typeof binding !== 'string' || (binding !== 'all' && !(ALL_BINDINGS as readonly string[]).includes(binding)))) {
    throw new UsageError(`--binding must be one of ${ALL_BINDINGS.join(', ')} or all, not "${String(binding)}"`);
  }
  const reporters = listFlag(parsed, 'reporter', ['cli']);
  for (const r of reporters)
    if (!(REPORTERS as readonly string[]).includes(r)) throw new UsageError(`unknown reporter "${r}" (reporters: ${REPORTERS.join(', ')})`);
  const env = flags.get('env');
  const out = flags.get('out');
  if (env === true || out === true) throw new UsageError('--env and --out need a value');
  const data = flags.get('data');
  const shardText = flags.get('shard');
  const durations = flags.get('durations');
  const shard = typeof shardText === 'string' ? parseShard(shardText) : undefined;
  if (typeof shard === 'string') throw new UsageError(shard);
  if (durations !== undefined && !shard) throw new UsageError('--durations balances --shard; give --shard i/n with it');
  const grep = flags.get('grep');
  const lastFailed = flags.get('last-failed');
  if (grep === true || lastFailed === true) throw new UsageError('--grep and --last-failed need a value');
  if (grep !== undefined && lastFailed !== undefined) throw new UsageError('choose the tests one way: --grep or --last-failed');
  let matcher: Matcher | undefined;
  if (grep !== undefined) {
    try {
      matcher = linearPattern(grep);
    } catch (e) {
      throw new UsageError(`--grep ${grep}: ${(e as Error).message}`);
    }
  }
  const tagValues = listFlag(parsed, 'tag');
  const filter = tagValues.length ? tagFilter(tagValues) : undefined;
  if (typeof filter === 'string') throw new UsageError(filter);
  const retriesText = flags.get('retries');
  if (retriesText !== undefined && (typeof retriesText !== 'string' || !/^\d+$/.test(retriesText)))
    throw new UsageError(`--retries needs a whole number of 0 or more, not "${String(retriesText)}"`);
  if (data !== undefined && !safeStat(path.resolve(cwd, String(data)))?.isFile()) throw new UsageError(`--data ${String(data)}: no such file`);
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
    variables: { ...variables },
    passWithNoTests: flags.has('pass-with-no-tests'),
    strictContract: flags.has('strict-contract'),
    ...(typeof data === 'string' ? { data } : {}),
    ...(shard ? { shard } : {}),
    ...(typeof durations === 'string' ? { durations: path.resolve(cwd, durations) } : {}),
    ...(grep !== undefined && matcher ? { grep: { source: grep, matcher } } : {}),
    ...(lastFailed !== undefined ? { lastFailed: path.resolve(cwd, lastFailed) } : {}),
    ...(filter ? { tags: { given: tagValues, filter } } : {}),
    ...(typeof retriesText === 'string' ? { retries: Number(retriesText) } : {}),
    failOnFlaky: flags.has('fail-on-flaky'),
    updateSnapshots: flags.has('update-snapshots'),
    ci: flags.has('ci') || processEnv.CI === 'true',
  };
}

/** A report may be large (a run of thousands of tests with its exchanges): read whole up to this. */
const MAX_REPORT_BYTES = 512 * 1024 * 1024;

/** The part of the run --grep, --last-failed and --tag choose, said on stderr; undefined: the whole run. */
function chooseTests(settings: RunSettings, tests: readonly PlannedTest[], context: CoreContext, io: CliIo, rel: Relative): TestSelection | undefined {
  let chosen: TestSelection;
  let rule: string;
  const tags = settings.tags;
  const tagRule = tags ? tags.given.map((t) => `--tag ${t}`).join(' ') : '';
  if (settings.grep) {
    chosen = selectByName(tests, settings.grep.matcher, tags?.filter);
    rule = [`--grep /${settings.grep.source}/`, tagRule].filter(Boolean).join(' ');
  } else if (settings.lastFailed) {
    let text: string;
    try {
      text = readTextFile(context, settings.lastFailed, MAX_REPORT_BYTES);
    } catch (e) {
      throw new UsageError(`--last-failed: cannot read ${rel(settings.lastFailed)}: ${(e as Error).message}`);
    }
    const parsed = parseRunReport(text, io.cwd);
    if ('problem' in parsed) throw new UsageError(`--last-failed ${rel(settings.lastFailed)}: ${parsed.problem}`);
    const failed = selectFailed(tests, parsed.report, (id) => relativeId(id, rel), tags?.filter);
    chosen = failed;
    rule = [`--last-failed ${rel(settings.lastFailed)}`, tagRule].filter(Boolean).join(' ');
    if (failed.missing)
      io.stderr(
        `carrier run: ${failed.missing} test${failed.missing === 1 ? '' : 's'} that failed in ${rel(settings.lastFailed)} ${failed.missing === 1 ? 'is' : 'are'} not in this run\n`,
      );
  } else if (tags) {
    chosen = selectWhere(tests, tags.filter);
    rule = tagRule;
  } else return undefined;
  const plural = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
  io.stderr(
    `carrier run: ${rule} chose ${chosen.chosen} of ${plural(tests.length)}` +
      (chosen.producers ? `, and ${plural(chosen.producers)} whose captures they use` : '') +
      `; ${chosen.leftOut} left out\n`,
  );
  return chosen;
}

/** Durations by test id from an earlier report.json, for --shard --durations. */
function readDurations(file: string, cwd: string, rel: Relative): (test: PlannedTest) => number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--durations: cannot read ${file}: ${(e as Error).message}`);
  }
  const parsed = parseRunReport(text, cwd);
  if ('problem' in parsed) throw new UsageError(`--durations ${rel(file)}: ${parsed.problem}`);
  const byId = new Map<string, number>();
  for (const r of parsed.report.results) if (r.status !== 'skipped') byId.set(relativeId(r.test.id, rel), r.durationMs);
  return (test) => byId.get(relativeId(test.id, rel));
}

function safeStat(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

/** Reports of an earlier run, gone before this one starts: CI must never publish an old green. */
function removeStaleReports(settings: RunSettings): void {
  for (const r of settings.reporters) {
    if (r === 'cli') continue;
    // unlink, not rmSync: that loads its whole recursive remover (half a millisecond) to remove a file.
    try {
      fs.unlinkSync(path.join(settings.out, REPORT_FILES[r]));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}

/** `path:line:col: error: message`, as `carrier validate` prints findings. */
function problemLine(p: Failure, rel: (f: string) => string, severity: 'error' | 'warning' = 'error'): string {
  return `${p.location ? `${where(p.location, rel)}: ` : ''}${severity}: ${p.message}\n`;
}

/** What finished before an internal error, as a report: the tests that ran are not lost. */
function partialReport(results: readonly TestResult[], problems: readonly Failure[], started: number): RunReport {
  const count = (s: TestResult['status']) => results.filter((r) => r.status === s).length;
  return {
    summary: {
      total: results.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      durationMs: Date.now() - started,
      startedAt: new Date(started).toISOString(),
    },
    results,
    problems: [...problems, { kind: 'file', message: 'the run stopped on an internal error; these are the tests that finished before it' }],
  };
}

/** The terminal, for the CLI reporter: redraws only when stdout is a real TTY. */
function terminalOf(io: CliIo): { isTTY: boolean; columns?: number } {
  return { isTTY: io.isTTY === true, ...(io.columns ? { columns: io.columns } : {}) };
}

/** Bytes of the JSON report gathered before a write. */
const REPORT_BATCH_BYTES = 256 * 1024;

/**
 * The report files of `reporters` in `out`, every text through `mask`, the run's final masking.
 * `parts`, `cases`: the JSON report's test parts and the JUnit report's testcases made as the
 * tests ended (src/cli/reportParts.ts).
 */
export function writeReportFiles(
  report: RunReport,
  reporters: readonly ReporterName[],
  out: string,
  io: CliIo,
  rel: Relative,
  mask: (text: string) => string,
  title?: string,
  parts?: JsonReportParts,
  cases?: JunitReportParts,
): string[] {
  const written: string[] = [];
  for (const r of reporters) {
    if (r === 'cli') continue;
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, REPORT_FILES[r]);
    // The HTML report masks its page itself, before it takes the hashes its policy allows.
    if (r === 'json') {
      writeJsonReport(file, report, rel, mask, parts);
      written.push(file);
      continue;
    }
    const text = r === 'html' ? htmlReport(report, rel, { mask, ...(title ? { title } : {}) }) : mask(junitXml(report, rel, undefined, cases?.caseOf));
    fs.writeFileSync(file, text);
    written.push(file);
  }
  if (written.length) io.stdout(`Reports: ${written.map((f) => rel(f)).join(', ')}\n`);
  return written;
}

/**
 * report.json: masked part by part (a secret never spans two tests), each test's part as it was
 * made when the test ended where there is one, copied into one buffer written when full: one
 * write per many tests rather than one each, never the whole report in memory, and no part held
 * past its copy (the scratch store reads each into the window the next one reuses).
 */
function writeJsonReport(file: string, report: RunReport, rel: Relative, mask: (text: string) => string, parts: JsonReportParts | undefined): void {
  const fd = fs.openSync(file, 'w');
  try {
    const out = Buffer.allocUnsafe(REPORT_BATCH_BYTES);
    let used = 0;
    const add = (bytes: Buffer) => {
      if (bytes.length > out.length - used) {
        writeAll(fd, out.subarray(0, used));
        used = 0;
      }
      if (bytes.length > out.length) writeAll(fd, bytes);
      else used += bytes.copy(out, used);
    };
    const { results } = report;
    add(Buffer.from(mask(`${jsonReportHead(report, rel)}${results.length ? '\n' : ''}`)));
    const separator = Buffer.from(JSON_TEST_SEPARATOR);
    for (let i = 0; i < results.length; i++) {
      add(parts?.partOf(results[i]) ?? Buffer.from(mask(jsonTestPart(results[i], rel))));
      if (i < results.length - 1) add(separator);
    }
    add(Buffer.from(results.length ? `\n${JSON_REPORT_END}` : ']\n}\n'));
    writeAll(fd, out.subarray(0, used));
  } finally {
    fs.closeSync(fd);
  }
}

/** Every byte of `bytes`: a write may take fewer than asked. */
function writeAll(fd: number, bytes: Buffer): void {
  for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}

function writeReports(
  report: RunReport,
  settings: RunSettings,
  io: CliIo,
  rel: Relative,
  mask: (text: string) => string,
  parts?: JsonReportParts,
  cases?: JunitReportParts,
): string[] {
  return writeReportFiles(report, settings.reporters, settings.out, io, rel, mask, undefined, parts, cases);
}

/**
 * The snapshots written, updated or found different, said after the reports: a snapshot written
 * is never a silent pass (docs/collections.md#snapshots).
 */
function saySnapshots(report: RunReport, io: CliIo, rel: Relative): void {
  const by = new Map<string, string[]>();
  for (const r of report.results) {
    if (!r.snapshot) continue;
    const list = by.get(r.snapshot.status) ?? [];
    list.push(r.snapshot.file);
    by.set(r.snapshot.status, list);
  }
  if (!by.size) return;
  for (const status of ['written', 'updated'] as const) for (const file of by.get(status) ?? []) io.stdout(`Snapshot ${status}: ${rel(file)}\n`);
  const parts = (['matched', 'written', 'updated', 'differs', 'missing'] as const).filter((s) => by.has(s)).map((s) => `${by.get(s)!.length} ${s}`);
  io.stdout(`Snapshots: ${parts.join(', ')}\n`);
  if (by.has('differs')) io.stdout('A snapshot that differs fails its test; when the new reply is right, accept it with carrier run --update-snapshots\n');
}

export const run: Command = {
  name: 'run',
  summary: SUMMARIES.run,
  usage: USAGE,
  async run(args, io) {
    const settings = readSettings(args, io.cwd, io.env);
    removeStaleReports(settings);
    const rel = relativeTo(io.cwd);
    const context = commandContext(io);
    const whole = loadRun(context, settings.inputs, {
      baseDir: io.cwd,
      ...(settings.binding ? { binding: settings.binding } : {}),
      // --env sends every file there, so each is checked against that environment's stored contract.
      validate: (text, fileName) =>
        validateRequestText(text, fileName, { context, ...(settings.environment ? { environment: settings.environment } : {}) }).findings,
      exclude: [settings.out],
      ...(settings.environment ? { environment: settings.environment } : {}),
      ...(settings.data !== undefined ? { data: settings.data } : {}),
    });
    // Every shard checks the whole run's files, so a broken file fails every machine alike.
    const sharded = settings.shard
      ? shardPlan(whole, settings.shard, settings.durations ? { duration: readDurations(settings.durations, io.cwd, rel) } : {})
      : undefined;
    const plan = sharded?.plan ?? whole;
    const shard: ShardInfo | undefined = sharded?.info;
    const selection = chooseTests(settings, plan.tests, context, io, rel);
    if (selection && settings.lastFailed && !selection.chosen) {
      io.stdout(`carrier run: nothing failed in ${rel(settings.lastFailed)} that this run has: nothing to rerun\n`);
      return 0;
    }
    for (const w of whole.warnings) io.stderr(problemLine(w, rel, 'warning'));
    if (plan.skippedFolders.length) {
      io.stderr(
        `carrier run: not run: ${plan.skippedFolders.map((f) => `${rel(f)}/`).join(', ')} (node_modules, folders starting with "." and the report folder never run; name one to run it)\n`,
      );
    }
    if (plan.problems.length) {
      for (const p of plan.problems) io.stderr(problemLine(p, rel));
      io.stderr(`carrier run: ${plan.problems.length} problem${plan.problems.length === 1 ? '' : 's'} in the files to run; nothing was sent\n`);
      return 2;
    }
    const sandbox = new EmbeddedSandbox();
    // Environments from the repository of what is run, whatever the working directory (environments/where.ts).
    const starts = [...new Set(plan.tests.map((t) => t.collection.folder)), io.cwd];
    const backend = createRunBackend({ context, environmentsFrom: starts, embeddedUrl: (environment) => sandbox.url(environment) });
    const keepTranscripts = settings.reporters.includes('json') || settings.reporters.includes('html');
    // The HTML report reads every transcript at the end: kept outside the heap till then. The JSON
    // report alone takes each as its test ends (reportParts.ts) and needs it no longer.
    const transcriptStore = settings.reporters.includes('html') ? new TranscriptSpill() : keepTranscripts ? new HeldTranscripts() : undefined;
    let jsonParts: JsonReportParts | undefined;
    let junitCases: JunitReportParts | undefined;
    try {
      const envProblems = [
        ...backend.problems,
        ...environmentProblems(plan, { backend, ...(settings.environment ? { environment: settings.environment } : {}) }),
      ];
      if (envProblems.length) {
        for (const p of envProblems) io.stderr(problemLine(p, rel));
        return 2;
      }
      const unknown = variableProblems(whole, {
        backend,
        variables: settings.variables,
        ...(settings.environment ? { environment: settings.environment } : {}),
      });
      if (unknown.length) {
        // Masked: a message lists the columns, and an environment may mark one secret.
        const early = new Redactor(backend.secretValues(), { derived: true });
        for (const p of unknown) io.stderr(early.text(problemLine(p, rel)));
        io.stderr(`carrier run: ${unknown.length} {{variable}}${unknown.length === 1 ? '' : 's'} nothing defines; nothing was sent\n`);
        return 2;
      }
      // Beside it: an expectation a known empty value empties checks nothing (docs/collections.md#expect).
      const emptied = emptyVariableProblems(whole, {
        backend,
        variables: settings.variables,
        ...(settings.environment ? { environment: settings.environment } : {}),
      });
      if (emptied.length) {
        const early = new Redactor(backend.secretValues(), { derived: true });
        for (const p of emptied) io.stderr(early.text(problemLine(p, rel)));
        io.stderr(`carrier run: ${emptied.length} expectation${emptied.length === 1 ? '' : 's'} an empty {{variable}} empties; nothing was sent\n`);
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
        // On a TTY the reporter writes its own colours and clear-lines, so it writes as given and
        // makes what it puts in terminal-safe itself; a log goes through the safe stdout as well.
        const terminal = io.terminal ?? io.stdout;
        const write = term.isTTY ? (t: string) => terminal(mask(t)) : shown.stdout;
        observers.push(new CliReporter({ write, ...term }, { rel, tty: term.isTTY, color: term.isTTY && !io.env.NO_COLOR, ...(shard ? { shard } : {}) }));
      }
      if (settings.reporters.includes('json')) {
        jsonParts = new JsonReportParts(rel, mask, transcriptStore instanceof HeldTranscripts ? transcriptStore : undefined);
        observers.push(jsonParts);
      }
      if (settings.reporters.includes('junit')) {
        junitCases = new JunitReportParts(rel);
        observers.push(junitCases);
      }
      // Kept as they finish, so an internal error still leaves the reports of what ran.
      const finished: TestResult[] = [];
      const started = Date.now();
      const observer: RunObserver = {
        runStart: (t) => observers.forEach((o) => o.runStart?.(t)),
        testStart: (t) => observers.forEach((o) => o.testStart?.(t)),
        testEnd: (r) => {
          finished.push(r);
          observers.forEach((o) => o.testEnd?.(r));
        },
        runEnd: (r) => observers.forEach((o) => o.runEnd?.(r)),
      };
      // What was run, for carrier report to tell shards of different runs apart: only report.json keeps it.
      const run = settings.reporters.includes('json')
        ? runFingerprint(settings, { repository: path.resolve(io.cwd, settings.inputs[0]), cwd: io.cwd, env: io.env })
        : undefined;
      const abort = new AbortController();
      const onSigint = () => abort.abort();
      process.once('SIGINT', onSigint);
      let report: RunReport;
      try {
        report = await executePlan(
          plan,
          {
            backend,
            bail: settings.bail,
            strictContract: settings.strictContract,
            signal: abort.signal,
            ...(settings.concurrency !== undefined ? { concurrency: settings.concurrency } : {}),
            ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
            ...(settings.environment ? { environment: settings.environment } : {}),
            variables: settings.variables,
            ...(selection ? { only: selection.ids } : {}),
            ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
            // Read and written through the context's files (docs/collections.md#snapshots).
            snapshots: { files: context.files, update: settings.updateSnapshots, ci: settings.ci },
            transcripts: keepTranscripts,
            // Outside the heap until the reports are written: a run of thousands of tests holds none.
            ...(transcriptStore ? { transcriptStore } : {}),
          },
          observer,
        );
      } catch (err) {
        writeReports(
          { ...partialReport(finished, plan.problems, started), ...(shard ? { shard } : {}), ...(run ? { run } : {}) },
          settings,
          shown,
          rel,
          mask,
          jsonParts,
          junitCases,
        );
        throw err;
      } finally {
        process.off('SIGINT', onSigint);
      }
      if (shard) report = { ...report, shard };
      if (run) report = { ...report, run };
      writeReports(report, settings, shown, rel, mask, jsonParts, junitCases);
      saySnapshots(report, shown, rel);
      // Skipped for a binding the operation lacks is not a failure; skipped because of one is
      // already counted as that failure; a cancelled run did not pass; nothing run is no pass.
      const cancelled = report.results.some((r) => r.skipReason === 'cancelled');
      const ran = report.summary.passed + report.summary.failed;
      if (sharded && !plan.tests.length && whole.tests.length) {
        // The run has tests; the deal gave this machine none (more shards than units of work).
        shown.stdout(
          `carrier run: shard ${sharded.info.index}/${sharded.info.total} has no tests: the run's ${whole.tests.length} tests make ${sharded.units} unit${sharded.units === 1 ? '' : 's'} that stay whole, fewer than ${sharded.info.total} shards\n`,
        );
        return 0;
      }
      if (!ran && !settings.passWithNoTests) {
        shown.stderr(`carrier run: no tests ran (${report.summary.skipped} skipped); --pass-with-no-tests accepts that\n`);
        return 1;
      }
      if (settings.failOnFlaky && report.summary.flaky) {
        shown.stderr(
          `carrier run: ${report.summary.flaky} flaky test${report.summary.flaky === 1 ? '' : 's'} (failed, then passed when run again); --fail-on-flaky fails the run\n`,
        );
        return 1;
      }
      return report.summary.failed > 0 || cancelled ? 1 : 0;
    } finally {
      if (transcriptStore instanceof TranscriptSpill) transcriptStore.close();
      jsonParts?.close();
      await backend.close?.();
      await context.http.close();
      await sandbox.close();
    }
  },
};
