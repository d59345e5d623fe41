/**
 * The Test Explorer's items, built from the runner's plans: folders as suites, request files with
 * an `expect` as tests, one child per binding when the plan runs a file over several and one per
 * data row in a data-driven collection (at its row of the data file), each with the tests' tags
 * (request file and collection.json `tags`) as TestTags, for the explorer's `@tag` filter. Items are
 * reused across reloads (same id, same object), so a reload during a run never orphans the items
 * the run reports on, and the explorer keeps its expanded folders.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { engine } from '../engineBundle';
import type { LoadedRequest, PlannedTest, RunFailure } from '../core-adapter';
import type { FolderPlan } from './discovery';
import { toRange } from './locations';

/** An item as plain data, for the extension-host tests. */
export interface TestNode {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly file?: string;
  /** 1-based, like the runner's locations. */
  readonly line?: number;
  readonly error?: string;
  /** The item's TestTags, by id. */
  readonly tags?: readonly string[];
  readonly children: readonly TestNode[];
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function byFile(tests: readonly PlannedTest[]): Map<string, PlannedTest[]> {
  const files = new Map<string, PlannedTest[]>();
  for (const t of tests) {
    const list = files.get(t.file);
    if (list) list.push(t);
    else files.set(t.file, [t]);
  }
  return files;
}

function problemsText(problems: readonly RunFailure[]): string | undefined {
  if (!problems.length) return undefined;
  return problems.map((p) => `${p.location ? `line ${p.location.line}: ` : ''}${p.message}`).join('\n');
}

export class TestTree {
  private items = new Map<string, vscode.TestItem>();
  /** Leaf item id → the planned test it runs. */
  private leaves = new Map<string, PlannedTest>();
  /** Planned test id → its item; a producer without `expect` has none. */
  private itemOfTest = new Map<string, vscode.TestItem>();
  /** Files listed last time: kept, with their error, while an edit leaves them unreadable. */
  private shownFiles = new Set<string>();

  constructor(private readonly controller: vscode.TestController) {}

  /** A request file is a test when it has an `expect`; one that does not read stays if it was one. */
  private isTest(file: string, loaded: LoadedRequest | undefined): boolean {
    return loaded?.request ? loaded.request.expect !== undefined : this.shownFiles.has(file);
  }

