/**
 * Writes the files generated from the catalog (schemas/, snippets/, and the shapes' precompiled
 * validators in src/core/validation/generated/) and the environments file's precompiled validator
 * (src/core/environments/generated/, from its hand-written schema). With --check, writes nothing
 * and exits 1 naming every file that is missing, stale or no longer generated.
 *
 *   npm run generate           # after changing src/core/catalog
 *   npm run check:generated    # in CI
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ENVIRONMENTS_VALIDATOR_FILE,
  environmentsValidatorSource,
  GENERATED_FOLDERS,
  generatedFiles,
  PRECOMPILED_VALIDATORS_FILE,
  precompiledValidatorsSource,
  staleFiles,
  type TreeReader,
} from '../src/core';

const root = path.resolve(__dirname, '..');
const check = process.argv.includes('--check');
const unknown = process.argv.slice(2).filter((a) => a !== '--check');
if (unknown.length > 0) {
  process.stderr.write(`generate: unknown argument ${unknown.join(' ')}\nusage: tsx scripts/generate.ts [--check]\n`);
  process.exit(2);
}

const tree: TreeReader = {
  readFile: (file) => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : undefined),
  listFolder: (folder) => (fs.existsSync(path.join(root, folder)) ? fs.readdirSync(path.join(root, folder)) : []),
};
// The validators are code, not a document for editors, so core's list of generated files leaves them out.
const files = [
  ...generatedFiles(),
  { path: PRECOMPILED_VALIDATORS_FILE, content: precompiledValidatorsSource() },
  { path: ENVIRONMENTS_VALIDATOR_FILE, content: environmentsValidatorSource() },
];

if (check) {
  const stale = staleFiles(tree, files);
  if (stale.length > 0) {
    process.stderr.write(`Generated files are stale — run \`npm run generate\` and commit the result:\n${stale.map((s) => `  ${s}\n`).join('')}`);
    process.exit(1);
  }
  process.stdout.write(`${files.length} generated files are up to date.\n`);
} else {
  const changes: string[] = [];
  for (const file of files) {
    if (tree.readFile(file.path) === file.content) continue;
    const target = path.join(root, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.content);
    changes.push(`wrote ${file.path}`);
  }
  // A shape that left the catalog leaves its schema behind; only wholly generated folders are swept.
  const wanted = new Set(files.map((f) => f.path));
  for (const folder of GENERATED_FOLDERS) {
    for (const name of tree.listFolder(folder)) {
      if (wanted.has(`${folder}/${name}`)) continue;
      fs.rmSync(path.join(root, folder, name));
      changes.push(`removed ${folder}/${name}`);
    }
  }
  process.stdout.write(changes.length > 0 ? `${changes.join('\n')}\n` : `${files.length} generated files already up to date.\n`);
}
