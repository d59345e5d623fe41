/**
 * The built CLI: a small dispatcher (dist/cli.js) that loads each command's own bundle
 * (dist/cli/<name>.js) only when that command runs. Built by the project's build script in a
 * scratch folder (the working tree's dist/ is left alone) and run as whole processes through
 * bin/carrier.js: every command's --help says what the sources say, and validate, send and run
 * work through the bundles.
 */
import * as assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { CliIo } from '../../src/cli/command';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/dispatch';

const ROOT = path.resolve(__dirname, '../..');
const EXAMPLE = 'examples/rate-quote/get-rate-quote-1.0.0.carrier.json';

async function inProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: ROOT,
    env: {},
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

describe('the built CLI: a dispatcher and a bundle per command', function () {
  this.timeout(180_000);
  let dir: string;
  let carrier: string;
  const runWith = (env: NodeJS.ProcessEnv, ...args: string[]) => {
    const r = spawnSync(process.execPath, [carrier, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 60_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const run = (...args: string[]) => runWith({}, ...args);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-cli-bundle-'));
    fs.symlinkSync(path.join(ROOT, 'src'), path.join(dir, 'src'), 'dir');
    // As in the repository: the bundles run beside node_modules, where the few dependencies a
    // command loads only when used (pdf-lib, ajv, re2js, csv-parse; esbuild.js) are found.
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: dir });
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.copyFileSync(path.join(ROOT, 'bin', 'carrier.js'), path.join(dir, 'bin', 'carrier.js'));
    carrier = path.join(dir, 'bin', 'carrier.js');
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('builds one bundle per command, and a dispatcher that carries none of them', () => {
    for (const c of commands) assert.ok(fs.existsSync(path.join(dir, 'dist', 'cli', `${c.name}.js`)), `dist/cli/${c.name}.js`);
    const dispatcher = fs.readFileSync(path.join(dir, 'dist', 'cli.js'), 'utf8');
    assert.ok(dispatcher.length < 50_000, `dist/cli.js is ${dispatcher.length} bytes`);
    for (const heavy of ['node_modules/ajv', 'node_modules/undici', 'node_modules/pdf-lib', 'src/sandbox/', 'src/inspector/'])
      assert.ok(!dispatcher.includes(heavy), `dist/cli.js carries ${heavy}`);
    // The sandbox (with pdf-lib and the XML builder) is dist/sandbox.js, loaded by a command only when it starts one.
    for (const name of ['run', 'send', 'validate', 'envelope', 'contract', 'compare', 'report']) {
      const bundle = fs.readFileSync(path.join(dir, 'dist', 'cli', `${name}.js`), 'utf8');
      for (const heavy of ['src/sandbox/', 'node_modules/pdf-lib', 'node_modules/ajv/dist/core', 'node_modules/re2js', 'node_modules/csv-parse'])
        assert.ok(!bundle.includes(heavy), `dist/cli/${name}.js carries ${heavy}`);
    }
  });

  it("carrier --help and every command's --help print what the sources print", async () => {
    const top = run('--help');
    assert.equal(top.code, 0);
    assert.equal(top.stdout, (await inProcess(['--help'])).stdout);
    for (const c of commands) {
      const built = run(c.name, '--help');
      const source = await inProcess([c.name, '--help']);
      assert.equal(built.code, 0, `${c.name} --help: ${built.stderr}`);
      assert.equal(built.stdout, source.stdout, `${c.name} --help`);
      assert.match(built.stdout, new RegExp(`^Usage: carrier ${c.name}`));
      assert.equal(run('help', c.name).stdout, source.stdout, `help ${c.name}`);
    }
  });

  it('an unknown command and a usage error exit 2 as from the sources', async () => {
    const unknown = run('validat');
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, (await inProcess(['validat'])).stderr);
    const usage = run('validate');
    assert.equal(usage.code, 2);
    assert.equal(usage.stderr, (await inProcess(['validate'])).stderr);
  });

  it('carrier validate: a good file exits 0, a broken one 1 with its located error', () => {
    const good = run('validate', EXAMPLE);
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stderr, /1 file checked: 0 errors/);
    const bad = path.join(dir, 'bad.carrier.json');
    fs.writeFileSync(bad, '{\n');
    const broken = run('validate', '--json', bad);
    assert.equal(broken.code, 1);
    assert.equal((JSON.parse(broken.stdout) as unknown[]).length, 1);
  });

  it("keeps V8's code cache of a command bundle, used only for that bundle, and never needs it", () => {
    const cacheDir = path.join(dir, 'compile-cache');
    const env = { CARRIER_CACHE_DIR: cacheDir };
    const file = path.join(cacheDir, 'validate.js.cache');
    const first = runWith(env, 'validate', '--json', EXAMPLE);
    assert.equal(first.code, 0, first.stderr);
    const made = fs.readFileSync(file);
    const key = made.subarray(0, 64).toString('latin1');
    assert.match(
      made.subarray(0, made.indexOf(0x0a)).toString('latin1'),
      /^[0-9a-f]{64} \d+$/,
      'the first line names what the code was made for, and its checksum',
    );
    assert.ok(made.length > 10_000, `${made.length} bytes of cached code`);
    // Used as it is: the same answer, and the file is not written again.
    const second = runWith(env, 'validate', '--json', EXAMPLE);
    assert.deepEqual([second.code, second.stdout], [first.code, first.stdout]);
    assert.ok(fs.readFileSync(file).equals(made), 'an accepted cache is left alone');
    // Damaged (cut short, or a byte changed), or made for another build: the command runs as
    // ever and the cache is made anew.
    fs.writeFileSync(file, Buffer.concat([made.subarray(0, made.length >> 1), Buffer.alloc(64, 7)]));
    const damaged = runWith(env, 'validate', '--json', EXAMPLE);
    assert.deepEqual([damaged.code, damaged.stdout], [first.code, first.stdout]);
    assert.ok(fs.readFileSync(file).length > made.length >> 1, 'rewritten after it was refused');
    const flipped = Buffer.from(made);
    flipped[flipped.length - 100] ^= 0xff;
    fs.writeFileSync(file, flipped);
    const changed = runWith(env, 'validate', '--json', EXAMPLE);
    assert.deepEqual([changed.code, changed.stdout], [first.code, first.stdout]);
    assert.ok(!fs.readFileSync(file).equals(flipped), 'a changed byte is caught by the checksum');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('0'.repeat(64)), made.subarray(64)]));
    const stale = runWith(env, 'validate', '--json', EXAMPLE);
    assert.deepEqual([stale.code, stale.stdout], [first.code, first.stdout]);
    assert.equal(fs.readFileSync(file).subarray(0, 64).toString('latin1'), key, 'a cache of another build is replaced');
    // Turned off: nothing written.
    const off = path.join(dir, 'compile-cache-off');
    const plain = runWith({ CARRIER_CACHE_DIR: off, CARRIER_NO_COMPILE_CACHE: '1' }, 'validate', '--json', EXAMPLE);
    assert.deepEqual([plain.code, plain.stdout], [first.code, first.stdout]);
    assert.ok(!fs.existsSync(off));
  });

  it('carrier send and carrier run reach the embedded sandbox through the bundles', () => {
    const sent = run('send', EXAMPLE);
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(sent.stdout, /HTTP 200/);
    const ran = run('run', 'examples/rate-quote');
    assert.equal(ran.code, 0, ran.stderr + ran.stdout);
    assert.match(ran.stdout, /6 tests: 6 passed, 0 failed/);
  });
});
