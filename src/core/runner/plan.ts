/**
 * The tests of a run, in order, with what each waits for. A test is a request file sent over one
 * binding. A file that uses `{{name}}` depends on the latest earlier file that captures `name`
 * (on every binding that file runs over); names nobody captures come from variables instead.
 */
import * as path from 'node:path';
import type { Binding } from '../catalog/types';
import type { Discovery } from './discover';
import type { LoadedFile } from './loadFile';
import type { Failure, PlannedCollection, PlannedTest } from './types';

export type BindingChoice = Binding | 'all';

export interface PlannedRun {
  readonly tests: readonly PlannedTest[];
  readonly files: ReadonlyMap<string, LoadedFile>;
  /** Tests that cannot run as planned (a binding the operation lacks): skipped with this reason. */
  readonly unavailable: ReadonlyMap<string, string>;
  /** Index of each test's segment: consecutive tests of one collection. Segments run one after another. */
  readonly segment: ReadonlyMap<string, number>;
  readonly problems: readonly Failure[];
  /** Said, not fatal: entries skipped on purpose (discover.ts) and validator warnings. */
  readonly warnings: readonly Failure[];
  /** Folders met in the walk that are never run (discover.ts). */
  readonly skippedFolders: readonly string[];
  readonly baseDir: string;
}

export function relativeName(baseDir: string, file: string): string {
  const rel = path.relative(baseDir, file);
  return (rel === '' ? '.' : rel.startsWith('..') ? file : rel).split(path.sep).join('/');
}

export function planRun(discovery: Discovery, files: ReadonlyMap<string, LoadedFile>, baseDir: string, binding?: BindingChoice): PlannedRun {
  const collections = new Map<string, PlannedCollection>();
  const collectionOf = (folder: string): PlannedCollection => {
    let c = collections.get(folder);
    if (!c) {
      const config = discovery.configs.get(folder);
      c = {
        folder,
        name: relativeName(baseDir, folder),
        ...(config?.file && path.dirname(config.file) === folder ? { configFile: config.file, ...(config.name ? { title: config.name } : {}) } : {}),
        configFiles: config?.files ?? [],
        ...(config?.environment ? { environment: config.environment } : {}),
        ...(config?.concurrency ? { concurrency: config.concurrency } : {}),
        variables: config?.variables ?? {},
      };
      collections.set(folder, c);
    }
    return c;
  };

  const tests: PlannedTest[] = [];
  const unavailable = new Map<string, string>();
  const segment = new Map<string, number>();
  const producers = new Map<string, string[]>();
  let segmentIndex = -1;
  let lastFolder: string | undefined;

  for (const { file, folder } of discovery.files) {
    const loaded = files.get(file)!;
    const collection = collectionOf(folder);
    if (folder !== lastFolder) { segmentIndex++; lastFolder = folder; }
    const shape = loaded.shape;
    const own = loaded.request?.binding;
    let bindings: Array<Binding | undefined>;
    if (!loaded.request || !shape) bindings = [own];
    else if (binding === 'all') bindings = [...shape.bindings];
    else bindings = [binding ?? own];
    const several = binding === 'all' && bindings.length > 1;

    const dependsOn = [...new Set(loaded.uses.flatMap((name) => producers.get(name) ?? []))];
    const ids: string[] = [];
    for (const b of bindings) {
      const id = several || (binding === 'all' && b) ? `${file}#${b}` : file;
      const base = path.basename(file);
      const test: PlannedTest = {
        id,
        file,
        name: b ? `${base} [${b}]` : base,
        collection,
        ...(b ? { binding: b } : {}),
        ...(loaded.request ? { operation: loaded.request.operation, version: loaded.request.version } : {}),
        location: loaded.location,
        dependsOn,
        captures: loaded.captures.map((c) => c.name),
      };
      if (b && shape && !shape.bindings.includes(b)) {
        unavailable.set(id, `${shape.operation} ${shape.version} does not offer the ${b} binding (it offers ${shape.bindings.join(', ')})`);
      }
      tests.push(test);
      segment.set(id, segmentIndex);
      ids.push(id);
    }
    for (const c of loaded.captures) producers.set(c.name, ids);
  }
  const problems = [...discovery.problems, ...[...files.values()].flatMap((f) => f.problems)];
  const warnings = [...discovery.warnings, ...[...files.values()].flatMap((f) => f.warnings)];
  return { tests, files, unavailable, segment, problems, warnings, skippedFolders: discovery.skippedFolders, baseDir };
}

/** The tests needed to run `selected`: the selection plus, transitively, the tests it depends on. */
export function withProducers(tests: readonly PlannedTest[], selected: ReadonlySet<string>): Set<string> {
  const byId = new Map(tests.map((t) => [t.id, t]));
  const needed = new Set<string>();
  const visit = (id: string) => {
    if (needed.has(id)) return;
    needed.add(id);
    for (const d of byId.get(id)?.dependsOn ?? []) visit(d);
  };
  for (const id of selected) if (byId.has(id)) visit(id);
  return needed;
}
