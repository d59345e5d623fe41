/**
 * `carrier report <folders or report.json files…>`: merges the JSON reports of several runs or
 * shards (`carrier run --shard i/n --reporter json`) into one set of reports — JUnit, JSON, HTML —
 * as if one run had made them: each test once, the summary counted again. A merge that is not one
 * whole run (a shard missing, a report whose commit, catalog or options differ from the others')
 * is written all the same, saying so in every report (merge.ts incompleteReasons), and fails.
 * Exit 0 when every merged test passed, 1 when one failed, the merge is incomplete or no test was
 * found, 2 for usage errors and reports that do not read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandContext } from '../context';
import { CliReporter, createRunBackend, mergeReports, parseRunReport, Redactor, relativeTo, type MergeInput } from '../../core';
import { describeFlags, listFlag, parseArgs, type FlagSpec } from '../args';
import { UsageError, type Command } from '../command';
import { REPORT_FILES, REPORTERS, writeReportFiles, type ReporterName } from './run';
import { SUMMARIES } from './summaries';

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
      } else if (name === REPORT_FILES.json && entry.isFile()) found.push(full);
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
      if (!more.length) throw new UsageError(`no ${REPORT_FILES.json} under ${input}`);
      for (const f of more) if (!files.includes(f)) files.push(f);
    }
    // Written over below: a merged report.json in --out is this command's output, never its input.
    const inputs: MergeInput[] = [];
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
    return s.failed > 0 ? 1 : 0;
  },
};
