/**
 * Row 6 — the extension bundle: dist/extension.js as `node esbuild.js --production` builds it
 * (run by the project's own build script in a scratch folder, so the working tree's dist/ is
 * left alone), its size, that pdf.js is only in the webview bundle, and the time a fresh Node
 * takes to load it (with a stub `vscode`) against loading an empty module.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { vscodeStub } from '../fixtures/vscodeStub';
import { ROOT, runJsonNode } from '../lib/child';
import { interleave } from '../lib/interleave';
import { median } from '../lib/stats';
import { atMost, type BenchRow, type RowResult } from '../lib/row';

const KB = 1024;
const LIMIT_KB = 400;
/** Strings only pdf.js's own code holds; a bundle with none of them carries no pdf.js. */
const PDFJS_MARKERS = ['GlobalWorkerOptions', 'pdfjsVersion', 'PDFWorker'];

async function productionBuild(dir: string): Promise<string> {
  // The build script reads src/ relative to its working folder and writes dist/ there.
  fs.symlinkSync(path.join(ROOT, 'src'), path.join(dir, 'src'), 'dir');
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'esbuild.js'), '--production'], { cwd: dir });
  return path.join(dir, 'dist');
}

/** Wall time of a fresh `node` requiring `file`, and the require alone as measured inside. */
async function load(file: string): Promise<{ wallMs: number; requireMs: number }> {
  const t = performance.now();
  const { requireMs } = await runJsonNode<{ requireMs: number }>([path.join(__dirname, '../children/loadModule.js'), file], `loading ${file}`);
  return { wallMs: performance.now() - t, requireMs };
}

export const bundle: BenchRow = {
  id: 'bundle',
  title: 'Extension bundle',
  async run(ctx) {
    const dir = fs.mkdtempSync(path.join(ctx.tmp, 'bundle-'));
    const dist = await productionBuild(dir);
    const extension = path.join(dist, 'extension.js');
    const webview = path.join(dist, 'webview.js');
    const code = fs.readFileSync(extension, 'latin1');
    const inExtension = PDFJS_MARKERS.filter((m) => code.includes(m));
    const webviewCode = fs.existsSync(webview) ? fs.readFileSync(webview, 'latin1') : '';
    const inWebview = PDFJS_MARKERS.filter((m) => webviewCode.includes(m));
    const size = fs.statSync(extension).size;

    fs.mkdirSync(path.join(dir, 'node_modules', 'vscode'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules', 'vscode', 'index.js'), vscodeStub());
    const empty = path.join(dist, 'empty.js');
    fs.writeFileSync(empty, '');
    const requireMs: number[] = [];
    const p = await interleave(ctx.runs, async () => { const r = await load(extension); requireMs.push(r.requireMs); return r.wallMs; }, async () => (await load(empty)).wallMs);

    const results: RowResult[] = [{
      id: 'bundle.size',
      measured: `dist/extension.js, production build: size vs the ${LIMIT_KB} KB budget; pdf.js ${inExtension.length ? `FOUND in the extension bundle (${inExtension.join(', ')})` : 'not in it'}${inWebview.length ? ', present in webview.js' : ''}`,
      a: { label: 'extension.js', value: size / KB, unit: 'KB' },
      b: { label: 'budget', value: LIMIT_KB, unit: 'KB' },
      ratio: inExtension.length ? Infinity : size / (LIMIT_KB * KB),
      ratioText: 'size / budget',
      target: atMost(1),
      runs: 1,
    }, {
      id: 'bundle.load',
      measured: `loading dist/extension.js in a fresh node (stub vscode) vs an empty module; require alone ${median(requireMs).toFixed(1)} ms`,
      a: { label: 'extension.js', value: p.medianA, unit: 'ms' },
      b: { label: 'empty module', value: p.medianB, unit: 'ms' },
      ratio: p.ratio,
      ratioText: 'extension / empty',
      runs: p.runs,
    }];
    return results;
  },
};
