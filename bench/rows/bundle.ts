/**
 * Row 6 — the extension bundle: dist/extension.js as `node esbuild.js --production` builds it
 * (run by the project's own build script in a scratch folder, so the working tree's dist/ is
 * left alone), its size, that pdf.js is only in the webview bundle and that what activation does
 * not need is only in the bundles required on first use (dist/engine.js, dist/sandbox.js, read
 * from the build's metafile), the time a fresh Node takes to load it (with a stub `vscode`)
 * against loading an empty module, and what the first request file adds by loading the engine.
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
/**
 * What only the engine bundle should carry: the HTTP client, schema compiler, regex engine, CSV
 * reader, JSON language service and generated request validators. A few hundred bytes of one is a
 * shared helper (ajv's string length for the generated environments validator, csv-parse's error
 * names), not the library: only more than TRACE counts.
 */
const ENGINE_ONLY = ['undici', 'ajv', 're2js', 'csv-parse', 'vscode-json-languageservice', 'src/core/validation/generated'];
const TRACE = 2 * KB;
/** The bundles the extension requires on first use, beside extension.js. */
const LAZY_BUNDLES = ['engine.js', 'sandbox.js'];

interface Metafile {
  readonly outputs: Record<string, { readonly inputs: Record<string, { readonly bytesInOutput: number }> }>;
}

/** A bundle's bytes by package (node_modules/<name>) or by source folder (src/<room>/<folder>). */
function bytesByPart(metafile: Metafile): Map<string, number> {
  const parts = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const inPackage = input.split('node_modules/').pop()!;
      const part = input.includes('node_modules/')
        ? inPackage
            .split('/')
            .slice(0, inPackage.startsWith('@') ? 2 : 1)
            .join('/')
        : input.slice(input.lastIndexOf('src/')).split('/').slice(0, 4).join('/').replace(/\.ts$/, '');
      parts.set(part, (parts.get(part) ?? 0) + bytesInOutput);
    }
  }
  return parts;
}

async function productionBuild(dir: string): Promise<string> {
  // The build script reads src/ relative to its working folder and writes dist/ there.
  fs.symlinkSync(path.join(ROOT, 'src'), path.join(dir, 'src'), 'dir');
  await promisify(execFile)(process.execPath, [path.join(ROOT, 'esbuild.js'), '--production', '--metafile'], { cwd: dir });
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
    const parts = bytesByPart(JSON.parse(fs.readFileSync(path.join(dist, 'extension.meta.json'), 'utf8')) as Metafile);
    const largest = [...parts]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 4)
      .map(([part, bytes]) => `${part} ${(bytes / KB).toFixed(0)} KB`)
      .join(', ');
    const misplaced = ENGINE_ONLY.filter((p) => [...parts].some(([part, bytes]) => (part === p || part.startsWith(`${p}/`)) && bytes > TRACE));
    const lazy = LAZY_BUNDLES.filter((f) => fs.existsSync(path.join(dist, f))).map((f) => `${f} ${(fs.statSync(path.join(dist, f)).size / KB).toFixed(0)} KB`);

    fs.mkdirSync(path.join(dir, 'node_modules', 'vscode'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules', 'vscode', 'index.js'), vscodeStub());
    const empty = path.join(dist, 'empty.js');
    fs.writeFileSync(empty, '');
    // The first request file opened (or test run, send, contract check) requires the engine too.
    const firstUse = path.join(dist, 'firstUse.js');
    fs.writeFileSync(firstUse, "require('./extension.js'); require('./engine.js');\n");
    const requireMs: number[] = [];
    const p = await interleave(
      ctx.runs,
      async () => {
        const r = await load(extension);
        requireMs.push(r.requireMs);
        return r.wallMs;
      },
      async () => (await load(empty)).wallMs,
    );
    const firstUseMs: number[] = [];
    const f = await interleave(
      ctx.runs,
      async () => {
        const r = await load(firstUse);
        firstUseMs.push(r.requireMs);
        return r.wallMs;
      },
      async () => (await load(empty)).wallMs,
    );

    const results: RowResult[] = [
      {
        id: 'bundle.size',
        measured: `dist/extension.js, production build: size vs the ${LIMIT_KB} KB budget; pdf.js ${inExtension.length ? `FOUND in the extension bundle (${inExtension.join(', ')})` : 'not in it'}${inWebview.length ? ', present in webview.js' : ''}; ${misplaced.length ? `FOUND in it, though only the engine needs them: ${misplaced.join(', ')}` : `none of ${ENGINE_ONLY.join(', ')}`}; largest parts ${largest}; required on first use: ${lazy.join(', ')}`,
        a: { label: 'extension.js', value: size / KB, unit: 'KB' },
        b: { label: 'budget', value: LIMIT_KB, unit: 'KB' },
        ratio: inExtension.length || misplaced.length ? Infinity : size / (LIMIT_KB * KB),
        ratioText: 'size / budget',
        target: atMost(1),
        runs: 1,
      },
      {
        id: 'bundle.load',
        measured: `loading dist/extension.js in a fresh node (stub vscode) vs an empty module; require alone ${median(requireMs).toFixed(1)} ms`,
        a: { label: 'extension.js', value: p.medianA, unit: 'ms' },
        b: { label: 'empty module', value: p.medianB, unit: 'ms' },
        ratio: p.ratio,
        ratioText: 'extension / empty',
        runs: p.runs,
      },
      {
        id: 'bundle.first-use',
        measured: `loading dist/extension.js and then dist/engine.js (what the first request file opened, send, test run or contract check adds) in a fresh node vs an empty module; require alone ${median(firstUseMs).toFixed(1)} ms`,
        a: { label: 'extension.js + engine.js', value: f.medianA, unit: 'ms' },
        b: { label: 'empty module', value: f.medianB, unit: 'ms' },
        ratio: f.ratio,
        ratioText: 'both / empty',
        runs: f.runs,
      },
    ];
    return results;
  },
};
