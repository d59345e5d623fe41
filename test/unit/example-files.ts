/**
 * The example request files the tests send one by one (examples/). Two kinds of folder are left
 * out: collections, whose files send values earlier files capture ({{pro}}), as `collectionsToo`
 * says; and a folder with its own carrier.environments.json (examples/fast-clock/), a project of
 * its own whose files name environments only it defines, so an `--env` a test gives is not there.
 * A walk with a stack: the tree is the repository's, but no folder costs a call.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

export function exampleFiles(options: { root?: string; collectionsToo?: boolean } = {}): string[] {
  const out: string[] = [];
  const folders = [options.root ?? EXAMPLES];
  while (folders.length) {
    const dir = folders.pop()!;
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === 'collections' && !options.collectionsToo) continue;
        if (fs.existsSync(path.join(full, 'carrier.environments.json'))) continue;
        folders.push(full);
      } else if (e.name.endsWith('.carrier.json')) out.push(full);
    }
  }
  return out.sort();
}
