/**
 * Which created folders are worth a new search for tests (src/extension/testing/holdsRequestFiles.ts):
 * one holding a request file or a collection.json at any depth, or still empty; not a build's
 * output, nor what only node_modules or .git hold.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { holdsRequestFiles } from '../../src/extension/testing/holdsRequestFiles';

describe('a created folder, looked through for request files', () => {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'holds-request-files-'));
  });

  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  function write(relative: string, text = '{}'): void {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }

  it('holds a request file deep inside, or a collection.json', async () => {
    write('moved/a/b/c/terminal.carrier.json');
    write('copied/collection.json');
    assert.equal(await holdsRequestFiles(path.join(root, 'moved')), true);
    assert.equal(await holdsRequestFiles(path.join(root, 'copied')), true);
  });

  it("does not for a build's output, nor for request files only under node_modules or .git", async () => {
    write('dist/cli.js', '0');
    write('dist/maps/cli.js.map', '{}');
    write('dist/data.json');
    write('dist/node_modules/pkg/x.carrier.json');
    write('dist/.git/objects/y.carrier.json');
    assert.equal(await holdsRequestFiles(path.join(root, 'dist')), false);
  });

  it('does while still empty: a writer makes the folder before its files', async () => {
    fs.mkdirSync(path.join(root, 'new'));
    assert.equal(await holdsRequestFiles(path.join(root, 'new')), true);
  });

  it('does past its limit of entries looked at, and not for a folder gone meanwhile', async () => {
    for (let i = 0; i < 5; i++) write(`big/f${i}.txt`, '');
    assert.equal(await holdsRequestFiles(path.join(root, 'big'), 4), true, 'a search too many rather than a collection missed');
    assert.equal(await holdsRequestFiles(path.join(root, 'big'), 10), false);
    assert.equal(await holdsRequestFiles(path.join(root, 'gone')), false);
  });
});
