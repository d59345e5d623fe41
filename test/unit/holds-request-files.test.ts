/**
 * Which created folders are worth a new search for tests (src/extension/testing/holdsRequestFiles.ts),
 * with core's names as the engine hands them to discovery: one holding a request file or a
 * collection.json at any depth, or still empty; not a build's output, nor what only folders a run
 * never goes into (node_modules, hidden ones) hold.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { COLLECTION_FILE, isNeverRunFolder, REQUEST_FILE_SUFFIX } from '../../src/core';
import { holdsRequestFiles as holds } from '../../src/extension/testing/holdsRequestFiles';

const NAMES = { requestFileSuffix: REQUEST_FILE_SUFFIX, collectionFile: COLLECTION_FILE, isNeverRunFolder };
const holdsRequestFiles = (folder: string, maxLooked?: number) => holds(folder, NAMES, maxLooked);

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

  it("does not for a build's output, nor for request files only under node_modules or a hidden folder", async () => {
    write('dist/cli.js', '0');
    write('dist/maps/cli.js.map', '{}');
    write('dist/data.json');
    write('dist/node_modules/pkg/x.carrier.json');
    write('dist/.git/objects/y.carrier.json');
    write('dist/.cache/z.carrier.json');
    assert.equal(await holdsRequestFiles(path.join(root, 'dist')), false);
  });

  it('does while still empty: a writer makes the folder before its files', async () => {
    fs.mkdirSync(path.join(root, 'new'));
    assert.equal(await holdsRequestFiles(path.join(root, 'new')), true);
  });

  it('does past its limit of entries looked at; not for a folder gone meanwhile, nor for a file', async () => {
    for (let i = 0; i < 5; i++) write(`big/f${i}.txt`, '');
    assert.equal(await holdsRequestFiles(path.join(root, 'big'), 4), true, 'a search too many rather than a collection missed');
    assert.equal(await holdsRequestFiles(path.join(root, 'big'), 10), false);
    assert.equal(await holdsRequestFiles(path.join(root, 'gone')), false);
    assert.equal(await holdsRequestFiles(path.join(root, 'big', 'f0.txt')), false);
  });
});
