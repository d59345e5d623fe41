#!/usr/bin/env node
// `npm start`: the workbench on examples/ with this extension loaded, the embedded sandbox being
// the default environment. A desktop VS Code when `code` is on the PATH; otherwise the same pinned
// code-server the tests use, on 127.0.0.1, until Ctrl+C. `npm start` builds first (package.json).
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensure, CODE_SERVER_VERSION } = require('../vscode-host/ensure-code-server');
const { findOnPath } = require('../vscode-host/electron-host');
const { folderUrl, startCodeServer } = require('../vscode-host/code-server-process');
const { writeFirstRunSettings } = require('./first-run-settings');
const { createProgress } = require('./progress');
const { linkRepositoryAsExtension } = require('./installed-extension');
const { REPO_ROOT, USAGE, UsageError, parseOptions } = require('./options');

function log(message) {
  console.log(`[start] ${message}`);
}

const progress = createProgress(process.stdout, { prefix: '[start] ' });

function openInDesktop(code, folder) {
  log(`desktop VS Code: ${code}`);
  // The `code` CLI hands the window to the running (or a new) VS Code and returns at once.
  const result = spawnSync(code, [`--extensionDevelopmentPath=${REPO_ROOT}`, folder], { stdio: 'inherit' });
  return result.status ?? 1;
}

async function serveInCodeServer(options) {
  // A person's own browser opens the page, so no test browser is installed for this.
  await ensure({ browser: false });
  const extensionsDir = path.join(options.dataDir, 'extensions');
  const userDataDir = path.join(options.dataDir, 'user-data');
  const logFile = path.join(options.dataDir, 'code-server.log');
  linkRepositoryAsExtension(REPO_ROOT, extensionsDir);
  writeFirstRunSettings(userDataDir);

  let server;
  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping code-server`);
    if (server) await server.stop();
    log('stopped');
    process.exit(0);
  };
  // Ctrl+C reaches this process (and npm); code-server runs in its own process group, so it is
  // ended here, with the extension host and the sandbox inside it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stop(signal));

  try {
    server = await progress.around(`starting code-server ${CODE_SERVER_VERSION}`, () =>
      startCodeServer({
        folder: options.folder,
        port: options.port,
        userDataDir,
        extensionsDir,
        logFile,
        workspaceTrust: options.restricted,
      }),
    );
  } catch (err) {
    if (stopping) return new Promise(() => {}); // stop() exits
    throw err;
  }
  if (stopping) {
    await server.stop();
    return 0;
  }
  console.log('');
  console.log(`  Carrier Workbench in code-server ${CODE_SERVER_VERSION}, on the embedded sandbox.`);
  console.log(`  Open ${folderUrl(server.url, options.folder)}`);
  console.log(`  (log: ${path.relative(process.cwd(), logFile) || logFile}; Ctrl+C stops it)`);
  console.log('');
  const code = await server.exited;
  if (stopping) return new Promise(() => {}); // stop() exits
  log(`code-server exited on its own with ${code}; see ${logFile}`);
  return code === 0 ? 1 : (code ?? 1);
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run npm run build (npm start does)');
  if (!fs.statSync(options.folder, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${options.folder} is not a folder`);
  const code = options.forceCodeServer ? undefined : findOnPath(process.platform === 'win32' ? ['code.cmd'] : ['code']);
  if (code && options.restricted)
    throw new UsageError('--restricted goes with code-server (a desktop VS Code keeps its own trust settings): add --code-server');
  if (code) return openInDesktop(code, options.folder);
  return serveInCodeServer(options);
}

main().then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      console.error(`[start] ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(`[start] ${err && err.message ? err.message : err}`);
    process.exit(1);
  },
);
