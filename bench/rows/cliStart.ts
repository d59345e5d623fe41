/**
 * Row — CLI start: `carrier validate` of one request file, the whole process (bin/carrier.js and
 * the bundles `npm run build` makes, built by the project's build script in a scratch folder so
 * the working tree's dist/ is left alone), against `node -e 0`, interleaved.
 */
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { ROOT } from '../lib/child';
import { interleave } from '../lib/interleave';
import { atMost, type BenchRow, type RowResult } from '../lib/row';

const FILE = 'examples/rate-quote/get-rate-quote-1.0.0.carrier.json';

async function build(dir: string): Promise<string> {
  fs.symlinkSync(path.join(ROOT, 'src'), path.join(dir, 'src'), 'dir');
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: dir });
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.copyFileSync(path.join(ROOT, 'bin', 'carrier.js'), path.join(dir, 'bin', 'carrier.js'));
  return path.join(dir, 'bin', 'carrier.js');
}

/** Wall time of one process, from spawn to exit; a non-zero exit is a failed measurement. */
function wall(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`node ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

export const cliStart: BenchRow = {
  id: 'cli-start',
  title: 'CLI start',
  async run(ctx) {
    const carrier = await build(fs.mkdtempSync(path.join(ctx.tmp, 'cli-')));
    const runs = Math.max(ctx.runs, 15);
    const p = await interleave(
      runs,
      () => wall([carrier, 'validate', FILE]),
      () => wall(['-e', '0']),
    );
    const result: RowResult = {
      id: 'cli-start.validate',
      measured: `\`carrier validate\` of one request file (${path.basename(FILE)}), whole process, vs \`node -e 0\``,
      a: { label: 'carrier validate', value: p.medianA, unit: 'ms' },
      b: { label: 'node -e 0', value: p.medianB, unit: 'ms' },
      ratio: p.ratio,
      ratioText: 'validate / node',
      target: atMost(2),
      runs: p.runs,
    };
    return [result];
  },
};
