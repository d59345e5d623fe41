/**
 * `carrier <command> …`: finds the command, turns expected failures into exit codes and short
 * messages, and is the one place every command's output passes: made terminal-safe here.
 */
import { closest, didYouMean, terminalSafe } from '../core';
import { asksForHelp } from './args';
import { writeOrEnd } from './brokenPipe';
import { isUsageError, loadCommand, type CliIo, type CommandEntry } from './command';
import { commands as defaultCommands } from './commands';

export function processIo(): CliIo {
  return {
    stdout: (text) => writeOrEnd(process.stdout, text),
    stderr: (text) => writeOrEnd(process.stderr, text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: process.stdout.isTTY === true,
    ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
  };
}

/**
 * `io` with everything written to stdout and stderr made safe for a terminal (core's
 * terminalSafe, src/core/terminalText.ts): whatever a reply, a request file, a recording, an
 * environment or a file name holds, no command writes a control character but tab and newline,
 * nor a bidi override. The writer is dumb on purpose: it lets no sequence through, not even the
 * project's own, so no outside text can pass for one. `terminal` keeps the stdout as given, for
 * the one writer with sequences of its own (CliIo.terminal).
 */
export function terminalIo(io: CliIo): CliIo {
  return {
    ...io,
    stdout: (text) => io.stdout(terminalSafe(text)),
    stderr: (text) => io.stderr(terminalSafe(text)),
    terminal: io.terminal ?? io.stdout,
  };
}

export function helpText(commands: readonly CommandEntry[] = defaultCommands): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'carrier — the testing workbench for the freight-carrier LTL web service',
    '',
    'Usage: carrier <command> [options] [arguments]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `carrier <command> --help` for a command's options.",
    'A command whose output pipe closes before it is done stops quietly with exit status 141.',
    '',
  ].join('\n');
}

const isHelp = (a: string) => a === '--help' || a === '-h';

export async function runCli(argv: readonly string[], given: CliIo, commands: readonly CommandEntry[] = defaultCommands): Promise<number> {
  const io = terminalIo(given);
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(helpText(commands));
    return 2;
  }
  if (isHelp(name) || name === 'help') {
    const entry = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    const topic = entry && (await loadCommand(entry));
    io.stdout(topic ? `${topic.usage}\n` : helpText(commands));
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    const guess = closest(
      name,
      commands.map((c) => c.name),
    );
    io.stderr(`carrier: unknown command "${name}"${didYouMean(guess)}\n\n${helpText(commands)}`);
    return 2;
  }
  const command = await loadCommand(entry);
  if (asksForHelp(rest)) {
    io.stdout(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (isUsageError(error)) {
      io.stderr(`carrier ${command.name}: ${error.message}\n\n${command.usage}\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`carrier ${command.name}: internal error: ${message}\n`);
    if (io.env.CARRIER_DEBUG && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return 1;
  }
}
