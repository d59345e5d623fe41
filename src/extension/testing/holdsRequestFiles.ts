/**
 * Whether a folder the file watcher reports as created is worth a new search for tests
 * (discovery.ts): Node's file system only, so a unit test can hold it to its word.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Core's names (src/core/runner/discover.ts, through the engine): a request file, a collection's settings, a folder never run. */
export interface CollectionNames {
  readonly requestFileSuffix: string;
  readonly collectionFile: string;
  readonly isNeverRunFolder: (name: string) => boolean;
}

/** Entries a new folder is looked through for request files; past this it is searched anyway. */
const MAX_LOOKED = 2000;

/**
 * Whether a folder just created holds a request file or a collection.json, below it at any depth
 * and outside the folders a run never goes into:
 * a build's output folders, made by the hundred, are then no reason to search the workspace.
 * Walked with a list of its own, never through the call stack, and at most MAX_LOOKED entries
 * (then true: a search too many rather than a collection missed). Still empty, it may be about to
 * get its files (a writer makes the folder first): true. Not a folder (a file created): false.
 */
export async function holdsRequestFiles(folder: string, names: CollectionNames, maxLooked = MAX_LOOKED): Promise<boolean> {
  const pending = [folder];
  let looked = 0;
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    if (dir === folder && !entries.length) return true;
    for (const entry of entries) {
      if (++looked > maxLooked) return true;
      if (entry.isDirectory()) {
        if (!names.isNeverRunFolder(entry.name)) pending.push(path.join(dir, entry.name));
      } else if (entry.name.endsWith(names.requestFileSuffix) || entry.name === names.collectionFile) return true;
    }
  }
  return false;
}
