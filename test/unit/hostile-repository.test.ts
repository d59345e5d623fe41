/**
 * A repository is input from outside: request files, collection.json and environments that are
 * deep, not UTF-8, or name variables after object machinery get a located error, never an
 * internal error or a silently changed value — in `carrier validate` and `carrier run`.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../src/cli/dispatch';
import { firstInvalidByte } from '../../src/core/requestFile/readText';
import { Pattern } from '../../src/core/runner/pattern';
import { tmpDir } from './transport-support';

async function carrier(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd,
    env: {},
  });
  return { code, out, err };
}

const TERMINAL = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: '68507', CountryCode: 'USA' }, ...extra }, null, 2);

describe('a hostile repository', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = tmpDir('carrier-hostile-repo-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a request file nested 100,000 levels deep is a located error, not a stack overflow', async () => {
    const deep = `{ "operation": "GetTerminalInformation", "version": "1.0.2", "params": { "ZipCode": ${'['.repeat(100_000)}${']'.repeat(100_000)} } }`;
    fs.writeFileSync(path.join(dir, 'deep.carrier.json'), deep);
    const validated = await carrier(['validate', 'deep.carrier.json'], dir);
    assert.equal(validated.code, 1, validated.out + validated.err);
    assert.match(validated.out, /deep\.carrier\.json:1:\d+: error: nested deeper than 128 levels/);
    const run = await carrier(['run', 'deep.carrier.json'], dir);
    assert.equal(run.code, 2, run.out + run.err);
    assert.doesNotMatch(run.out + run.err, /internal error|Maximum call stack/);
  });

  it('a collection.json nested deeply is a located error', async () => {
    fs.writeFileSync(path.join(dir, 'collection.json'), `{ "variables": ${'['.repeat(50_000)}${']'.repeat(50_000)} }`);
    fs.writeFileSync(path.join(dir, 'a.carrier.json'), TERMINAL());
    const run = await carrier(['run', '.'], dir);
    assert.equal(run.code, 2, run.out + run.err);
    assert.match(run.err, /collection\.json:1:\d+: error: collection\.json nests deeper than 128 levels/);
  });

  it('invalid UTF-8 is an error at its byte, line and column, not a replaced character', async () => {
    const text = Buffer.concat([
      Buffer.from('{\n  "operation": "GetTerminalInformation",\n  "version": "1.0.2",\n  "params": { "ZipCode": "685'),
      Buffer.from([0xff]),
      Buffer.from('07", "CountryCode": "USA" }\n}\n'),
    ]);
    fs.writeFileSync(path.join(dir, 'latin.carrier.json'), text);
    const at = text.indexOf(0xff);
    assert.equal(firstInvalidByte(text), at);
    const validated = await carrier(['validate', 'latin.carrier.json'], dir);
    assert.equal(validated.code, 1);
    assert.match(validated.out, new RegExp(`latin\\.carrier\\.json:4:30: error: cannot read the file \\(invalid UTF-8 at byte ${at} \\(line 4, column 30\\)`));
    const run = await carrier(['run', 'latin.carrier.json'], dir);
    assert.equal(run.code, 2, run.out + run.err);
    assert.match(run.err, /latin\.carrier\.json:4:30: error: .*invalid UTF-8 at byte/);
    const send = await carrier(['send', 'latin.carrier.json'], dir);
    assert.equal(send.code, 2);
    assert.match(send.err, /invalid UTF-8/);
  });

  it('finds malformed sequences the way a strict decoder does', () => {
    const cases: Array<[number[], number]> = [
      [[0x61, 0xc3, 0xa9], 3], // é: valid
      [[0xc0, 0x80], 0], // overlong NUL
      [[0xe0, 0x80, 0x80], 0], // overlong
      [[0xed, 0xa0, 0x80], 0], // a surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0], // past U+10FFFF
      [[0x61, 0xe2, 0x82], 1], // cut short
      [[0x80], 0], // a lone continuation byte
    ];
    for (const [bytes, at] of cases) assert.equal(firstInvalidByte(Uint8Array.from(bytes)), at, JSON.stringify(bytes));
  });

  it('__proto__, constructor and prototype are refused as variable names where variables are defined', async () => {
    fs.writeFileSync(path.join(dir, 'a.carrier.json'), TERMINAL());
    const flag = await carrier(['run', 'a.carrier.json', '--var', '__proto__=x'], dir);
    assert.equal(flag.code, 2);
    assert.match(flag.err, /"__proto__" is reserved/);
    fs.writeFileSync(path.join(dir, 'collection.json'), JSON.stringify({ variables: { constructor: 'x' } }));
    const collection = await carrier(['run', '.'], dir);
    assert.equal(collection.code, 2, collection.out + collection.err);
    assert.match(collection.err, /collection\.json:\d+:\d+: error: "constructor" is reserved/);
    fs.rmSync(path.join(dir, 'collection.json'));
    fs.writeFileSync(
      path.join(dir, 'carrier.environments.json'),
      JSON.stringify({ staging: { baseUrl: 'http://127.0.0.1:9', variables: { prototype: 'x' } } }),
    );
    const env = await carrier(['run', '.', '--env', 'staging'], dir);
    assert.equal(env.code, 2, env.out + env.err);
    assert.match(env.out + env.err, /"prototype" is reserved/);
  });

  it('carrier validate checks expect and capture as carrier run would', async () => {
    fs.writeFileSync(path.join(dir, 'a.carrier.json'), TERMINAL({ expect: { status: 'two hundred', reply: { 'Result[': { equals: 1 } } } }));
    const validated = await carrier(['validate', 'a.carrier.json'], dir);
    assert.equal(validated.code, 1, validated.out + validated.err);
    assert.match(validated.out, /a\.carrier\.json:\d+:\d+: error: .*status/);
  });
});

describe('patterns from a repository', function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => {
    dir = tmpDir('carrier-hostile-pattern-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("(a+)+$ against forty a's answers at once: the engine is linear-time (a backtracking one runs for minutes)", () => {
    const re = new Pattern('(a+)+$').resolve(() => undefined).regex!;
    assert.equal(re.test(`${'a'.repeat(40)}!`), false);
    assert.equal(re.test('a'.repeat(100_000)), true);
    assert.equal(new Pattern('^\\u00e9t\\u{e9}$').resolve(() => undefined).regex!.test('été'), true, 'JavaScript \\u escapes still work');
  });

  it('lookaround and backreferences are refused with a located error before anything is sent', async () => {
    fs.writeFileSync(
      path.join(dir, 'a.carrier.json'),
      TERMINAL({ expect: { reply: { 'TerminalInformation.TerminalDetails.TerminalCode': { matches: '^(?=L)(.)\\1' } } } }),
    );
    const run = await carrier(['run', 'a.carrier.json'], dir);
    assert.equal(run.code, 2, run.out + run.err);
    assert.match(run.err, /a\.carrier\.json:\d+:\d+: error: .*not a valid regular expression.*linear-time engine/);
  });
});
