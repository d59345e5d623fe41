/**
 * Files and folders named on a command line (or picked in the Test Explorer) turned into the
 * ordered list of request files to run and the collection each belongs to.
 *
 * A folder is a collection of the `*.carrier.json` files directly in it, which run first; its
 * subfolders are collections of their own and run after them (or where `order` puts them). A
 * file named on its own belongs to its folder's collection.
 *
 * A folder's settings are its own collection.json over those of every folder above it, up to
 * the repository root (the folder holding `.git`) or a collection.json with `"root": true` —
 * never "up to where the command happened to be typed", so a subfolder runs with the same
 * environment and variables from any working directory and by any spelling of its path.
 *
 * A repository is input from outside: each real folder is visited once (a symlink loop is
 * reported, not followed), only regular files are read (a FIFO or a link to a device named
 * `*.carrier.json` is skipped with a warning), files over MAX_REQUEST_FILE_BYTES are refused,
 * and the walk keeps its own stack, so no depth of folders can exhaust the call stack.
 */
import * as path from 'node:path';
import type { CoreContext, FileStat, FolderEntry } from '../context';
import { COLLECTION_FILE } from '../requestFile/expectSchema';
import { inherit, NO_CONFIG, readCollectionConfig, type CollectionConfig } from './collectionConfig';
import { naturalSort } from './naturalSort';
import type { Failure } from './types';

export const REQUEST_FILE_SUFFIX = '.carrier.json';
/** A request file is a few kilobytes; a thousand times that is a mistake or a trap, not a request. */
export const MAX_REQUEST_FILE_BYTES = 4 * 1024 * 1024;
/** Folders never run: installed packages and hidden folders (.git, .vscode, …). */
export const isNeverRunFolder = (name: string): boolean => name === 'node_modules' || name.startsWith('.');

export interface DiscoveredFile {
  readonly file: string;
  readonly folder: string;
}

export interface Discovery {
  readonly files: readonly DiscoveredFile[];
  /** Settings per folder: its collection.json over those above it (see the header). */
  readonly configs: ReadonlyMap<string, CollectionConfig>;
  /** Errors: the run does not start. */
  readonly problems: readonly Failure[];
  /** Things left out on purpose, each said once: skipped entries, symlink loops. */
  readonly warnings: readonly Failure[];
  /** Folders met in the walk that are never run, so the output can name them. */
  readonly skippedFolders: readonly string[];
}

