/**
 * Reports show files relative to the run's base folder (src/core/runner/reporters/format.ts): a
 * file plainly below the base is cut to the rest of its path, any other goes through
 * path.relative. Both ways must show the same text for any path.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import fc from 'fast-check';
import { relativeTo } from '../../src/core';

/** What reports showed before the short cut: path.relative, outside the base shown whole. */
function byPathRelative(baseDir: string, file: string): string {
  const rel = path.relative(baseDir, file);
  return (rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file).split(path.sep).join('/');
}

const segment = fc.constantFrom('a', 'b', 'tests', '.', '..', '', '.hidden', 'x.carrier.json', 'ü', 'a b');
const pathOf = fc.array(segment, { minLength: 0, maxLength: 6 }).map((s) => `/${s.join('/')}`);

describe('report paths relative to the base folder', () => {
  it('a file below the base, or anywhere else, shows as path.relative shows it', () => {
    fc.assert(
      fc.property(pathOf, pathOf, fc.boolean(), (base, rest, under) => {
        const file = under ? `${base}/${rest}` : rest;
        assert.equal(relativeTo(base)(file), byPathRelative(base, file), `${base} → ${file}`);
      }),
      { numRuns: 5000 },
    );
  });

  it('the plain cases', () => {
    const rel = relativeTo('/work/suite');
    assert.equal(rel('/work/suite/a/b.carrier.json'), 'a/b.carrier.json');
    // Outside the base once `..` is resolved: shown whole, as it was given.
    assert.equal(rel('/work/suite/../other/x.json'), '/work/suite/../other/x.json');
    assert.equal(rel('/work/suiteX/a.json'), '/work/suiteX/a.json');
    assert.equal(relativeTo('/')('/a/b.json'), 'a/b.json');
  });
});
