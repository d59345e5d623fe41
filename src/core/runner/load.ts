/**
 * From paths to a plan: discover the files, read and compile each once, read each data file
 * once, order and link them. The Test Explorer calls this to list tests without running them.
 */
import * as path from 'node:path';
import { readDataFile, type DataRead } from './data';
import { discover } from './discover';
import { requestFileLoader, type FileReader, type FileValidator, type LoadContext, type LoadedFile } from './loadFile';
import { planRun, relativeName, type BindingChoice, type PlannedRun } from './plan';

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
  /** `--data`: a data file for every file of the run, over collection.json `"data"` (relative to baseDir). */
  readonly data?: string;
  /** `--env`: where every file is sent; the reply elements its stored contract adds are known to reply paths. */
  readonly environment?: string;
}

export function loadRun(context: LoadContext, inputs: readonly string[], options: LoadOptions): PlannedRun {
  const baseDir = path.resolve(options.baseDir);
  const discovery = discover(context, inputs, baseDir, { ...(options.exclude ? { exclude: options.exclude } : {}) });
  const files = new Map<string, LoadedFile>();
  const load = requestFileLoader(context, options.validate, options.read, options.environment);
  for (const { file } of discovery.files) files.set(file, load(file));
  const override = options.data !== undefined ? path.resolve(baseDir, options.data) : undefined;
  const tables = new Map<string, DataRead>();
  const wanted = override
    ? [{ file: override, location: undefined }]
    : [...new Set(discovery.files.map((f) => f.folder))]
        .map((folder) => discovery.configs.get(folder))
        .filter((c) => c?.data !== undefined)
        .map((c) => ({ file: c!.data!, location: c!.dataLocation }));
  for (const { file, location } of wanted) {
    if (tables.has(file)) continue;
    // A data file that is not there is a mistake in what names it, so that is where it is shown.
    tables.set(
      file,
      context.files.exists(file)
        ? readDataFile(context, file)
        : { problems: [{ kind: 'file', message: `data file ${relativeName(baseDir, file)} does not exist`, ...(location ? { location } : {}) }] },
    );
  }
  return planRun(discovery, files, baseDir, options.binding, { tables, ...(override ? { override } : {}) });
}
