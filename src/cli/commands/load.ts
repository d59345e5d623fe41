/**
 * `carrier load <files or folders…>`: sends a collection as load — virtual users over the plan
 * `carrier run` makes, captures per user — and reports latencies per operation from HDR
 * histograms, errors by class, thresholds, load-report.json and load-report.html (docs/load.md).
 * Exit 0 when every threshold held, 1 when one was crossed (or nothing was measured), 2 for
 * usage, file and environment errors (then nothing is sent).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandContext } from '../context';
import {
  CREATING_OPERATIONS,
  createRunBackend,
  environmentNameOf,
  environmentProblems,
  findEnvironment,
  judgeThresholds,
  loadEnvironmentsFrom,
  loadHtmlReport,
  loadRun,
  loadTable,
  parseShard,
  parseThreshold,
  progressLine,
  Redactor,
  relativeTo,
  selectWhere,
  startLoad,
  tagFilter,
  thresholdLines,
  validateRequestText,
  variableProblems,
  where,
  ALL_OPERATIONS,
  type CoreContext,
  type Failure,
  type LoadReport,
  type LoadShard,
  type PlannedRun,
  type Threshold,
  type TestFilter,
} from '../../core';
import { EmbeddedSandbox } from '../embeddedSandbox';
import { describeFlags, listFlag, parseArgs, textFlag, type FlagSpec } from '../args';
import { UsageError, type CliIo, type Command } from '../command';
import { SUMMARIES } from './summaries';
import { loadFingerprint } from '../loadFingerprint';
import { exportLocust } from '../locustExport';

export const LOAD_REPORTERS = ['cli', 'json', 'html'] as const;
type LoadReporter = (typeof LOAD_REPORTERS)[number];
export const LOAD_REPORT_FILES = { json: 'load-report.json', html: 'load-report.html' } as const;

const FLAGS: readonly FlagSpec[] = [
  { name: 'vus', short: 'u', value: true, description: 'virtual users: each loops the sequence; with --rate, the most iterations at once (default 10)' },
  {
    name: 'duration',
    short: 'd',
    value: true,
    description: 'how long requests are started for: 60s, 2m, 500ms (default 30s; with --iterations, until they are done)',
  },
  { name: 'iterations', value: true, description: 'passes over the sequence in all, across users: the run ends when they are done' },
  { name: 'ramp', value: true, description: 'users start (or the rate grows) evenly over this long: 10s' },
  { name: 'rate', value: true, description: 'open model: iterations started per second (200/s); latency counts from when each was meant to start' },
  {
    name: 'threshold',
    value: true,
    repeatable: true,
    description: 'OPERATION:METRIC<LIMIT, e.g. GetRateQuote:p95<800ms, *:p99<1s, GetRateQuote:errors<1%, *:rate>100/s; crossed: exit 1',
  },
  { name: 'env', short: 'e', value: true, description: "environment to load (default: each file's or collection's, else the sandbox)" },
  {
    name: 'tag',
    value: true,
    repeatable: true,
    description: "only the tests with this tag (and those whose captures they use); '!slow' leaves out those tagged slow",
  },
  { name: 'var', value: true, variables: true, repeatable: true, description: 'name=value for {{name}}; repeatable' },
  { name: 'data', value: true, description: 'a .csv or .json of rows, dealt out across users (over collection.json "data")' },
  { name: 'timeout', short: 't', value: true, description: "milliseconds each request may take (default: the environment's)" },
  { name: 'grace', value: true, description: 'how long requests in flight are waited for when the run stops (default 10s)' },
  { name: 'strict-contract', description: 'contract warnings count as errors too' },
  { name: 'reporter', short: 'r', value: true, repeatable: true, description: 'cli, json, html; repeat or comma-separate (default cli)' },
  { name: 'out', short: 'o', value: true, description: 'folder for load-report.json and load-report.html (default reports/)' },
  {
    name: 'shard',
    value: true,
    description: 'i/n: run segment i of n of the load (users i, i+n…, every n-th arrival of --rate, every n-th data row); merge with carrier report',
  },
  { name: 'export', value: true, description: 'locust: write locustfile.py in --out (default .) instead of loading; nothing is sent' },
];

const USAGE = [
  'Usage: carrier load [options] <files or folders…>',
  '',
  'Sends request files and collections as load: virtual users each run the files in collection',
  'order (the order `carrier run` uses), each with its own captures, rows of a data file dealt out',
  'across users. Each reply is judged as `carrier run` judges it (verdict, contract, expect); the',
  'latencies go into HDR histograms per operation. Closed model: --vus users loop the sequence.',
  'Open model: --rate iterations start per second, at most --vus at once.',
  '',
  'CreateBillOfLading and CreatePickupRequest are sent only to an embedded sandbox or to an',
  'environment marked "probe": true.',
  '',
  'Ctrl+C stops starting requests, waits for those in flight (--grace) and still writes the reports.',
  '',
  '--shard i/n runs segment i of n of the load on this machine: users i, i+n, i+2n… of --vus',
  '(numbered from 1), arrivals i, i+n… of --rate (rate/n each, at their times in the whole',
  'schedule), every n-th row of a data file and every n-th of --iterations. Each shard writes',
  'its load-report.json with its shard and the whole load; carrier report merges them exactly.',
  '',
  '--export locust writes locustfile.py (Locust 2) for the same files: envelopes built here, the',
  'API key read from CARRIER_API_KEY when Locust runs (docs/load.md#locust).',
  '',
  'Exit code: 0 every threshold held, 1 a threshold crossed or nothing measured, 2 usage, file or',
  'environment error (nothing sent).',
  '',
  'Options:',
  describeFlags(FLAGS),
].join('\n');

/** `60s`, `2m`, `500ms`, `1.5s`; a bare number is seconds. */
export function parseDuration(text: string | true | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const m = typeof text === 'string' ? /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim()) : null;
  if (!m) throw new UsageError(`--${flag} needs a duration such as 30s, 2m or 500ms, not "${String(text)}"`);
  const n = Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(n);
}

