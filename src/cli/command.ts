/** What a `carrier` command is. Adding one: a file in commands/ and a line in commands/index.ts. */

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Relative paths in arguments are resolved against this. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** stdout is a terminal (progress lines redraw in place); absent: treat as a log. */
  readonly isTTY?: boolean;
  /** Terminal width, when stdout is one. */
  readonly columns?: number;
  /**
   * stdout exactly as given, escape sequences and all. Commands get `stdout` and `stderr` made
   * terminal-safe (runCli in dispatch.ts); this is only for a writer with sequences of its own
   * that makes every outside text safe itself where it puts it in: the run's terminal reporter
   * on a TTY (src/core/runner/reporters/cli.ts).
   */
  readonly terminal?: (text: string) => void;
}

export interface Command {
  readonly name: string;
  /** One line for `carrier --help`. */
  readonly summary: string;
  /** Shown by `carrier <name> --help` and after a usage error: usage line(s) and options. */
  readonly usage: string;
  /** Returns the exit code: 0 success, 1 the command found a problem, 2 a usage error. */
  run(args: readonly string[], io: CliIo): number | Promise<number>;
}

/** A mistake in how the command was called: exit 2 with the command's usage, no stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** By name as well as by class: each command is its own bundle, with its own copy of the class. */
export function isUsageError(error: unknown): error is UsageError {
  return error instanceof UsageError || (error instanceof Error && error.name === 'UsageError');
}

/**
 * A command listed by name and summary, loaded only when it runs or shows its usage: the built
 * CLI keeps each command in its own bundle, so `carrier validate` never loads the sandbox, the
 * inspector, the runner or the HTTP client.
 */
export interface LazyCommand {
  readonly name: string;
  readonly summary: string;
  load(): Promise<Command>;
}

export type CommandEntry = Command | LazyCommand;

export async function loadCommand(entry: CommandEntry): Promise<Command> {
  return 'load' in entry ? entry.load() : entry;
}
