/**
 * The tests of a run, in order, with what each waits for. A test is a request file sent over one
 * binding (and, in a data-driven collection, with one data row). A file that uses `{{name}}`
 * depends on the latest earlier file that captures `name` (on every binding that file runs over;
 * with rows, on that file's test of the same row); names nobody captures come from variables.
 */
import * as path from 'node:path';
import type { Binding } from '../catalog/types';
import { rowLabel, type DataRead, type DataRow, type DataTable } from './data';
import type { Discovery } from './discover';
import type { LoadedFile } from './loadFile';
import { plannedRow } from './rows';
import type { Failure, PlannedCollection, PlannedRow, PlannedTest } from './types';

export type BindingChoice = Binding | 'all';

export interface PlannedRun {
  readonly tests: readonly PlannedTest[];
  readonly files: ReadonlyMap<string, LoadedFile>;
  /** Tests that cannot run as planned (a binding the operation lacks): skipped with this reason. */
  readonly unavailable: ReadonlyMap<string, string>;
  /** Index of each test's segment: consecutive tests of one collection. Segments run one after another. */
  readonly segment: ReadonlyMap<string, number>;
  /** Tests whose data row does not fit their request file (a cell that is not of its field's type): they fail unsent. */
  readonly rowProblems: ReadonlyMap<string, readonly Failure[]>;
  readonly problems: readonly Failure[];
  /** The data files the run reads (collection.json `"data"`, `--data`), absolute. */
  readonly dataFiles: readonly string[];
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

/** The data files of a run, read once each (load.ts): by absolute path. */
export interface PlanData {
  readonly tables: ReadonlyMap<string, DataRead>;
  /** `--data`: this file's rows for every file of the run, in place of collection.json `"data"`. */
  readonly override?: string;
}

/** The files of one folder, consecutive in the discovery: one segment, one data table. */
interface FileGroup {
  readonly folder: string;
  readonly files: string[];
}

function groupsOf(discovery: Discovery): FileGroup[] {
  const groups: FileGroup[] = [];
  for (const { file, folder } of discovery.files) {
    const last = groups[groups.length - 1];
    if (last && last.folder === folder) last.files.push(file);
    else groups.push({ folder, files: [file] });
  }
  return groups;
}

/** No producers, no captures: one empty list for every test that has none, not one each. */
const NONE: readonly string[] = Object.freeze([]);

/** A file's captures as compiled; a copy's own (loadFile.ts) are made only when read, and only their names are wanted here. */
function compiledCaptures(loaded: LoadedFile): LoadedFile['captures'] {
  return (loaded.compiledFrom ?? loaded).captures;
}

export function planRun(discovery: Discovery, files: ReadonlyMap<string, LoadedFile>, baseDir: string, binding?: BindingChoice, data?: PlanData): PlannedRun {
  const collections = new Map<string, PlannedCollection>();
  const collectionOf = (folder: string): PlannedCollection => {
    let c = collections.get(folder);
    if (!c) {
      const config = discovery.configs.get(folder);
      const dataFile = data?.override ?? config?.data;
      c = {
        folder,
        name: relativeName(baseDir, folder),
        ...(config?.file && path.dirname(config.file) === folder ? { configFile: config.file, ...(config.name ? { title: config.name } : {}) } : {}),
        configFiles: config?.files ?? [],
        ...(config?.environment ? { environment: config.environment } : {}),
        ...(config?.concurrency ? { concurrency: config.concurrency } : {}),
        variables: config?.variables ?? {},
        ...(dataFile ? { data: dataFile } : {}),
        ...(config?.together ? { together: config.together } : {}),
        ...(config?.strictContract ? { strictContract: true } : {}),
        ...(config?.tags?.length ? { tags: config.tags } : {}),
        ...(config?.retries !== undefined ? { retries: config.retries } : {}),
      };
      collections.set(folder, c);
    }
    return c;
  };

  const tests: PlannedTest[] = [];
  const unavailable = new Map<string, string>();
  const segment = new Map<string, number>();
  const rowProblems = new Map<string, Failure[]>();
  const problems: Failure[] = [];
  let segmentIndex = -1;

  // Which earlier file each file's names come from, file by file as the run is written: the
  // latest earlier file that captures the name. Rows only decide which of its tests (below).
  // Only files that use a name have producers, and only files that capture are one.
  const producerFiles = new Map<string, string[]>();
  const latest = new Map<string, string>();
  for (const { file } of discovery.files) {
    const loaded = files.get(file)!;
    if (loaded.uses.length && latest.size) {
      const producers = [...new Set(loaded.uses.map((n) => latest.get(n)).filter((f): f is string => f !== undefined))];
      if (producers.length) producerFiles.set(file, producers);
    }
    for (const c of compiledCaptures(loaded)) latest.set(c.name, file);
  }
  /** Test ids of each file that captures, by row index (0: a file that runs without rows). */
  const testsOf = new Map<string, Map<number, string[]>>();
  const tableOf = new Map<string, string | undefined>();

  const planFile = (file: string, collection: PlannedCollection, row: { table: DataTable; row: DataRow } | undefined, unreadable: string | undefined): void => {
    const loaded = files.get(file)!;
    const shape = loaded.shape;
    const own = loaded.request?.binding;
    let bindings: Array<Binding | undefined>;
    if (!loaded.request || !shape) bindings = [own];
    else if (binding === 'all') bindings = [...shape.bindings];
    else bindings = [binding ?? own];
    const several = binding === 'all' && bindings.length > 1;

    const rowIndex = row?.row.index ?? 0;
    const producers = producerFiles.get(file) ?? [];
    const dependsOn = producers.length
      ? [
          ...new Set(
            producers.flatMap((producer) => {
              const byRow = testsOf.get(producer);
              if (!byRow) return [];
              // The same data file: the producer's test of this same row. Otherwise its latest test(s).
              if (row && tableOf.get(producer) === row.table.file) return byRow.get(rowIndex) ?? [];
              return [...byRow.values()].pop() ?? [];
            }),
          ),
        ]
      : NONE;
    const captures = compiledCaptures(loaded);
    const captureNames = captures.length ? captures.map((c) => c.name) : NONE;
    let typedRow: PlannedRow | undefined;
    let typingProblems: Failure[] = [];
    if (row) {
      const planned = plannedRow(loaded, row.table, row.row);
      typedRow = planned.row;
      typingProblems = planned.problems;
      problems.push(...typingProblems);
    }
    const ids: string[] = [];
    // The collection's tags, then the file's own.
    const tags = collection.tags?.length || loaded.request?.tags?.length ? [...new Set([...(collection.tags ?? []), ...(loaded.request?.tags ?? [])])] : NONE;
    for (const b of bindings) {
      const baseId = several || (binding === 'all' && b) ? `${file}#${b}` : file;
      const id = row ? `${baseId}#row=${rowIndex}` : baseId;
      // Joined rather than a template: one flat string, not a chain of its pieces, held as long as the run.
      const name = b ? [path.basename(file), ' [', b, ']'] : [path.basename(file)];
      if (typedRow) name.push(' [', rowLabel(typedRow.index, typedRow.name), ']');
      const test: PlannedTest = {
        id,
        file,
        name: name.join(''),
        collection,
        ...(b ? { binding: b } : {}),
        ...(loaded.request ? { operation: loaded.request.operation, version: loaded.request.version } : {}),
        location: loaded.location,
        dependsOn,
        captures: captureNames,
        position: tests.length,
        ...(typedRow ? { row: typedRow } : {}),
        ...(tags.length ? { tags } : {}),
      };
      if (unreadable) unavailable.set(id, unreadable);
      else if (b && shape && !shape.bindings.includes(b)) {
        unavailable.set(id, `${shape.operation} ${shape.version} does not offer the ${b} binding (it offers ${shape.bindings.join(', ')})`);
      }
      if (typingProblems.length) rowProblems.set(id, typingProblems);
      tests.push(test);
      segment.set(id, segmentIndex);
      ids.push(id);
    }
    if (!captures.length) return;
    const byRow = testsOf.get(file) ?? new Map<number, string[]>();
    byRow.set(rowIndex, ids);
    testsOf.set(file, byRow);
    tableOf.set(file, row?.table.file);
  };

  for (const group of groupsOf(discovery)) {
    segmentIndex++;
    const collection = collectionOf(group.folder);
    const read = collection.data ? data?.tables.get(collection.data) : undefined;
    if (!collection.data || !read?.table) {
      const unreadable = collection.data ? `data file ${relativeName(baseDir, collection.data)} does not read` : undefined;
      for (const file of group.files) planFile(file, collection, undefined, unreadable);
      continue;
    }
    // Row by row: row 3 of every file of the collection, then row 4, as a data loop runs.
    for (const row of read.table.rows) for (const file of group.files) planFile(file, collection, { table: read.table, row }, undefined);
  }
  for (const read of data?.tables.values() ?? []) problems.push(...(read.problems ?? []));
  // The files' own first, then the plan's (rows, data files); one pass over thousands of files.
  const fileProblems = [...discovery.problems];
  const warnings = [...discovery.warnings];
  for (const f of files.values()) {
    if (f.problems.length) fileProblems.push(...f.problems);
    if (f.warnings.length) warnings.push(...f.warnings);
  }
  return {
    tests,
    files,
    unavailable,
    segment,
    rowProblems,
    problems: problems.length ? fileProblems.concat(problems) : fileProblems,
    warnings,
    skippedFolders: discovery.skippedFolders,
    baseDir,
    dataFiles: [...(data?.tables.keys() ?? [])],
  };
}

/** The tests needed to run `selected`: the selection plus, transitively, the tests it depends on. */
export function withProducers(tests: readonly PlannedTest[], selected: ReadonlySet<string>): Set<string> {
  const byId = new Map(tests.map((t) => [t.id, t]));
  const needed = new Set<string>();
  // A stack of its own: a chain of thousands of captures is as deep as it is long.
  const stack = [...selected].filter((id) => byId.has(id));
  while (stack.length) {
    const id = stack.pop()!;
    if (needed.has(id)) continue;
    needed.add(id);
    for (const d of byId.get(id)?.dependsOn ?? []) if (!needed.has(d)) stack.push(d);
  }
  return needed;
}
