/**
 * `carrier report <folders or report.json files…>`: merges the JSON reports of several runs or
 * shards (`carrier run --shard i/n --reporter json`) into one set of reports — JUnit, JSON, HTML —
 * as if one run had made them: each test once, the summary counted again. A merge that is not one
 * whole run (a shard missing, a report whose commit, catalog or options differ from the others')
 * is written all the same, saying so in every report (merge.ts incompleteReasons), and fails.
 * Exit 0 when every merged test passed, 1 when one failed, the merge is incomplete or no test was
 * found, 2 for usage errors and reports that do not read.
 *
 * load-report.json files (`carrier load --shard i/n -r json`) are merged apart from run reports,
 * as load (mergeLoadShards in src/core/load/merge.ts): histograms added bucket by bucket, the
 * thresholds judged again, a shard missing or of another load said and failed
 * (docs/load.md#many-machines). Given both kinds, each is merged on its own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandContext } from '../context';
import {
  CliReporter,
  createRunBackend,
  loadHtmlReport,
  loadTable,
  mergeLoadShards,
  mergeReports,
  parseLoadReport,
  parseRunReport,
  Redactor,
  relativeTo,
  thresholdLines,
  LOAD_REPORT_FORMAT,
  type LoadMergeInput,
  type MergeInput,
} from '../../core';
import { describeFlags, listFlag, parseArgs, type FlagSpec } from '../args';
import { UsageError, type CliIo, type Command } from '../command';
import { REPORT_FILES, REPORTERS, writeReportFiles, type ReporterName } from './run';
import { SUMMARIES } from './summaries';
import { LOAD_REPORT_FILES } from './load';

const FLAGS: readonly FlagSpec[] = [
  { name: 'reporter', short: 'r', value: true, repeatable: true, description: 'junit, json, html, cli; repeat or comma-separate (default junit,json,html)' },
  { name: 'out', short: 'o', value: true, description: 'folder for the merged junit.xml, report.json and report.html (default reports/)' },
  { name: 'title', value: true, description: 'heading of report.html (default "Carrier run report")' },
];

const USAGE = [
  'Usage: carrier report [options] <folders or report.json files…>',
  '',
  'Merges the report.json files of several runs or shards (carrier run --shard i/n --reporter json)',
  'into one set of reports, as if one run had made them. A folder stands for every report.json under',
  'it (the --out folder excepted). Each test is kept once; the summary is counted again.',
  "A shard missing, or a report whose commit, catalog or options differ from the others', makes",
  'the merge incomplete: every report says so (junit.xml an error testcase, report.html in red,',
  'report.json "incomplete": true with the reasons).',
  '',
  'load-report.json files (carrier load --shard i/n -r json) are merged as load, apart from run',
  'reports: latency histograms added bucket by bucket, counts and errors summed, req/s over the',
  "longest shard's duration, the load's thresholds judged again; a shard missing, twice or of",
  'another load makes the merge incomplete. Writes load-report.json and load-report.html.',
  '',
  'Exit code: 0 every test passed, 1 a test failed, the merge is incomplete or no test was found,',
  '2 usage error or a report that does not read.',
  '',
  'Options:',
  describeFlags(FLAGS),
].join('\n');

/** Reports never sit in these, and a walk through node_modules finds only other people's. */
const SKIPPED = (name: string) => name === 'node_modules' || name.startsWith('.');

/** Every report.json under `folder`, in a stable order, with its own stack (no depth trips it). */
function reportsUnder(folder: string, out: string): string[] {
  const found: string[] = [];
  const stack = [folder];
  const seen = new Set<string>();
  while (stack.length) {
    const dir = stack.pop()!;
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      continue;
    }
    if (seen.has(real) || real === out) continue;
    seen.add(real);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const names = entries.map((e) => e.name).sort();
    for (const name of names.reverse()) {
      const entry = entries.find((e) => e.name === name)!;
      const full = path.join(dir, name);
      if (entry.isDirectory()) {
        if (!SKIPPED(name)) stack.push(full);
      } else if ((name === REPORT_FILES.json || name === LOAD_REPORT_FILES.json) && entry.isFile()) found.push(full);
    }
  }
  return found.sort();
}

