/**
 * `carrier run --tag` (src/core/runner/select.ts tagFilter): tags of request files and of
 * collection.json, several positive tags taking any of them, `!tag` leaving tests out, with
 * `--grep` too; a chosen test still brings the tests whose captures it uses (even one a `!tag`
 * leaves out), and the run says what it chose, added and left out. Tags that are no tags are
 * errors at their line and column.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli/dispatch';

const EXAMPLE = path.resolve(__dirname, '../../examples/collections/tracing');

/** Tags per file of the tracing example: 2 uses what 1 captures. */
const TAGS: Record<string, string[]> = {
  '1-trace-by-pro.carrier.json': ['trace', 'slow'],
  '2-trace-by-bol-number.carrier.json': ['trace', 'bol'],
  '3-trace-two-pros-ivr.carrier.json': ['slow'],
  '4-document-types.carrier.json': ['docs'],
  '5-delivery-receipt.carrier.json': ['docs', 'slow'],
};

describe('carrier run --tag', function () {
  this.timeout(120_000);
  let work: string;
  let suite: string;

  async function carrier(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), cwd: work, env: {} });
    return { code, out, err };
  }

  /** The names of the tests the run's report.json holds, without the binding, sorted (they run four at once). */
  const ran = (out: string): string[] =>
    (JSON.parse(fs.readFileSync(path.join(work, out, 'report.json'), 'utf8')) as { tests: Array<{ name: string }> }).tests
      .map((t) => t.name.split(' ')[0])
      .sort();

  /** Adds `"tags": […]` as the first key of a JSON object's text. */
  const withTags = (text: string, tags: unknown) => text.replace('{', `{\n  "tags": ${JSON.stringify(tags)},`);

  before(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tags-'));
    suite = path.join(work, 'tracing');
    fs.cpSync(EXAMPLE, suite, { recursive: true });
    for (const [file, tags] of Object.entries(TAGS)) fs.writeFileSync(path.join(suite, file), withTags(fs.readFileSync(path.join(suite, file), 'utf8'), tags));
    // Every test of the collection carries "tracing" as well.
    fs.writeFileSync(path.join(suite, 'collection.json'), withTags(fs.readFileSync(path.join(suite, 'collection.json'), 'utf8'), ['tracing']));
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('runs the tests with a tag, with the tests whose captures they use, though a !tag leaves those out', async () => {
    const r = await carrier(['run', 'tracing', '--tag', 'bol', '--tag', '!slow', '-r', 'json', '-o', 'bol']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /--tag bol --tag !slow chose 1 of 5 tests, and 1 test whose captures they use; 3 left out/);
    assert.deepEqual(ran('bol'), ['1-trace-by-pro.carrier.json', '2-trace-by-bol-number.carrier.json']);
    const report = JSON.parse(fs.readFileSync(path.join(work, 'bol', 'report.json'), 'utf8')) as { tests: Array<{ tags?: string[] }> };
    assert.deepEqual(report.tests[1].tags, ['tracing', 'trace', 'bol'], "the collection's tags, then the file's");
  });

  it('takes any of several tags; a collection tag is every test of it; --tag with --grep is both', async () => {
    const any = await carrier(['run', 'tracing', '--tag', 'bol,docs', '-r', 'json', '-o', 'any']);
    assert.equal(any.code, 0, any.err);
    assert.match(any.err, /chose 3 of 5 tests, and 1 test whose captures they use; 1 left out/);
    assert.deepEqual(ran('any'), [
      '1-trace-by-pro.carrier.json',
      '2-trace-by-bol-number.carrier.json',
      '4-document-types.carrier.json',
      '5-delivery-receipt.carrier.json',
    ]);

    const collection = await carrier(['run', 'tracing', '--tag', 'tracing', '--tag', '!slow', '-r', 'json', '-o', 'collection']);
    assert.equal(collection.code, 0, collection.err);
    assert.match(collection.err, /chose 2 of 5 tests, and 1 test whose captures they use; 2 left out/);
    assert.deepEqual(ran('collection'), ['1-trace-by-pro.carrier.json', '2-trace-by-bol-number.carrier.json', '4-document-types.carrier.json']);

    const grep = await carrier(['run', 'tracing', '--grep', 'trace', '--tag', '!bol', '-r', 'json', '-o', 'grep']);
    assert.equal(grep.code, 0, grep.err);
    assert.match(grep.err, /--grep \/trace\/ --tag !bol chose 2 of 5 tests; 3 left out/);
    assert.deepEqual(ran('grep'), ['1-trace-by-pro.carrier.json', '3-trace-two-pros-ivr.carrier.json']);

    const none = await carrier(['run', 'tracing', '--tag', 'no-such-tag']);
    assert.equal(none.code, 1, 'a run where nothing ran fails');
    assert.match(none.err, /--tag no-such-tag chose 0 of 5 tests; 5 left out/);
  });

  it('refuses tags that are no tags, on the command line and in files, at their line and column', async () => {
    const bare = await carrier(['run', 'tracing', '--tag', '!']);
    assert.equal(bare.code, 2);
    assert.match(bare.err, /--tag !: a tag is a non-empty string/);

    const file = path.join(work, 'bad', 'one.carrier.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, withTags(fs.readFileSync(path.join(EXAMPLE, '4-document-types.carrier.json'), 'utf8'), ['smoke', 'two words']));
    const inFile = await carrier(['run', 'bad']);
    assert.equal(inFile.code, 2, inFile.err);
    assert.match(inFile.err, /bad\/one\.carrier\.json:2:20: error: tag "two words" has a space or comma/);

    fs.writeFileSync(file, fs.readFileSync(path.join(EXAMPLE, '4-document-types.carrier.json')));
    fs.writeFileSync(path.join(work, 'bad', 'collection.json'), '{\n  "tags": ["ok", "a,b", 3]\n}\n');
    const inCollection = await carrier(['run', 'bad']);
    assert.equal(inCollection.code, 2, inCollection.err);
    assert.match(inCollection.err, /bad\/collection\.json:2:18: error: tag "a,b" has a space or comma/);
    assert.match(inCollection.err, /bad\/collection\.json:2:25: error: a tag is a non-empty string/);
  });
});
