/**
 * V8's code cache for the CLI's own command bundles, as Node 22's `module.enableCompileCache`
 * keeps one (Node 20, which the workbench supports, has none). A command bundle is a megabyte or
 * more of JavaScript that every `carrier` process parses and compiles again, function by function
 * as it first runs them; with the bytecode of the last run's functions at hand, a command starts
 * and warms up sooner (BENCHMARKS.md, cli-start and runner-throughput).
 *
 * The cache is the user's own (`$XDG_CACHE_HOME/carrier-workbench`, else `~/.cache/…`; only
 * CARRIER_CACHE_DIR moves it), one file per bundle, written at exit only when there was none or
 * V8 refused it, to a temporary name and renamed, so a reader never sees half a file. A file is
 * used only for the very bundle, Node and V8 flags it was made with (its first line says which):
 * V8 itself checks little more than the source's length; a checksum covers its bytes. Nothing of a run's data is in it, only
 * compiled code of the bundle. CARRIER_NO_COMPILE_CACHE=1 turns it off; so does coverage
 * (NODE_V8_COVERAGE), which needs functions compiled afresh.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { crc32 } from 'node:zlib';

type Loader = (this: unknown, module: NodeModule, filename: string) => void;
type Env = Readonly<Record<string, string | undefined>>;

/** Where the cache lives; undefined when there is no home to keep it in. */
export function compileCacheDir(env: Env = process.env): string | undefined {
  if (env.CARRIER_CACHE_DIR) return env.CARRIER_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || (os.homedir() ? path.join(os.homedir(), '.cache') : '');
  return base ? path.join(base, 'carrier-workbench', 'compile-cache') : undefined;
}

/** Loads the `.js` files directly in `bundleDir` (the command bundles) through the cache from now on. */
export function enableCompileCache(bundleDir: string, env: Env = process.env): void {
  if (env.CARRIER_NO_COMPILE_CACHE || env.NODE_V8_COVERAGE) return;
  const dir = compileCacheDir(env);
  if (!dir) return;
  const extensions = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;
  const plain = extensions['.js'];
  extensions['.js'] = function load(module, filename) {
    if (path.dirname(filename) !== bundleDir || !loadCached(module, filename, dir)) plain.call(this, module, filename);
  };
}

/** What a cache file must have been made for: this bundle as built, this Node, these V8 flags. */
function keyOf(filename: string, source: string): string {
  const stat = fs.statSync(filename);
  return createHash('sha256')
    .update(JSON.stringify([filename, stat.size, stat.mtimeMs, source.length, process.version, process.arch, process.execArgv]))
    .digest('hex');
}

/** False when the bundle could not be read here: Node's own loader then loads it. */
function loadCached(module: NodeModule, filename: string, dir: string): boolean {
  let source: string;
  let key: string;
  try {
    source = fs.readFileSync(filename, 'utf8');
    key = keyOf(filename, source);
  } catch {
    return false;
  }
  const file = path.join(dir, `${path.basename(filename)}.cache`);
  const cached = cachedData(file, key);
  const script = new vm.Script(Module.wrap(source), { filename, ...(cached ? { cachedData: cached } : {}) });
  if (!cached || script.cachedDataRejected) process.once('exit', () => save(file, key, script));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, path.dirname(filename));
  return true;
}

/**
 * The cached code in `file` when it was made for `key` and is whole: its checksum is checked here,
 * since V8 checks a cache's length and versions, not every byte of it.
 */
function cachedData(file: string, key: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) return undefined;
  const [madeFor, checksum] = bytes.toString('latin1', 0, newline).split(' ');
  const code = bytes.subarray(newline + 1);
  return madeFor === key && checksum === String(crc32(code)) ? code : undefined;
}

/** The code compiled so far (the functions this run used), under its key; a failure to write is no failure of the command. */
function save(file: string, key: string, script: vm.Script): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const code = script.createCachedData();
    fs.writeFileSync(temporary, Buffer.concat([Buffer.from(`${key} ${crc32(code)}\n`, 'latin1'), code]), { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      /* nothing more to do */
    }
  }
}