export const report: Command = {
  name: 'report',
  summary: SUMMARIES.report,
  usage: USAGE,
  async run(args, io) {
    const parsed = parseArgs(args, FLAGS);
    const { positionals, flags } = parsed;
    if (!positionals.length) throw new UsageError('name at least one report.json or a folder holding some');
    const reporters = listFlag(parsed, 'reporter', ['junit', 'json', 'html']);
    for (const r of reporters)
      if (!(REPORTERS as readonly string[]).includes(r)) throw new UsageError(`unknown reporter "${r}" (reporters: ${REPORTERS.join(', ')})`);
    const outFlag = flags.get('out');
    const title = flags.get('title');
    if (outFlag === true || title === true) throw new UsageError('--out and --title need a value');
    const out = path.resolve(io.cwd, outFlag ?? 'reports');
    if (fs.existsSync(out) && !fs.statSync(out).isDirectory())
      throw new UsageError(`--out ${outFlag ?? 'reports'} is a file; it must be a folder for the reports`);
    const realOut = fs.existsSync(out) ? fs.realpathSync(out) : out;
    const rel = relativeTo(io.cwd);

    const files: string[] = [];
    for (const input of positionals) {
      const full = path.resolve(io.cwd, input);
      const stat = fs.statSync(full, { throwIfNoEntry: false });
      if (!stat) throw new UsageError(`no such file or folder: ${input}`);
      const more = stat.isDirectory() ? reportsUnder(full, realOut) : [full];
      if (!more.length) throw new UsageError(`no ${REPORT_FILES.json} or ${LOAD_REPORT_FILES.json} under ${input}`);
      for (const f of more) if (!files.includes(f)) files.push(f);
    }
    // Written over below: a merged report.json in --out is this command's output, never its input.
    const inputs: MergeInput[] = [];
    const loads: LoadMergeInput[] = [];
    let unreadable = 0;
    for (const file of files) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (e) {
        io.stderr(`${rel(file)}: error: ${(e as Error).message}\n`);
        unreadable++;
        continue;
      }
      if (isLoadReport(text)) {
        const load = parseLoadReport(text);
        if ('problem' in load) {
          io.stderr(`${rel(file)}: error: ${load.problem}\n`);
          unreadable++;
        } else loads.push({ file: rel(file), report: load });
        continue;
      }
      const parsed = parseRunReport(text, io.cwd);
      if ('problem' in parsed) {
        io.stderr(`${rel(file)}: error: ${parsed.problem}\n`);
        unreadable++;
        continue;
      }
      inputs.push({ file: rel(file), report: parsed.report });
    }
    if (unreadable) {
      io.stderr(`carrier report: ${unreadable} report${unreadable === 1 ? '' : 's'} did not read; nothing was written\n`);
      return 2;
    }
    const loadCode = loads.length ? mergeLoads(loads, reporters, out, io, rel) : 0;
    if (!inputs.length) return loadCode;
    const merged = mergeReports(inputs);

    // The runs masked their reports already; whatever keys this machine knows are masked again.
    const backend = createRunBackend({ context: commandContext(io), environmentsFrom: [io.cwd] });
    for (const name of new Set(merged.report.results.map((r) => r.environment))) if (name) backend.environment(name);
    const keys = Object.entries(io.env)
      .filter(([k, v]) => /^CARRIER_API_KEY(_|$)/.test(k) && v)
      .map(([, v]) => v!);
    const masker = new Redactor([...backend.secretValues(), ...keys], { derived: true });
    const mask = (text: string) => masker.text(text);
    const stdout = (t: string) => io.stdout(mask(t));
    const stderr = (t: string) => io.stderr(mask(t));

    for (const n of merged.notes) stderr(`carrier report: note: ${n}\n`);
    if (reporters.includes('cli')) {
      const cli = new CliReporter({ write: stdout }, { rel, tty: false, color: false });
      cli.runStart(merged.report.results.map((r) => r.test));
      for (const r of merged.report.results) {
        cli.testStart(r.test);
        cli.testEnd(r);
      }
      cli.runEnd(merged.report);
    }
    const files2 = writeReportFiles(
      merged.report,
      [...new Set(reporters)] as ReporterName[],
      out,
      { ...io, stdout, stderr },
      rel,
      mask,
      typeof title === 'string' ? title : undefined,
    );
    const s = merged.report.summary;
    stdout(
      `Merged ${inputs.length} report${inputs.length === 1 ? '' : 's'}: ${s.total} test${s.total === 1 ? '' : 's'}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${merged.lost.length ? '; incomplete' : ''}${files2.length ? '' : ' (no report files asked for)'}\n`,
    );
    for (const l of merged.lost) stderr(`carrier report: error: ${l}\n`);
    if (merged.lost.length) return 1;
    if (!s.total) {
      stderr('carrier report: the reports hold no tests\n');
      return 1;
    }
    return s.failed > 0 || loadCode ? 1 : 0;
  },
};