function whole(text: string | true | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (typeof text !== 'string' || !/^\d+$/.test(text) || Number(text) < 1)
    throw new UsageError(`--${flag} needs a whole number of 1 or more, not "${String(text)}"`);
  return Number(text);
}

/** `200/s`, `200`, `6000/m`: per second. */
function parseRate(text: string | true | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = typeof text === 'string' ? /^(\d+(?:\.\d+)?)(?:\/(s|m))?$/.exec(text.trim()) : null;
  if (!m || Number(m[1]) <= 0) throw new UsageError(`--rate needs arrivals per second such as 200/s, not "${String(text)}"`);
  return m[2] === 'm' ? Number(m[1]) / 60 : Number(m[1]);
}

interface LoadSettings {
  readonly inputs: string[];
  readonly vus: number;
  readonly durationMs?: number;
  readonly iterations?: number;
  readonly rampMs: number;
  readonly ratePerSecond?: number;
  readonly thresholds: Threshold[];
  readonly environment?: string;
  readonly tags?: { readonly given: readonly string[]; readonly filter: TestFilter };
  readonly variables: Record<string, string>;
  readonly data?: string;
  readonly timeoutMs?: number;
  readonly graceMs: number;
  readonly strictContract: boolean;
  readonly reporters: LoadReporter[];
  readonly out: string;
  readonly shard?: LoadShard;
  /** --export: write this tool's script instead of loading. */
  readonly export?: 'locust';
  /** --out as given (the export's folder defaults to the current one). */
  readonly outGiven?: string;
}

