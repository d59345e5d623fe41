/**
 * Which folders to hand the runner, given the request files and collection.json files a
 * workspace search found. The runner walks each folder itself (its order, its collection.json
 * rules), exactly as `carrier run <folder>` does; this only picks the fewest folders that cover
 * every request file, so the extension never walks the whole workspace synchronously.
 */
import * as path from 'node:path';
import { naturalCompare } from '../core-adapter';

const REQUEST_SUFFIX = '.carrier.json';
const COLLECTION_FILE = 'collection.json';
/** The runner never descends into these (dot folders too); neither do we start inside one. */
const SKIPPED = new Set(['node_modules', 'reports']);

function skipped(rel: string): boolean {
  return rel
    .split(path.sep)
    .slice(0, -1)
    .some((s) => s.startsWith('.') || SKIPPED.has(s));
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function collectionRoots(baseDir: string, found: readonly string[]): string[] {
  const requestFolders = new Set<string>();
  const configFolders = new Set<string>();
  for (const file of found) {
    const rel = path.relative(baseDir, file);
    if (rel.startsWith('..') || path.isAbsolute(rel) || skipped(rel)) continue;
    if (file.endsWith(REQUEST_SUFFIX)) requestFolders.add(path.dirname(file));
    else if (path.basename(file) === COLLECTION_FILE) configFolders.add(path.dirname(file));
  }
  // A collection.json above several request folders may set their `order`: start the walk there
  // so that order holds, as it would for `carrier run` on that folder.
  const candidates = new Set(requestFolders);
  for (const folder of configFolders) {
    if ([...requestFolders].some((r) => isInside(r, folder))) candidates.add(folder);
  }
  const roots = [...candidates].filter((c) => ![...candidates].some((o) => o !== c && isInside(c, o)));
  return roots.sort((a, b) => naturalCompare(path.relative(baseDir, a), path.relative(baseDir, b)));
}
