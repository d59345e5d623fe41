// Builds the separate bundles: the extension (node, `vscode` external), the webview (browser),
// the CLI (node) and the extension-host test suite. Entries that do not exist yet are skipped so
// a partial tree still builds.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
// Writes each bundle's esbuild metafile beside it (dist/<name>.meta.json): what it carries and
// how much of it each input is, for bench/rows/bundle.ts and for `esbuild --analyze`-style reading.
const metafile = process.argv.includes('--metafile');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's UMD entry loads its parts with a require() esbuild cannot follow; its ESM
  // entry bundles cleanly. (The browser bundle keeps `browser` first.)
  mainFields: ['module', 'main'],
};

const targets = [
  {
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // pdf-lib is core's last resort for counting pages of an odd PDF; in the editor the panel's
    // pdf.js counts them, so the extension does not carry it (the import fails softly).
    external: ['vscode', 'pdf-lib'],
  },
  // The extension requires this one lazily, when a request file is first validated or a request
  // sent, a test run, a contract checked or the inspector started (src/extension/engine.ts).
  { entryPoints: ['src/extension/engine.ts'], outfile: 'dist/engine.js', platform: 'node', format: 'cjs', target: 'node20', external: ['pdf-lib'] },
  // The extension requires this one lazily, when a sandbox starts or a WSDL is shown.
  { entryPoints: ['src/sandbox/embedded.ts'], outfile: 'dist/sandbox.js', platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'] },
  // The CLI: a small dispatcher (dist/cli.js) and one bundle per command (dist/cli/<name>.js),
  // which the dispatcher requires only when that command runs (see src/cli/commands/index.ts).
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', plugins: [commandsApart()] },
  // pdf-lib (core's last resort for an odd PDF's page count), ajv (for a shape the generated
  // validators lack), re2js (a run's first `matches` pattern) and csv-parse (its first CSV data
  // file) are loaded lazily: left to node_modules, a command parses them only if used.
  ...cliCommands().map((name) => ({
    entryPoints: [`src/cli/commands/${name}.ts`],
    outfile: `dist/cli/${name}.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['pdf-lib', 'ajv', 're2js', 'csv-parse'],
    plugins: [sandboxApart()],
  })),
  {
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    mainFields: ['browser', 'module', 'main'],
  },
  {
    entryPoints: ['test/vscode/index.ts'],
    outfile: 'dist/test/vscode/index.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha', 'playwright-core'],
  },
].filter((t) => fs.existsSync(t.entryPoints[0]));

/** The commands src/cli/commands/index.ts requires (lazily), each built as its own bundle. */
function cliCommands() {
  const index = 'src/cli/commands/index.ts';
  if (!fs.existsSync(index)) return [];
  return [...fs.readFileSync(index, 'utf8').matchAll(/require\('\.\/([\w-]+)'\)/g)].map((m) => m[1]);
}

/** In the dispatcher's bundle, index.ts's require('./<name>') becomes require('./cli/<name>.js'). */
function commandsApart() {
  return {
    name: 'cli-commands-apart',
    setup(build) {
      // Real paths: the bench and the tests build from a folder whose src/ is a symlink.
      const index = fs.realpathSync('src/cli/commands/index.ts');
      build.onResolve({ filter: /^\.\/[\w-]+$/ }, (args) => {
        if (args.kind !== 'require-call' || fs.realpathSync(args.importer) !== index) return undefined;
        return { path: `./cli/${args.path.slice(2)}.js`, external: true };
      });
    },
  };
}

/** In a command's bundle, embeddedSandbox.ts's lazy require of the sandbox becomes dist/sandbox.js. */
function sandboxApart() {
  return {
    name: 'cli-sandbox-apart',
    setup(build) {
      const lazy = fs.realpathSync('src/cli/embeddedSandbox.ts');
      build.onResolve({ filter: /^\.\.\/sandbox\/embedded$/ }, (args) => {
        if (args.kind !== 'require-call' || fs.realpathSync(args.importer) !== lazy) return undefined;
        return { path: '../sandbox.js', external: true };
      });
    },
  };
}

function copyPdfWorker() {
  // pdf.js renders in the webview; its worker is loaded from the extension's own dist folder.
  const src = path.join(__dirname, 'node_modules/pdfjs-dist/build/pdf.worker.min.mjs');
  if (fs.existsSync(src) && fs.existsSync('src/webview/main.ts')) {
    fs.mkdirSync('dist', { recursive: true });
    fs.copyFileSync(src, 'dist/pdf.worker.min.mjs');
  }
}

function copyWebviewAssets() {
  // The webview may load only from media/ and dist/ (localResourceRoots), so the codicon font and
  // pdf.js's standard fonts are copied next to the bundle.
  if (!fs.existsSync('src/webview/main.ts')) return;
  const copies = [
    ['node_modules/@vscode/codicons/dist/codicon.css', 'dist/codicons/codicon.css'],
    ['node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/codicons/codicon.ttf'],
    ['node_modules/pdfjs-dist/standard_fonts', 'dist/pdfjs/standard_fonts'],
  ];
  for (const [from, to] of copies) {
    const src = path.join(__dirname, from);
    if (!fs.existsSync(src)) continue;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.cpSync(src, to, { recursive: true });
  }
}

async function main() {
  copyPdfWorker();
  copyWebviewAssets();
  if (watch) {
    for (const t of targets) await (await esbuild.context({ ...common, ...t })).watch();
    return;
  }
  await Promise.all(
    targets.map(async (t) => {
      const result = await esbuild.build({ ...common, ...t, metafile });
      if (metafile) fs.writeFileSync(t.outfile.replace(/\.js$/, '.meta.json'), JSON.stringify(result.metafile));
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