function readSettings(args: readonly string[], cwd: string): LoadSettings {
  const parsed = parseArgs(args, FLAGS);
  const { positionals, flags, variables } = parsed;
  if (!positionals.length) throw new UsageError('name at least one request file or folder to load');
  const reporters = listFlag(parsed, 'reporter', ['cli']);
  for (const r of reporters)
    if (!(LOAD_REPORTERS as readonly string[]).includes(r)) throw new UsageError(`unknown reporter "${r}" (reporters: ${LOAD_REPORTERS.join(', ')})`);
  const thresholds = listFlag(parsed, 'threshold').map((t) => {
    const parsedThreshold = parseThreshold(t);
    if (typeof parsedThreshold === 'string') throw new UsageError(parsedThreshold);
    return parsedThreshold;
  });
  const tagValues = listFlag(parsed, 'tag');
  const filter = tagValues.length ? tagFilter(tagValues) : undefined;
  if (typeof filter === 'string') throw new UsageError(filter);
  const iterations = whole(flags.get('iterations'), 'iterations');
  const durationMs = parseDuration(flags.get('duration'), 'duration') ?? (iterations === undefined ? 30_000 : undefined);
  if (durationMs === 0) throw new UsageError('--duration must be more than 0');
  const data = textFlag(flags.get('data'), 'data');
  if (data !== undefined && !fs.statSync(path.resolve(cwd, data), { throwIfNoEntry: false })?.isFile()) throw new UsageError(`--data ${data}: no such file`);
  const out = path.resolve(cwd, textFlag(flags.get('out'), 'out') ?? 'reports');
  if (fs.statSync(out, { throwIfNoEntry: false })?.isDirectory() === false)
    throw new UsageError(`--out ${path.relative(cwd, out)} is a file; it must be a folder for the reports`);
  const environment = textFlag(flags.get('env'), 'env');
  const timeoutMs = whole(flags.get('timeout'), 'timeout');
  const ratePerSecond = parseRate(flags.get('rate'));
  const vus = whole(flags.get('vus'), 'vus') ?? 10;
  const shardText = textFlag(flags.get('shard'), 'shard');
  const shard = shardText === undefined ? undefined : parseShard(shardText);
  if (typeof shard === 'string') throw new UsageError(shard);
  // Every shard needs a user of its own: users are dealt round-robin (core/load/run.ts shareOf).
  if (shard && shard.total > vus) throw new UsageError(`--shard ${shardText}: ${shard.total} shards need at least ${shard.total} users, and --vus is ${vus}`);
  const exportTo = textFlag(flags.get('export'), 'export');
  if (exportTo !== undefined && exportTo !== 'locust')
    throw new UsageError(`--export ${exportTo}: carrier load exports locust (k6 is not offered: this carrier cannot check what it would write)`);
  const outGiven = textFlag(flags.get('out'), 'out');
  return {
    inputs: positionals,
    vus,
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(iterations !== undefined ? { iterations } : {}),
    rampMs: parseDuration(flags.get('ramp'), 'ramp') ?? 0,
    ...(ratePerSecond !== undefined ? { ratePerSecond } : {}),
    thresholds,
    ...(environment !== undefined ? { environment } : {}),
    ...(filter ? { tags: { given: tagValues, filter } } : {}),
    variables: { ...variables },
    ...(data !== undefined ? { data } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    graceMs: parseDuration(flags.get('grace'), 'grace') ?? 10_000,
    strictContract: flags.has('strict-contract'),
    reporters: [...new Set(reporters)] as LoadReporter[],
    out,
    ...(shard ? { shard: { index: shard.index, total: shard.total } } : {}),
    ...(exportTo ? { export: 'locust' as const } : {}),
    ...(outGiven !== undefined ? { outGiven } : {}),
  };
}

/** `path:line:col: error: message`, as `carrier run` prints problems. */
function problemLine(p: Failure, rel: (f: string) => string): string {
  return `${p.location ? `${where(p.location, rel)}: ` : ''}error: ${p.message}\n`;
}

/**
 * Tests that would create shipments or pickups where that is not allowed: only an embedded
 * sandbox, or an environment marked `"probe": true` (a service whose data nobody relies on).
 */
function creatingProblems(
  plan: PlannedRun,
  ids: ReadonlySet<string> | undefined,
  environmentsFrom: readonly string[],
  settings: LoadSettings,
  context: CoreContext,
): Failure[] {
  const loaded = loadEnvironmentsFrom(context, environmentsFrom);
  const problems: Failure[] = [];
  const said = new Set<string>();
  for (const test of plan.tests) {
    if (ids && !ids.has(test.id)) continue;
    if (!test.operation || !CREATING_OPERATIONS.includes(test.operation)) continue;
    const file = plan.files.get(test.file);
    const environment = findEnvironment(loaded, environmentNameOf(test, file, settings));
    if (!environment || environment.embedded || environment.probe) continue;
    const key = `${test.file}\0${environment.name}`;
    if (said.has(key)) continue;
    said.add(key);
    problems.push({
      kind: 'environment',
      message: `${test.operation} creates shipments and pickups: carrier load sends it only to an embedded sandbox or an environment marked "probe": true, and ${environment.name} is neither`,
      location: test.location,
    });
  }
  return problems;
}

/** Whatever the run measured, written: each report file the reporters ask for. */
function writeReports(report: LoadReport, settings: LoadSettings, io: CliIo, mask: (t: string) => string, rel: (f: string) => string): void {
  const written: string[] = [];
  for (const r of settings.reporters) {
    if (r === 'cli') continue;
    fs.mkdirSync(settings.out, { recursive: true });
    const file = path.join(settings.out, LOAD_REPORT_FILES[r]);
    fs.writeFileSync(file, r === 'json' ? mask(`${JSON.stringify(report, null, 2)}\n`) : loadHtmlReport(report, { mask }));
    written.push(file);
  }
  if (written.length) io.stdout(`Reports: ${written.map(rel).join(', ')}\n`);
}

/**
 * The command with its stop signal given: SIGINT for the CLI, an AbortController for tests. A
 * stopped run still judges its thresholds and writes its reports.
 */
export async function runLoadCommand(args: readonly string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  const settings = readSettings(args, io.cwd);
  if (settings.export) return exportLocust(settings, io);
  for (const r of settings.reporters) if (r !== 'cli') fs.rmSync(path.join(settings.out, LOAD_REPORT_FILES[r]), { force: true });
  const rel = relativeTo(io.cwd);
  const context = commandContext(io);
  const plan = loadRun(context, settings.inputs, {
    baseDir: io.cwd,
    validate: (text, fileName) =>
      validateRequestText(text, fileName, { context, ...(settings.environment ? { environment: settings.environment } : {}) }).findings,
    exclude: [settings.out],
    ...(settings.environment ? { environment: settings.environment } : {}),
    ...(settings.data !== undefined ? { data: settings.data } : {}),
  });
  if (plan.problems.length) {
    for (const p of plan.problems) io.stderr(problemLine(p, rel));
    io.stderr(`carrier load: ${plan.problems.length} problem${plan.problems.length === 1 ? '' : 's'} in the files to load; nothing was sent\n`);
    return 2;
  }
  const chosen = settings.tags ? selectWhere(plan.tests, settings.tags.filter) : undefined;
  if (!(chosen ? chosen.chosen : plan.tests.length)) throw new UsageError(`nothing to load: no request files${settings.tags ? ' with those tags' : ''}`);
  const operations = new Set(plan.tests.filter((t) => !chosen || chosen.ids.has(t.id)).map((t) => t.operation ?? path.basename(t.file)));
  for (const t of settings.thresholds)
    if (t.operation !== ALL_OPERATIONS && !operations.has(t.operation))
      throw new UsageError(`--threshold ${t.text}: this run sends no ${t.operation} (it sends ${[...operations].sort().join(', ')})`);
  // The embedded sandbox keeps replies of operations that read no state: the run measures the load and the judged exchange, not the emulator's pricing.
  const sandbox = new EmbeddedSandbox({ replyMemo: true });
  const starts = [...new Set(plan.tests.map((t) => t.collection.folder)), io.cwd];
  const backend = createRunBackend({ context, environmentsFrom: starts, embeddedUrl: (environment) => sandbox.url(environment) });
  let progressTimer: ReturnType<typeof setInterval> | undefined;
  try {
    const envOptions = settings.environment ? { environment: settings.environment } : {};
    const problems = [
      ...backend.problems,
      ...environmentProblems(plan, { backend, ...envOptions }),
      ...variableProblems(plan, { backend, variables: settings.variables, ...envOptions }),
    ];
    if (problems.length) {
      const early = new Redactor(backend.secretValues(), { derived: true });
      for (const p of problems) io.stderr(early.text(problemLine(p, rel)));
      return 2;
    }
    const creating = creatingProblems(plan, chosen?.ids, starts, settings, context);
    if (creating.length) {
      for (const p of creating) io.stderr(problemLine(p, rel));
      io.stderr('carrier load: refused; nothing was sent\n');
      return 2;
    }
    const masker = new Redactor(backend.secretValues(), { derived: true });
    const mask = (text: string) => masker.text(text);
    // The whole load, alike on every shard: carrier report tells shards of another load by it.
    const fingerprint = loadFingerprint(
      plan,
      {
        vus: settings.vus,
        ...(settings.ratePerSecond !== undefined ? { ratePerSecond: settings.ratePerSecond } : {}),
        ...(settings.durationMs !== undefined ? { durationMs: settings.durationMs } : {}),
        ...(settings.iterations !== undefined ? { iterations: settings.iterations } : {}),
        rampMs: settings.rampMs,
        thresholds: settings.thresholds.map((t) => t.text),
        ...(settings.environment !== undefined ? { environment: settings.environment } : {}),
        ...(settings.data !== undefined ? { data: settings.data } : {}),
        variables: settings.variables,
        ...(settings.tags ? { tags: settings.tags.given } : {}),
        strictContract: settings.strictContract,
        shards: settings.shard?.total ?? 1,
      },
      { repository: path.resolve(io.cwd, settings.inputs[0]), cwd: io.cwd, env: io.env },
    );
    const run = startLoad(plan, {
      backend,
      vus: settings.vus,
      rampMs: settings.rampMs,
      graceMs: settings.graceMs,
      strictContract: settings.strictContract,
      variables: settings.variables,
      ...(settings.durationMs !== undefined ? { durationMs: settings.durationMs } : {}),
      ...(settings.iterations !== undefined ? { iterations: settings.iterations } : {}),
      ...(settings.ratePerSecond !== undefined ? { ratePerSecond: settings.ratePerSecond } : {}),
      ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
      ...envOptions,
      ...(chosen ? { only: chosen.ids } : {}),
      ...(signal ? { signal } : {}),
      ...(settings.shard ? { shard: settings.shard } : {}),
    });
    const cli = settings.reporters.includes('cli');
    const tty = io.isTTY === true;
    if (cli) {
      // On a terminal the line is redrawn each second; in a log, a line every 5 s.
      const terminal = io.terminal ?? io.stdout;
      progressTimer = setInterval(
        () => {
          const line = progressLine(run.progress());
          if (tty) terminal(`\r\x1b[K${mask(line).slice(0, Math.max(20, (io.columns ?? 200) - 1))}`);
          else io.stdout(mask(`${line}\n`));
        },
        tty ? 1000 : 5000,
      );
      progressTimer.unref?.();
    }
    let report: LoadReport = { ...(await run.done), run: fingerprint };
    clearInterval(progressTimer);
    if (cli && tty) (io.terminal ?? io.stdout)('\r\x1b[K');
    if (settings.thresholds.length) report = { ...report, thresholds: judgeThresholds(settings.thresholds, report) };
    if (cli) {
      io.stdout(mask(loadTable(report)));
      if (report.thresholds) io.stdout(mask(thresholdLines(report.thresholds)));
    }
    writeReports(report, settings, io, mask, rel);
    const crossed = report.thresholds?.filter((t) => !t.held) ?? [];
    if (crossed.length) {
      io.stderr(mask(`carrier load: ${crossed.map((t) => `threshold ${t.threshold} crossed (${t.measured})`).join('; ')}\n`));
      return 1;
    }
    if (!report.overall.count) {
      io.stderr('carrier load: no request was measured\n');
      return 1;
    }
    return 0;
  } finally {
    clearInterval(progressTimer);
    await backend.close?.();
    await context.http.close();
    await sandbox.close();
  }
}

export const load: Command = {
  name: 'load',
  summary: SUMMARIES.load,
  usage: USAGE,
  async run(args, io) {
    const abort = new AbortController();
    const onSigint = () => abort.abort();
    process.once('SIGINT', onSigint);
    try {
      return await runLoadCommand(args, io, abort.signal);
    } finally {
      process.off('SIGINT', onSigint);
    }
  },
};
