/** Everything `npm run generate` writes, as text, so the script and the freshness test share it. */
import { collectionSchema } from '../requestFile/expectSchema';
import { schemaFiles } from './schemas';
import { SNIPPETS_FILE, snippets } from './snippets';

export interface GeneratedFile {
  /** Relative to the repository root, with forward slashes. */
  readonly path: string;
  readonly content: string;
}

/** Folders whose every file is generated: a file there that is not generated any more is stale. */
export const GENERATED_FOLDERS = ['schemas/shapes'] as const;

/** Stable formatting: two-space JSON and a trailing newline. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

export function generatedFiles(): GeneratedFile[] {
  return [
    ...schemaFiles().map(({ path, schema }) => ({ path: `schemas/${path}`, content: jsonText(schema) })),
    { path: 'schemas/carrier-collection.schema.json', content: jsonText(collectionSchema()) },
    { path: SNIPPETS_FILE, content: jsonText(snippets()) },
  ];
}

/** How `--check` sees the tree: a file's text (undefined when missing) and a folder's file names. */
export interface TreeReader {
  readFile(path: string): string | undefined;
  listFolder(folder: string): string[];
}

/** Files that are missing, differ from what the generator makes now, or are no longer generated. */
export function staleFiles(tree: TreeReader, files: readonly GeneratedFile[] = generatedFiles()): string[] {
  const stale: string[] = [];
  for (const file of files) {
    const current = tree.readFile(file.path);
    if (current !== file.content) stale.push(`${file.path}${current === undefined ? ' (missing)' : ''}`);
  }
  const wanted = new Set(files.map((f) => f.path));
  for (const folder of GENERATED_FOLDERS) {
    for (const name of [...tree.listFolder(folder)].sort()) {
      if (!wanted.has(`${folder}/${name}`)) stale.push(`${folder}/${name} (no longer generated)`);
    }
  }
  return stale;
}
