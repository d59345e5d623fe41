// `npm run typecheck`: each room is compiled with the platform it runs on
// (docs/architecture.md#the-walls-between-the-rooms), so one program per tsconfig: Node without
// DOM for core, the sandbox, the inspector and the CLI; the DOM without Node for the webview;
// Node (and vscode's module) for the extension; everything the tests, scripts and benchmarks
// touch for the root tsconfig.json. Rooms whose tsconfigs say the same thing are checked as one
// program (core and every Node room import core, which would otherwise be checked once per room);
// the programs run side by side and keep incremental state in .cache/tsc, so a second run checks
// only what changed.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const PROJECTS = ['.', 'src/extension', 'src/cli', 'src/sandbox', 'src/inspector', 'src/host', 'src/core', 'src/webview'];
const ts = require('typescript');

const TSC = require.resolve('typescript/bin/tsc');
const CACHE = path.join(ROOT, '.cache', 'tsc');

/** The projects, with rooms of identical settings merged into one generated tsconfig. */
function programs() {
  const groups = new Map();
  for (const project of PROJECTS) {
    const file = path.join(ROOT, project, 'tsconfig.json');
    const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
    if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
    const { include = [], ...settings } = config;
    const key = JSON.stringify({ ...settings, extends: config.extends && path.resolve(ROOT, project, config.extends) });
    const group = groups.get(key) ?? groups.set(key, { projects: [], include: [] }).get(key);
    group.projects.push(project);
    group.include.push(...include.map((i) => path.relative(CACHE, path.join(ROOT, project, i))));
  }
  return [...groups.values()].map(({ projects, include }) => {
    if (projects.length === 1) return { label: projects[0], project: projects[0] };
    const label = projects.join(' + ');
    const file = path.join(CACHE, `${projects.map(nameOf).join('+')}.tsconfig.json`);
    const base = path.relative(CACHE, path.join(ROOT, projects[0], 'tsconfig.json'));
    fs.writeFileSync(file, `${JSON.stringify({ extends: base, include }, null, 2)}\n`);
    return { label, project: file };
  });
}

const nameOf = (project) => (project === '.' ? 'root' : project.replace(/\//g, '-'));

function check({ label, project }) {
  const name = label.split(' + ').map(nameOf).join('+');
  const args = [TSC, '-p', project, '--incremental', '--tsBuildInfoFile', path.join(CACHE, `${name}.tsbuildinfo`), '--pretty'];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ label, code, out }));
  });
}

async function main() {
  fs.mkdirSync(CACHE, { recursive: true });
  const queue = programs();
  const failed = [];
  const lane = async () => {
    for (let program = queue.shift(); program !== undefined; program = queue.shift()) {
      const r = await check(program);
      if (r.code !== 0) {
        failed.push(r.label);
        process.stdout.write(`\n${r.label}:\n${r.out}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(os.availableParallelism(), queue.length) }, lane));
  if (failed.length) {
    process.stdout.write(`\ntypecheck failed in ${failed.join(', ')}\n`);
    process.exitCode = 1;
  }
}

main();
