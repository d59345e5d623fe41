/**
 * Files and folders named on a command line (or picked in the Test Explorer) turned into the
 * ordered list of request files to run and the collection each belongs to.
 *
 * A folder is a collection of the `*.carrier.json` files directly in it; its subfolders are
 * collections of their own, run after (or where `order` puts them). A file named on its own
 * belongs to its folder's collection, with that folder's collection.json applied.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COLLECTION_FILE } from './expectSchema';
import { inherit, NO_CONFIG, readCollectionConfig, type CollectionConfig } from './collectionConfig';
import { naturalSort } from './naturalSort';
import type { Failure } from './types';

export const REQUEST_FILE_SUFFIX = '.carrier.json';
const SKIPPED_FOLDERS = new Set(['node_modules', 'reports']);

export interface DiscoveredFile {
  readonly file: string;
  readonly folder: string;
}

export interface Discovery {
  readonly files: readonly DiscoveredFile[];
  /** Settings per folder (inherited from collection.json files above it, up to the base dir). */
  readonly configs: ReadonlyMap<string, CollectionConfig>;
  readonly problems: readonly Failure[];
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function discover(inputs: readonly string[], baseDir: string): Discovery {
  const base = path.resolve(baseDir);
  const configs = new Map<string, CollectionConfig>();
  const problems: Failure[] = [];
  const files: DiscoveredFile[] = [];
  const seen = new Set<string>();

  const configFor = (folder: string): CollectionConfig => {
    const known = configs.get(folder);
    if (known) return known;
    const parent = path.dirname(folder);
    const inherited = folder !== base && parent !== folder && isInside(parent, base) ? configFor(parent) : NO_CONFIG;
    const file = path.join(folder, COLLECTION_FILE);
    let own = NO_CONFIG;
    if (fs.existsSync(file)) {
      const read = readCollectionConfig(file);
      problems.push(...read.problems);
      own = read.config;
    }
    const config = own === NO_CONFIG ? inherited : inherit(inherited, own);
    configs.set(folder, config);
    return config;
  };

  const add = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const folder = path.dirname(file);
    configFor(folder);
    files.push({ file, folder });
  };

  const expand = (folder: string) => {
    const config = configFor(folder);
    let entries: fs.Dirent[];
    try { entries = fs.readdirSync(folder, { withFileTypes: true }); } catch (e) {
      problems.push({ kind: 'file', message: `cannot read folder ${folder}: ${(e as Error).message}` });
      return;
    }
    const kinds = new Map<string, 'file' | 'folder'>();
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      const isDir = entry.isDirectory() || (entry.isSymbolicLink() && safeStat(full)?.isDirectory());
      if (isDir && !entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) kinds.set(entry.name, 'folder');
      else if (!isDir && entry.name.endsWith(REQUEST_FILE_SUFFIX)) kinds.set(entry.name, 'file');
    }
    const listed = config.file && path.dirname(config.file) === folder ? config.order : [];
    for (const name of listed) {
      if (!kinds.has(name)) {
        problems.push({ kind: 'file', message: `collection.json "order" names "${name}", which is not a request file or folder in ${folder}`, location: config.orderLocations.get(name) });
      }
    }
    const rest = naturalSort([...kinds.keys()].filter((n) => !listed.includes(n)));
    for (const name of [...listed.filter((n) => kinds.has(n)), ...rest]) {
      const full = path.join(folder, name);
      if (kinds.get(name) === 'file') add(full);
      else expand(full);
    }
  };

  for (const input of inputs) {
    const full = path.resolve(base, input);
    const stat = safeStat(full);
    if (!stat) { problems.push({ kind: 'file', message: `no such file or folder: ${input}` }); continue; }
    if (stat.isDirectory()) {
      const before = files.length;
      expand(full);
      if (files.length === before) problems.push({ kind: 'file', message: `no request files (*${REQUEST_FILE_SUFFIX}) in ${input}` });
    } else add(full);
  }
  return { files, configs, problems };
}

function safeStat(file: string): fs.Stats | undefined {
  try { return fs.statSync(file); } catch { return undefined; }
}
