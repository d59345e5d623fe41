/**
 * A small argument parser shared by the commands: `--flag`, `--flag=value`, `--flag value`, `-f`,
 * and `--` to end options. Anything unexpected is a UsageError (exit 2), never a guess.
 */
import { UsageError } from './command';

export interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  /** The flag takes a value (`--format json`). */
  readonly value?: boolean;
  /** The flag may be given several times; every value is kept in `lists` (in order). */
  readonly repeatable?: boolean;
  readonly description: string;
}

export interface ParsedArgs {
  readonly positionals: string[];
  /** The last value of each flag given (`true` for a flag without a value). */
  readonly flags: ReadonlyMap<string, string | true>;
  /** Every value of each value-taking flag, in order (`--var a=1 --var b=2`). */
  readonly lists: ReadonlyMap<string, readonly string[]>;
}

export function parseArgs(args: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
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
    const [name, inline] = long ? splitOnce(arg.slice(2), '=') : [arg.slice(1), undefined];
    const spec = specs.find((s) => (long ? s.name === name : s.short === name));
    if (!spec) throw new UsageError(`unknown option ${long ? `--${name}` : `-${name}`}`);
    if (!spec.value) {
      if (inline !== undefined) throw new UsageError(`option --${spec.name} takes no value`);
      flags.set(spec.name, true);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`option --${spec.name} needs a value`);
    flags.set(spec.name, value);
    lists.set(spec.name, [...(lists.get(spec.name) ?? []), value]);
  }
  return { positionals, flags, lists };
}

/** The options part of a usage text, aligned. */
export function describeFlags(specs: readonly FlagSpec[]): string {
  const rows = specs.map((s) => [`${s.short ? `-${s.short}, ` : '    '}--${s.name}${s.value ? ' <value>' : ''}${s.repeatable ? ' …' : ''}`, s.description]);
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
