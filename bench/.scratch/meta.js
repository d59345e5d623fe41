const esbuild = require('esbuild');
(async () => {
  const r = await esbuild.build({ entryPoints: ['src/extension/extension.ts'], outfile: '/tmp/ext-prod.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], bundle: true, minify: true, legalComments: 'none', mainFields: ['module', 'main'], metafile: true, logLevel: 'warning' });
  const out = Object.values(r.metafile.outputs)[0];
  console.log('bytes', out.bytes);
  const byPkg = {};
  for (const [file, info] of Object.entries(out.inputs)) {
    const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(file);
    const key = m ? m[1] : file.split('/').slice(0, 3).join('/');
    byPkg[key] = (byPkg[key] || 0) + info.bytesInOutput;
  }
  for (const [k, v] of Object.entries(byPkg).sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(String(v).padStart(9), k);
})();
// who imports what
(async () => {
  const r = await esbuild.build({ entryPoints: ['src/extension/extension.ts'], write: false, outfile: '/tmp/x.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], bundle: true, minify: true, mainFields: ['module', 'main'], metafile: true, logLevel: 'silent' });
  for (const [file, info] of Object.entries(r.metafile.inputs)) {
    for (const imp of info.imports) if (/js-yaml|is-unsafe|pdf-lib\/|undici\/index|xmlbuilder2\/lib\/index|fast-xml-parser\/lib|ajv\/dist\/ajv/.test(imp.path) && !/node_modules\/(js-yaml|undici|pdf-lib|xmlbuilder2|ajv|fast-xml-parser)\//.test(file)) console.log(file, '->', imp.path);
  }
})();
