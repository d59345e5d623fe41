/**
 * The one argument parser of the commands: no command reads its arguments itself. `--flag`,
 * `--flag=value`, `--flag value`, `-f`, `-f value`, `-f=value`, repeated flags (every value kept,
 * in order), comma lists, `--var name=value` and `--` to end options. Anything unexpected is a
 * UsageError (exit 2), never a guess.
 *
 * Not node:util's parseArgs: it refuses `--flag -value` as ambiguous, reads `-abc` as three flags
 * and has messages of its own, and each of those would change what a command accepts or says.
 */
import { variableNameProblem } from '../core';
import { UsageError } from './command';

export interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  /** The flag takes a value (`--format json`). */
  readonly value?: boolean;
  /**
   * The flag may be given several times (shown as `…` in the usage). Every value of a flag that
   * takes one is kept in `lists`, in order; given twice, a flag that is not repeatable keeps the
   * last in `flags`.
   */
  readonly repeatable?: boolean;
  /**
   * Each value is `name=value`, defining `{{name}}`: checked here, as it is parsed, and collected
   * in `variables` (`--var`). Implies a value.
   */
  readonly variables?: boolean;
  readonly description: string;
}

export interface ParsedArgs {
  readonly positionals: string[];
  /** The last value of each flag given (`true` for a flag without a value). */
  readonly flags: ReadonlyMap<string, string | true>;
  /** Every value of each value-taking flag, in order (`--ignore a --ignore b`). */
  readonly lists: ReadonlyMap<string, readonly string[]>;
  /** `--var name=value` pairs, every name checked; a later one wins. */
  readonly variables: Readonly<Record<string, string>>;
}

export function parseArgs(args: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const variables: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const [name, inline] = splitOnce(arg.slice(long ? 2 : 1), '=');
    const spec = specs.find((s) => (long ? s.name === name : s.short === name));
    if (!spec) throw new UsageError(`unknown option ${long ? `--${name}` : `-${name}`}`);
    if (!spec.value && !spec.variables) {
      if (inline !== undefined) throw new UsageError(`option --${spec.name} takes no value`);
      flags.set(spec.name, true);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`option --${spec.name} needs a value`);
    if (spec.variables) {
      const [variable, text] = variablePair(value, spec.name);
      variables[variable] = text;
    }
    flags.set(spec.name, value);
    lists.set(spec.name, [...(lists.get(spec.name) ?? []), value]);
  }
  return { positionals, flags, lists, variables };
}

/**
 * A `--var` value as name and value, split at the first `=`: the one place a variable given on
 * the command line is checked, with the words core uses for a name it refuses.
 */
function variablePair(pair: string, flag: string): [string, string] {
  const eq = pair.indexOf('=');
  if (eq < 0) throw new UsageError(`--${flag} needs name=value, not "${pair}"`);
  const name = pair.slice(0, eq);
  const problem = variableNameProblem(name);
  if (problem) throw new UsageError(`--${flag} ${pair}: ${problem}`);
  return [name, pair.slice(eq + 1)];
}

/**
 * Every value of a repeatable flag, each also split at commas (`-r cli -r junit,json`), trimmed,
 * empty ones dropped; `fallback` when the flag was not given.
 */
export function listFlag(parsed: ParsedArgs, name: string, fallback: readonly string[] = []): string[] {
  return (parsed.lists.get(name) ?? fallback)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** `--help` or `-h` before any `--`: the dispatcher prints the command's usage instead of running it. */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** The options part of a usage text, aligned. */
export function describeFlags(specs: readonly FlagSpec[]): string {
  const rows = specs.map((s) => [
    `${s.short ? `-${s.short}, ` : '    '}--${s.name}${s.value || s.variables ? ' <value>' : ''}${s.repeatable ? ' …' : ''}`,
    s.description,
  ]);
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** A `--port` value: 0 (the default) lets the system choose a free port. */
export function portFlag(value: string | true | undefined): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (value === true || !Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port needs a whole number from 0 to 65535, got ${String(value)}`);
  return n;
}

/** The text of a flag that takes a value, refusing one given bare. */
export function textFlag(value: string | true | undefined, name: string): string | undefined {
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}
