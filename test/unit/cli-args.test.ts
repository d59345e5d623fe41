/**
 * The one argument parser of the CLI (src/cli/args.ts): repeated flags, comma lists, `=` and space
 * forms, short aliases, `--` ending options, `--var name=value` checked in one place with one
 * message — and no command reading its arguments itself.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { asksForHelp, listFlag, parseArgs, type FlagSpec } from '../../src/cli/args';
import type { CliIo } from '../../src/cli/command';
import { isUsageError } from '../../src/cli/command';
import { runCli } from '../../src/cli/dispatch';
import { tmpDir } from './transport-support';

const ROOT = path.join(__dirname, '..', '..');

const SPECS: readonly FlagSpec[] = [
  { name: 'env', short: 'e', value: true, description: 'environment' },
  { name: 'reporter', short: 'r', value: true, repeatable: true, description: 'reporters' },
  { name: 'var', value: true, variables: true, repeatable: true, description: 'variables' },
  { name: 'bail', description: 'stop early' },
  { name: 'quiet', short: 'q', description: 'say less' },
];

function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(isUsageError(error), `a UsageError, not ${String(error)}`);
    return (error as Error).message;
  }
  assert.fail('no UsageError');
}

async function carrier(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd,
    env: {},
  };
  const code = await runCli(args, io);
  return { code, out, err };
}

describe('the CLI argument parser', () => {
  it('keeps every value of a repeated flag, in order, and the last as the flag', () => {
    const parsed = parseArgs(['-r', 'cli', '--reporter', 'junit', '--reporter=json', 'a', '-r=html'], SPECS);
    assert.deepEqual(parsed.lists.get('reporter'), ['cli', 'junit', 'json', 'html']);
    assert.equal(parsed.flags.get('reporter'), 'html');
    assert.deepEqual(parsed.positionals, ['a']);
  });

  it('splits comma lists across repeats, trimmed, empty items dropped, with a fallback', () => {
    const parsed = parseArgs(['-r', 'cli', '-r', 'junit, json,', '--reporter=html'], SPECS);
    assert.deepEqual(listFlag(parsed, 'reporter'), ['cli', 'junit', 'json', 'html']);
    assert.deepEqual(listFlag(parseArgs([], SPECS), 'reporter', ['cli']), ['cli']);
    assert.deepEqual(listFlag(parseArgs([], SPECS), 'reporter'), []);
  });

  it('reads --flag=value, --flag value, -f value and -f=value alike; a value may start with - or hold =', () => {
    for (const args of [['--env=staging'], ['--env', 'staging'], ['-e', 'staging'], ['-e=staging']]) {
      assert.equal(parseArgs(args, SPECS).flags.get('env'), 'staging', args.join(' '));
    }
    assert.equal(parseArgs(['--env', '-x'], SPECS).flags.get('env'), '-x');
    assert.equal(parseArgs(['--env=a=b'], SPECS).flags.get('env'), 'a=b');
    assert.equal(parseArgs(['--env='], SPECS).flags.get('env'), '');
  });

  it('sets flags without a value by long or short name, and refuses a value for them', () => {
    const parsed = parseArgs(['--bail', '-q'], SPECS);
    assert.equal(parsed.flags.get('bail'), true);
    assert.equal(parsed.flags.get('quiet'), true);
    assert.equal(
      usageError(() => parseArgs(['--bail=yes'], SPECS)),
      'option --bail takes no value',
    );
    assert.equal(
      usageError(() => parseArgs(['-q=1'], SPECS)),
      'option --quiet takes no value',
    );
  });

  it('a flag that needs a value given none is a usage error', () => {
    assert.equal(
      usageError(() => parseArgs(['a', '--env'], SPECS)),
      'option --env needs a value',
    );
    assert.equal(
      usageError(() => parseArgs(['-r'], SPECS)),
      'option --reporter needs a value',
    );
    assert.equal(
      usageError(() => parseArgs(['--var'], SPECS)),
      'option --var needs a value',
    );
  });

  it('an unknown flag is a usage error, long or short; no loose spelling of a known one passes', () => {
    assert.equal(
      usageError(() => parseArgs(['--nope'], SPECS)),
      'unknown option --nope',
    );
    assert.equal(
      usageError(() => parseArgs(['--nope=1'], SPECS)),
      'unknown option --nope',
    );
    assert.equal(
      usageError(() => parseArgs(['-x'], SPECS)),
      'unknown option -x',
    );
    assert.equal(
      usageError(() => parseArgs(['--r', 'cli'], SPECS)),
      'unknown option --r',
    );
    assert.equal(
      usageError(() => parseArgs(['-var', 'a=1'], SPECS)),
      'unknown option -var',
    );
  });

  it('-- ends the options: everything after it is a positional, - alone is one too', () => {
    const parsed = parseArgs(['-q', '-', '--', '--env', 'x', '-r', '--var', '--'], SPECS);
    assert.deepEqual(parsed.positionals, ['-', '--env', 'x', '-r', '--var', '--']);
    assert.equal(parsed.flags.has('env'), false);
    assert.deepEqual(parsed.variables, {});
  });

  it('--var name=value: split at the first =, repeatable, a later one wins, the value may be empty', () => {
    const parsed = parseArgs(['--var', 'a=1', '--var=b=x=y', '--var', 'a=2', '--var', 'c='], SPECS);
    assert.deepEqual({ ...parsed.variables }, { a: '2', b: 'x=y', c: '' });
  });

  it('--var with a bad name or no = is refused in one place, with one message each', () => {
    assert.equal(
      usageError(() => parseArgs(['--var', 'novalue'], SPECS)),
      '--var needs name=value, not "novalue"',
    );
    assert.equal(
      usageError(() => parseArgs(['--var', '1st=x'], SPECS)),
      '--var 1st=x: "1st" is not a variable name (letters, digits, _ . - ; starting with a letter or _)',
    );
    assert.equal(
      usageError(() => parseArgs(['--var==x'], SPECS)),
      '--var =x: "" is not a variable name (letters, digits, _ . - ; starting with a letter or _)',
    );
    assert.equal(
      usageError(() => parseArgs(['--var', '__proto__=x'], SPECS)),
      '--var __proto__=x: "__proto__" is reserved and cannot name a variable',
    );
  });

  it('--help or -h before -- asks for the usage', () => {
    assert.equal(asksForHelp(['a', '--help']), true);
    assert.equal(asksForHelp(['-h']), true);
    assert.equal(asksForHelp(['a', '--', '--help']), false);
    assert.equal(asksForHelp(['--helpful']), false);
  });
});

describe('every command parses through the one parser', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = tmpDir('carrier-cli-args-');
    fs.writeFileSync(
      path.join(dir, 'a.carrier.json'),
      JSON.stringify({ operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: '{{zip}}', CountryCode: '{{country}}' } }, null, 2),
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('no command reads its arguments itself', () => {
    const folder = path.join(ROOT, 'src', 'cli', 'commands');
    for (const name of fs.readdirSync(folder).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(folder, name), 'utf8');
      for (const pattern of [
        /process\.argv/,
        /args\.indexOf/,
        /args\[/,
        /splitRepeatable/,
        /takeVariables/,
        /\.split\(','\)/,
        /variableNameProblem|isVariableName/,
      ]) {
        assert.doesNotMatch(text, pattern, `${name} reads its arguments itself (${pattern})`);
      }
    }
  });

  it('run, envelope, send and compare give the same message for a bad --var, exit 2', async () => {
    for (const command of ['run', 'envelope', 'send', 'compare']) {
      const r = await carrier([command, 'a.carrier.json', '--var', 'zip=1', '--var', '9lives=x'], dir);
      assert.equal(r.code, 2, `${command}: ${r.out}${r.err}`);
      assert.ok(
        r.err.startsWith(`carrier ${command}: --var 9lives=x: "9lives" is not a variable name (letters, digits, _ . - ; starting with a letter or _)\n`),
        `${command}: ${r.err}`,
      );
      const bare = await carrier([command, 'a.carrier.json', '--var', 'zip'], dir);
      assert.equal(bare.code, 2);
      assert.ok(bare.err.startsWith(`carrier ${command}: --var needs name=value, not "zip"\n`), `${command}: ${bare.err}`);
    }
  });

  it('an unknown flag or a missing value: exit 2, the message and the usage', async () => {
    for (const command of ['validate', 'run', 'report', 'envelope', 'send', 'sandbox', 'inspect', 'contract', 'compare']) {
      const unknown = await carrier([command, '--no-such-flag'], dir);
      assert.equal(unknown.code, 2, command);
      assert.match(unknown.err, new RegExp(`^carrier ${command}: unknown option --no-such-flag\\n\\nUsage: carrier ${command}`), command);
    }
    const missing = await carrier(['run', 'a.carrier.json', '-r'], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^carrier run: option --reporter needs a value\n\nUsage: carrier run/);
  });

  it('run: repeated -r and comma lists reach the reporters, every one checked', async () => {
    const r = await carrier(['run', 'a.carrier.json', '-r', 'cli', '--reporter=junit,json', '-r', 'xml'], dir);
    assert.equal(r.code, 2);
    assert.match(r.err, /^carrier run: unknown reporter "xml" \(reporters: cli, junit, json, html\)/);
  });

  it('envelope: repeated --var in both forms, a short alias and -- before the file', async () => {
    const r = await carrier(['envelope', '--var', 'zip=68507', '-e', 'sandbox', '--var=country=USA', '--', 'a.carrier.json'], dir);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /68507/);
    assert.match(r.out, /USA/);
    assert.match(r.out, /embedded-sandbox\.invalid/);
  });
});
