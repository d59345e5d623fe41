import { ENVIRONMENTS_FILE, findEnvironment, formatEnvironmentProblem, type Environment, type LoadedEnvironments } from '../core';
import type { CliIo } from './command';
import { displayPath } from './displayPath';

/**
 * The environment a command was asked for, from environments already loaded (core decides where
 * they come from: environments/where.ts). An unknown name prints the file's problems and the
 * names there are, and gives exit code 2; a known one prints the file's warnings, since problems
 * elsewhere in the file do not stop a command whose own environment is fine.
 */
export function chooseEnvironment(
  loaded: LoadedEnvironments,
  name: string | undefined,
  io: CliIo,
  unknown: (name: string, names: string) => string,
): Environment | 2 {
  const envFile = loaded.file ? displayPath(loaded.file, io.cwd) : ENVIRONMENTS_FILE;
  const environment = findEnvironment(loaded, name);
  if (!environment) {
    for (const p of loaded.problems) io.stderr(`${formatEnvironmentProblem(envFile, p)}\n`);
    io.stderr(`${unknown(name ?? '', loaded.environments.map((e) => e.name).join(', '))}\n`);
    return 2;
  }
  for (const p of loaded.problems) if (p.severity === 'warning') io.stderr(`${formatEnvironmentProblem(envFile, p)}\n`);
  return environment;
}

/** The usual wording: `carrier <command>: unknown environment "x" (environments: a, b)`. */
export function unknownEnvironment(command: string): (name: string, names: string) => string {
  return (name, names) => `carrier ${command}: unknown environment "${name}" (environments: ${names})`;
}