  update(plans: readonly FolderPlan[]): void {
    const next = new Map<string, vscode.TestItem>();
    const children = new Map<vscode.TestItem | undefined, vscode.TestItem[]>();
    const leaves = new Map<string, PlannedTest>();
    const itemOfTest = new Map<string, vscode.TestItem>();
    const shownFiles = new Set<string>();
    // The explorer lists items in run order rather than alphabetically.
    let order = 0;
    const item = (id: string, label: string, uri: vscode.Uri, parent: vscode.TestItem | undefined): vscode.TestItem => {
      const known = next.get(id);
      if (known) return known;
      const made = this.items.get(id) ?? this.controller.createTestItem(id, label, uri);
      made.label = label;
      made.sortText = String(order++).padStart(6, '0');
      next.set(id, made);
      const siblings = children.get(parent);
      if (siblings) siblings.push(made);
      else children.set(parent, [made]);
      return made;
    };
    const leaf = (testItem: vscode.TestItem, test: PlannedTest) => {
      leaves.set(testItem.id, test);
      itemOfTest.set(test.id, testItem);
    };
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;

    for (const { folder, plan } of plans) {
      const base = folder.uri.fsPath;
      const top = multiRoot ? item(`folder:${base}`, folder.name, folder.uri, undefined) : undefined;
      const folderItem = (dir: string): vscode.TestItem | undefined => {
        if (path.relative(base, dir) === '' || !isInside(dir, base)) return top;
        return item(`folder:${dir}`, path.basename(dir), vscode.Uri.file(dir), folderItem(path.dirname(dir)));
      };
      for (const [file, tests] of byFile(plan.tests)) {
        const loaded = plan.files.get(file);
        if (!this.isTest(file, loaded)) continue;
        shownFiles.add(file);
        const fileItem = item(file, path.basename(file), vscode.Uri.file(file), folderItem(path.dirname(file)));
        fileItem.description = loaded?.request ? `${loaded.request.operation} ${loaded.request.version}` : undefined;
        fileItem.range = loaded ? toRange(loaded.location) : undefined;
        fileItem.error = loaded ? problemsText(loaded.problems) : undefined;
        // Every test of a file carries its tags (the file's and its collections'), and so does each item of it.
        const tags = (tests[0].tags ?? []).map((t) => new vscode.TestTag(t));
        fileItem.tags = tags;
        const rows = tests.find((t) => t.row)?.row;
        if (rows && fileItem.description) fileItem.description += ` · ${path.basename(rows.file)}, ${rows.count} row${rows.count === 1 ? '' : 's'}`;
        if (tests.length === 1 && !rows) {
          leaf(fileItem, tests[0]);
          continue;
        }
        const bindings = [...new Set(tests.map((t) => t.binding))];
        for (const test of tests) {
          // A binding's item when the file runs over several; rows under it (or under the file).
          let parent = fileItem;
          if (bindings.length > 1) {
            parent = item(rows ? `${test.id.replace(/#row=\d+$/, '')}#binding` : test.id, test.binding ?? test.name, vscode.Uri.file(file), fileItem);
            parent.range = fileItem.range;
            parent.tags = tags;
            if (!rows) {
              leaf(parent, test);
              continue;
            }
          }
          if (!test.row) {
            leaf(parent, test);
            continue;
          }
          // A row's item stands at its row of the data file: its gutter button runs that row.
          const rowItem = item(test.id, engine().rowLabel(test.row.index, test.row.name), vscode.Uri.file(test.row.file), parent);
          rowItem.range = toRange(test.row.location);
          rowItem.tags = tags;
          leaf(rowItem, test);
        }
      }
      // A collection whose data file does not read says why on its folder.
      for (const problem of plan.problems) {
        const file = problem.location?.file;
        if (!file || !plan.dataFiles.includes(file)) continue;
        const owner = plan.tests.find((t) => t.collection.data === file);
        const folderOf = owner ? folderItem(owner.collection.folder) : undefined;
        if (folderOf && !folderOf.error) folderOf.error = `${path.basename(file)}:${problem.location!.line}:${problem.location!.column}: ${problem.message}`;
      }
    }
    for (const i of next.values()) i.children.replace(children.get(i) ?? []);
    this.controller.items.replace(children.get(undefined) ?? []);
    this.items = next;
    this.leaves = leaves;
    this.itemOfTest = itemOfTest;
    this.shownFiles = shownFiles;
  }

  itemById(id: string): vscode.TestItem | undefined {
    return this.items.get(id);
  }

  itemOfPlannedTest(testId: string): vscode.TestItem | undefined {
    return this.itemOfTest.get(testId);
  }

  /** The planned test ids a run request covers: its items and everything under them, less the excluded. */
  select(include: readonly vscode.TestItem[] | undefined, exclude: readonly vscode.TestItem[] | undefined): Set<string> {
    const collect = (items: Iterable<vscode.TestItem>, into: Set<string>): Set<string> => {
      for (const requested of items) {
        // The request may hold an item from before a reload; the tree's own is current.
        const current = this.items.get(requested.id) ?? requested;
        const test = this.leaves.get(current.id);
        if (test) into.add(test.id);
        const kids: vscode.TestItem[] = [];
        current.children.forEach((c) => {
          kids.push(c);
        });
        collect(kids, into);
      }
      return into;
    };
    const roots: vscode.TestItem[] = [];
    this.controller.items.forEach((i) => {
      roots.push(i);
    });
    const selected = collect(include ?? roots, new Set());
    for (const id of collect(exclude ?? [], new Set())) selected.delete(id);
    return selected;
  }

  snapshot(): TestNode[] {
    const nodes = (collection: vscode.TestItemCollection): TestNode[] => {
      const list: vscode.TestItem[] = [];
      collection.forEach((i) => {
        list.push(i);
      });
      return list
        .sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? ''))
        .map((i) => ({
          id: i.id,
          label: i.label,
          ...(i.description ? { description: i.description } : {}),
          ...(i.uri ? { file: i.uri.fsPath } : {}),
          ...(i.range ? { line: i.range.start.line + 1 } : {}),
          ...(i.error ? { error: typeof i.error === 'string' ? i.error : i.error.value } : {}),
          ...(i.tags.length ? { tags: i.tags.map((t) => t.id) } : {}),
          children: nodes(i.children),
        }));
    };
    return nodes(this.controller.items);
  }
}