/** A load report says so in its first field; only its "format" is looked at here. */
function isLoadReport(text: string): boolean {
  try {
    const v = JSON.parse(text) as { format?: unknown } | null;
    return typeof v === 'object' && v !== null && v.format === LOAD_REPORT_FORMAT;
  } catch {
    return false;
  }
}

/**
 * The load reports merged as one load: load-report.json and load-report.html in `out` (as the
 * reporters ask: json, html; cli prints the table). 1 when the merge is incomplete, a threshold
 * the load was run with is crossed on the merged figures, or nothing was measured.
 */
function mergeLoads(loads: readonly LoadMergeInput[], reporters: readonly string[], out: string, io: CliIo, rel: (f: string) => string): number {
  const merged = mergeLoadShards(loads);
  // The loads masked their reports already; any key this machine holds is masked again.
  const keys = Object.entries(io.env)
    .filter(([k, v]) => /^CARRIER_API_KEY(_|$)/.test(k) && v)
    .map(([, v]) => v!);
  const masker = new Redactor(keys, { derived: true });
  const mask = (text: string) => masker.text(text);
  if (reporters.includes('cli')) {
    io.stdout(mask(loadTable(merged)));
    if (merged.thresholds) io.stdout(mask(thresholdLines(merged.thresholds)));
  }
  const written: string[] = [];
  for (const r of ['json', 'html'] as const) {
    if (!reporters.includes(r)) continue;
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, LOAD_REPORT_FILES[r]);
    fs.writeFileSync(file, r === 'json' ? mask(`${JSON.stringify(merged, null, 2)}\n`) : loadHtmlReport(merged, { mask, title: 'Carrier load report' }));
    written.push(rel(file));
  }
  const o = merged.overall;
  io.stdout(
    mask(
      `Merged ${loads.length} load report${loads.length === 1 ? '' : 's'}: ${o.count} requests, ${o.errors} errors, ${o.ratePerSecond} req/s over ${merged.durationMs} ms${merged.incomplete ? '; incomplete' : ''}${written.length ? `; wrote ${written.join(', ')}` : ''}\n`,
    ),
  );
  for (const r of merged.incompleteReasons ?? []) io.stderr(mask(`carrier report: error: ${r.message}\n`));
  const crossed = merged.thresholds?.filter((t) => !t.held) ?? [];
  if (crossed.length) io.stderr(mask(`carrier report: ${crossed.map((t) => `threshold ${t.threshold} crossed (${t.measured})`).join('; ')}\n`));
  if (!o.count) io.stderr('carrier report: the load reports measured no request\n');
  return merged.incomplete || crossed.length || !o.count ? 1 : 0;
}
