// code-server as a child process, shared by the extension-host suite (run-tests.js), the UI tests
// (test/ui) and `npm start`: where the pinned build lives, how to start it on a loopback port, and
// how to end it together with everything it forked. One copy, so the three cannot drift apart.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const CODE_SERVER_BIN = path.join(REPO_ROOT, '.cache', 'code-server', 'node_modules', '.bin', 'code-server');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Debian's chromium as a headless test browser: no GPU, no sandbox (root), and no background
// traffic, which would try to reach Google's servers from a machine that cannot.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Options for playwright-core's chromium.launch(). */
function chromiumLaunchOptions() {
  return { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Whether nothing listens on 127.0.0.1:port (so code-server, or a test, can take it). */
function isPortFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * Starts code-server on 127.0.0.1 and resolves once it prints that it listens.
 * @param {{ folder: string, port?: number, userDataDir: string, extensionsDir: string,
 *           logFile: string, env?: NodeJS.ProcessEnv, timeoutMs?: number, workspaceTrust?: boolean }} options
 * @returns {Promise<{ port: number, url: string, child: import('node:child_process').ChildProcess,
 *                     exited: Promise<number | null>, stop: () => Promise<void> }>}
 */
async function startCodeServer(options) {
  if (!fs.existsSync(CODE_SERVER_BIN)) {
    throw new Error(`code-server not found at ${CODE_SERVER_BIN}; run node scripts/vscode-host/ensure-code-server.js`);
  }
  const port = options.port || (await freePort());
  if (!(await isPortFree(port))) throw new Error(`port ${port} on 127.0.0.1 is already in use`);
  const args = [
    '--auth',
    'none',
    // Loopback only: the workbench runs code and holds API keys; nothing outside may reach it.
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    options.userDataDir,
    '--extensions-dir',
    options.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    // Tests and npm start open folders the person made; --restricted (workspaceTrust) keeps the
    // prompt, so Restricted Mode can be seen and tested.
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    options.folder,
  ];
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  // Its own process group (detached), so stop() can end the extension host and watchers it forks.
  const child = spawn(CODE_SERVER_BIN, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const serverLog = fs.createWriteStream(options.logFile);
  child.stdout.pipe(serverLog);
  child.stderr.pipe(serverLog);
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));

  const timeoutMs = options.timeoutMs ?? 60_000;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void killTree(child);
      reject(new Error(`code-server did not start within ${timeoutMs / 1000} s; see ${options.logFile}`));
    }, timeoutMs);
    let seen = '';
    const onData = (chunk) => {
      seen += chunk.toString();
      if (seen.includes('HTTP server listening')) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited early with ${code}; see ${options.logFile}`));
    });
  });
  return { port, url: `http://127.0.0.1:${port}/`, child, exited, stop: () => killTree(child) };
}

// code-server forks its own extension host and file watchers: end the whole process group, and
// force it when a polite SIGTERM is not enough within a few seconds.
async function killTree(child) {
  const group = -child.pid;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(group, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const inTime = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
    if (!inTime) signalGroup(group, 'SIGKILL');
  }
  // Members may outlive the leader for a moment (the extension host writing the sandbox's state
  // as it closes): give them that moment, then make sure none is left holding a port.
  for (let waited = 0; groupAlive(group) && waited < 3000; waited += 100) await sleep(100);
  signalGroup(group, 'SIGKILL');
}

function groupAlive(group) {
  try {
    process.kill(group, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(group, signal) {
  try {
    process.kill(group, signal);
  } catch {
    /* already gone */
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The workbench's address for a folder (what a person opens). */
function folderUrl(baseUrl, folder) {
  // Slashes stay readable; everything else a path may hold is escaped.
  return `${baseUrl}?folder=${encodeURIComponent(folder).replace(/%2F/g, '/')}`;
}

module.exports = { REPO_ROOT, CODE_SERVER_BIN, CHROMIUM, chromiumLaunchOptions, freePort, isPortFree, startCodeServer, killTree, folderUrl };