export interface DiscoverOptions {
  /** Folders to leave out as well (the run's own report folder). */
  readonly exclude?: readonly string[];
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** What readdir tells of a regular file; its size is checked when it is read (see addFile). */
const REGULAR_FILE: Pick<FileStat, 'isFile' | 'size'> = { isFile: true, size: 0 };

/** Why a request file is refused for its size: said alike by discovery and by the reader. */
export function tooLargeMessage(shown: string, size: number): string {
  return `${shown} is ${size} bytes; a request file may be at most ${MAX_REQUEST_FILE_BYTES} bytes`;
}

export function discover(context: Pick<CoreContext, 'files'>, inputs: readonly string[], baseDir: string, options: DiscoverOptions = {}): Discovery {
  const { files: fs } = context;
  const safeStat = (file: string): FileStat | undefined => fs.stat(file);
  const realPath = (file: string): string => fs.realpath(file);
  const identity = (stat: FileStat): string => stat.id;
  const base = path.resolve(baseDir);
  const exclude = new Set((options.exclude ?? []).map(realPath));
  const configs = new Map<string, CollectionConfig>();
  const problems: Failure[] = [];
  const warnings: Failure[] = [];
  const skippedFolders: string[] = [];
  const files: DiscoveredFile[] = [];
  const seenFiles = new Set<string>();
  const seenFolders = new Set<string>();

  /** The chain of folders whose settings apply, outermost first (see the header). */
  const configFor = (folder: string): CollectionConfig => {
    const chain: string[] = [];
    let at = folder;
    for (;;) {
      if (configs.has(at)) break;
      chain.push(at);
      const parent = path.dirname(at);
      if (parent === at || fs.exists(path.join(at, '.git'))) break;
      at = parent;
    }
    // Resolve from the outermost folder not yet known down to `folder`.
    for (let i = chain.length - 1; i >= 0; i--) {
      const dir = chain[i];
      const parent = path.dirname(dir);
      const isTop = parent === dir || fs.exists(path.join(dir, '.git'));
      const file = path.join(dir, COLLECTION_FILE);
      let own = NO_CONFIG;
      if (safeStat(file)?.isFile) {
        const read = readCollectionConfig(context, file);
        problems.push(...read.problems);
        own = read.config;
      }
      const inherited = isTop || own.root ? NO_CONFIG : (configs.get(parent) ?? NO_CONFIG);
      configs.set(dir, own === NO_CONFIG ? inherited : inherit(inherited, own));
    }
    return configs.get(folder)!;
  };

  /**
   * `stat` undefined: the entry could not be stat'ed. For a folder's entries that readdir already
   * says are regular files, a stat of each of a collection's thousands of files (its Stats object
   * most of the cost) is left out: the size is checked when the file is read (loadFile.ts), with
   * the same message.
   */
  const addFile = (file: string, stat: Pick<FileStat, 'isFile' | 'size'> | undefined, shown: string): void => {
    if (!stat?.isFile) {
      warnings.push({ kind: 'file', message: `skipped ${shown}: not a regular file (a FIFO, device, socket or broken link is never read)` });
      return;
    }
    if (stat.size > MAX_REQUEST_FILE_BYTES) {
      problems.push({ kind: 'file', message: tooLargeMessage(shown, stat.size), location: { file, line: 1, column: 1, endLine: 1, endColumn: 1 } });
      return;
    }
    if (seenFiles.has(file)) return;
    seenFiles.add(file);
    const folder = path.dirname(file);
    configFor(folder);
    files.push({ file, folder });
  };

  /** Walks `root` depth first with its own stack, in the order the header describes. */
  const expand = (root: string): void => {
    // Work items in reverse order of visiting: a folder item is replaced by its ordered entries.
    const stack: Array<{ readonly path: string; readonly folder: boolean; readonly regular?: boolean }> = [{ path: root, folder: true }];
    while (stack.length) {
      const item = stack.pop()!;
      if (!item.folder) {
        addFile(item.path, item.regular ? REGULAR_FILE : safeStat(item.path), item.path);
        continue;
      }
      const folder = item.path;
      const stat = safeStat(folder);
      if (!stat) continue;
      const id = identity(stat);
      if (seenFolders.has(id)) {
        // A folder named on the command line and inside another one named there runs once,
        // unremarked; a link back to a folder above it is still a loop.
        const loop = isInside(realPath(path.dirname(folder)), realPath(folder));
        if (!named.has(id) || loop)
          warnings.push({ kind: 'file', message: `skipped ${folder}: already visited (a symlink loop or a second link to the same folder)` });
        continue;
      }
      seenFolders.add(id);
      const config = configFor(folder);
      let entries: FolderEntry[];
      try {
        entries = fs.list(folder);
      } catch (e) {
        problems.push({ kind: 'file', message: `cannot read folder ${folder}: ${(e as Error).message}` });
        continue;
      }
      const kinds = new Map<string, 'file' | 'folder'>();
      const regular = new Set<string>();
      for (const entry of entries) {
        const full = path.join(folder, entry.name);
        const isDir = entry.isDirectory || (entry.isSymbolicLink && safeStat(full)?.isDirectory === true);
        if (isDir) {
          if (isNeverRunFolder(entry.name) || exclude.has(realPath(full))) skippedFolders.push(full);
          else kinds.set(entry.name, 'folder');
        } else if (entry.name.endsWith(REQUEST_FILE_SUFFIX)) {
          kinds.set(entry.name, 'file');
          if (entry.isFile) regular.add(entry.name);
        }
      }
      const listed = config.file && path.dirname(config.file) === folder ? config.order : [];
      for (const name of listed) {
        if (!kinds.has(name)) {
          problems.push({
            kind: 'file',
            message: `collection.json "order" names "${name}", which is not a request file or folder in ${folder}`,
            location: config.orderLocations.get(name),
          });
        }
      }
      const unlisted = (kind: 'file' | 'folder') => naturalSort([...kinds.keys()].filter((n) => kinds.get(n) === kind && !listed.includes(n)));
      // Files before subfolders: a subfolder's tests may use what this folder's files capture.
      const ordered = [...listed.filter((n) => kinds.has(n)), ...unlisted('file'), ...unlisted('folder')];
      for (let i = ordered.length - 1; i >= 0; i--)
        stack.push({ path: path.join(folder, ordered[i]), folder: kinds.get(ordered[i]) === 'folder', regular: regular.has(ordered[i]) });
    }
  };

  const named = new Set(
    inputs
      .map((input) => safeStat(path.resolve(base, input)))
      .filter((s): s is FileStat => s?.isDirectory === true)
      .map(identity),
  );
  for (const input of inputs) {
    const given = path.resolve(base, input);
    const stat = safeStat(given);
    if (!stat) {
      problems.push({ kind: 'file', message: `no such file or folder: ${input}` });
      continue;
    }
    // The real path: the same folder is the same collection however its path was spelled.
    const full = realPath(given);
    if (stat.isDirectory) {
      if (seenFolders.has(identity(stat))) continue;
      const before = files.length;
      expand(full);
      if (files.length === before) problems.push({ kind: 'file', message: `no request files (*${REQUEST_FILE_SUFFIX}) in ${input}` });
    } else addFile(full, stat, input);
  }
  return { files, configs, problems, warnings, skippedFolders };
}

export { isInside };
