/** `carrier <command> …`: finds the command, turns expected failures into exit codes and short messages. */
import { closest, didYouMean } from '../core';
import { isUsageError, loadCommand, type CliIo, type CommandEntry } from './command';
import { commands as defaultCommands } from './commands';

export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTTY: process.stdout.isTTY === true,
    ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
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
    'Run `carrier <command> --help` for a command\'s options.',
    '',
  ].join('\n');
}

const isHelp = (a: string) => a === '--help' || a === '-h';

export async function runCli(argv: readonly string[], io: CliIo, commands: readonly CommandEntry[] = defaultCommands): Promise<number> {
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
    const guess = closest(name, commands.map((c) => c.name));
    io.stderr(`carrier: unknown command "${name}"${didYouMean(guess)}\n\n${helpText(commands)}`);
    return 2;
  }
  const command = await loadCommand(entry);
  const beforeSeparator = rest.indexOf('--') < 0 ? rest : rest.slice(0, rest.indexOf('--'));
  if (beforeSeparator.some(isHelp)) {
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
