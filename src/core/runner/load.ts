/**
 * From paths to a plan: discover the files, read and compile each once, order and link them.
 * The Test Explorer calls this to list tests without running them.
 */
import * as path from 'node:path';
import { discover } from './discover';
import { loadRequestFile, type FileReader, type FileValidator, type LoadedFile } from './loadFile';
import { planRun, type BindingChoice, type PlannedRun } from './plan';

export interface LoadOptions {
  /** Paths are resolved against it; collection names and report paths are relative to it. */
  readonly baseDir: string;
  /** `--binding`: one binding for every file, or `all` for every binding each operation offers. */
  readonly binding?: BindingChoice;
  /** The params validator (src/core/validation), when the host has it. */
  readonly validate?: FileValidator;
  /** Reads request files (the editor passes unsaved contents); the file system by default. */
  readonly read?: FileReader;
  /** Folders not to run (the run's own report folder). */
  readonly exclude?: readonly string[];
}

export function loadRun(inputs: readonly string[], options: LoadOptions): PlannedRun {
  const baseDir = path.resolve(options.baseDir);
  const discovery = discover(inputs, baseDir, { ...(options.exclude ? { exclude: options.exclude } : {}) });
  const files = new Map<string, LoadedFile>();
  for (const { file } of discovery.files) files.set(file, loadRequestFile(file, options.validate, options.read));
  return planRun(discovery, files, baseDir, options.binding);
}
