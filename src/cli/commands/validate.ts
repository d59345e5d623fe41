/**
 * `carrier validate <files or folders…>`: checks request files the way the editor does and
 * prints `path:line:col: severity: message`. Exit 0 without errors, 1 with any, 2 on misuse.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileExpectations, FileTextError, formatFinding, oneBased, readTextFile, validateRequestText, type RequestFileFinding } from '../../core';
import { nodeFiles } from '../../host';
import { describeFlags, parseArgs, type FlagSpec } from '../args';
import { UsageError, type Command } from '../command';
import { SUMMARIES } from './summaries';

const REQUEST_FILE = /\.carrier\.json$/;
/** Folders never searched: dependencies, and tool folders such as .git. */
const SKIPPED = (name: string) => name === 'node_modules' || name.startsWith('.');

const FLAGS: readonly FlagSpec[] = [
  { name: 'quiet', short: 'q', description: 'print errors only (no warnings)' },
  { name: 'json', description: 'print the findings as one JSON array' },
];

export const validate: Command = {
  name: 'validate',
  summary: SUMMARIES.validate,
  usage: [
    'Usage: carrier validate [options] <files or folders…>',
    '',
    'Folders are searched recursively for *.carrier.json (node_modules and dot-folders skipped).',
    'Prints path:line:col: error|warning: message per finding. Exit code: 0 no errors, 1 errors, 2 usage error.',
    '',
    'Options:',
    describeFlags(FLAGS),
  ].join('\n'),
  run(args, io) {
    const { positionals, flags } = parseArgs(args, FLAGS);
    if (positionals.length === 0) throw new UsageError('name at least one file or folder to validate');
    const files = collect(positionals, io.cwd);
    if (files.length === 0) io.stderr(`carrier validate: no *.carrier.json files in ${positionals.join(', ')}\n`);

    const quiet = flags.has('quiet');
    const report: Array<{ file: string; finding: RequestFileFinding }> = [];
    let errors = 0;
    let warnings = 0;
    for (const file of files) {
      const shown = display(file, io.cwd);
      for (const finding of check(file)) {
        if (finding.severity === 'error') errors++;
        else warnings++;
        if (!quiet || finding.severity === 'error') report.push({ file: shown, finding });
      }
    }

    if (flags.has('json')) {
      const rows = report.map(({ file, finding }) => ({
        file,
        ...oneBased(finding.range.start),
        severity: finding.severity,
        code: finding.code,
        path: finding.path,
        message: finding.message,
      }));
      io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    } else {
      for (const { file, finding } of report) io.stdout(`${formatFinding(file, finding)}\n`);
    }
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    io.stderr(`${plural(files.length, 'file')} checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`);
    return errors > 0 ? 1 : 0;
  },
};

/** Files named outright are checked whatever their name; folders contribute their *.carrier.json. */
function collect(targets: readonly string[], cwd: string): string[] {
  const files: string[] = [];
  const missing: string[] = [];
  for (const target of targets) {
    const absolute = path.resolve(cwd, target);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absolute);
    } catch {
      missing.push(target);
      continue;
    }
    if (stat.isDirectory()) walk(absolute, files);
    else files.push(absolute);
  }
  if (missing.length > 0) throw new UsageError(`no such file or folder: ${missing.join(', ')}`);
  return [...new Set(files)];
}

function walk(dir: string, out: string[]): void {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    // Dirent does not follow symbolic links, so a link cycle cannot trap the walk.
    if (entry.isDirectory()) {
      if (!SKIPPED(entry.name)) walk(full, out);
    } else if (entry.isFile() && REQUEST_FILE.test(entry.name)) out.push(full);
  }
}

/** Validation sends nothing: the files are all of the context it needs (no HTTP client loaded). */
const context = { files: nodeFiles };

function check(file: string): RequestFileFinding[] {
  let text: string;
  try {
    text = readTextFile(context, file);
  } catch (error) {
    const reason = error instanceof FileTextError ? error.message : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    const origin =
      error instanceof FileTextError && error.line !== undefined ? { line: error.line - 1, character: (error.column ?? 1) - 1 } : { line: 0, character: 0 };
    return [{ severity: 'error', code: 'syntax', message: `cannot read the file (${reason})`, path: '', range: { start: origin, end: origin } }];
  }
  // The file's expect and capture too: `carrier run` would refuse the same mistakes (exit 2).
  return [...validateRequestText(text, file, { context }).findings, ...runnerFindings(text, file)];
}

function display(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : file;
}

/** Mistakes in `expect` and `capture`, as the runner finds them, in the validator's shape. */
function runnerFindings(text: string, file: string): RequestFileFinding[] {
  return compileExpectations(text, file, context).map((p) => {
    const start = { line: (p.location?.line ?? 1) - 1, character: (p.location?.column ?? 1) - 1 };
    const end = p.location ? { line: p.location.endLine - 1, character: p.location.endColumn - 1 } : start;
    return { severity: 'error', code: 'expect', message: p.message, path: '', range: { start, end } };
  });
}
