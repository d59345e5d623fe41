#!/usr/bin/env node
// Makes sure a real VS Code (code-server 4.100.3, the last release that accepts Node 20) and a
// browser to drive it are on this machine, so the extension-host suite can run without any
// download outside the npm registry and Debian. Idempotent: a second run only checks.
'use strict';

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createProgress } = require('../start/progress');

const CODE_SERVER_VERSION = '4.100.3';
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const INSTALL_DIR = path.join(REPO_ROOT, '.cache', 'code-server');
// chromium only drives the tests; code-server itself needs the other two.
const BROWSER_PACKAGES = ['chromium'];
const SERVER_PACKAGES = ['libkrb5-dev', 'ripgrep'];
// @vscode/ripgrep (inside code-server) fetches rg from GitHub unless this cached archive exists.
const RIPGREP_CACHE = path.join(os.tmpdir(), 'vscode-ripgrep-cache-1.15.11');
const RIPGREP_ARCHIVE = path.join(RIPGREP_CACHE, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');

// What the install steps printed; shown when one fails.
const INSTALL_LOG = path.join(REPO_ROOT, '.cache', 'code-server-install.log');
const PREFIX = '[ensure-code-server] ';
const progress = createProgress(process.stdout, { prefix: PREFIX });

function log(message) {
  console.log(`${PREFIX}${message}`);
}

function isDebianPackageInstalled(name) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

async function ensureDebianPackages(wanted) {
  const missing = wanted.filter((p) => !isDebianPackageInstalled(p));
  if (missing.length === 0) {
    log(`Debian packages present: ${wanted.join(', ')}`);
    return;
  }
  if (process.getuid && process.getuid() !== 0) {
    throw new Error(`Missing Debian packages ${missing.join(', ')}; install them as root (apt-get install ${missing.join(' ')}).`);
  }
  // Other tools may be running apt at the same time; wait for the lock instead of failing.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  fs.mkdirSync(path.dirname(INSTALL_LOG), { recursive: true });
  await progress.run('apt-get update', 'apt-get', [...lockWait, 'update', '-q'], { env }, INSTALL_LOG);
  await progress.run(
    `apt-get install ${missing.join(' ')}`,
    'apt-get',
    [...lockWait, 'install', '-y', '-q', '--no-install-recommends', ...missing],
    { env },
    INSTALL_LOG,
  );
}

function ensureRipgrepCache() {
  if (fs.existsSync(RIPGREP_ARCHIVE)) {
    log(`ripgrep cache present: ${RIPGREP_ARCHIVE}`);
    return;
  }
  const rg = '/usr/bin/rg';
  if (!fs.existsSync(rg)) throw new Error(`${rg} not found (Debian package ripgrep)`);
  fs.mkdirSync(RIPGREP_CACHE, { recursive: true });
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'rg-stage-'));
  try {
    fs.copyFileSync(rg, path.join(staging, 'rg'));
    fs.chmodSync(path.join(staging, 'rg'), 0o755);
    // Write to a temp name first so an interrupted run never leaves a truncated archive behind.
    const partial = `${RIPGREP_ARCHIVE}.partial`;
    execFileSync('tar', ['-czf', partial, '-C', staging, 'rg']);
    fs.renameSync(partial, RIPGREP_ARCHIVE);
    log(`ripgrep cache created from ${rg}: ${RIPGREP_ARCHIVE}`);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function installedCodeServerVersion() {
  const pkg = path.join(INSTALL_DIR, 'node_modules', 'code-server', 'package.json');
  const entry = path.join(INSTALL_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!fs.existsSync(pkg) || !fs.existsSync(entry)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
  } catch {
    return undefined;
  }
}

async function ensureCodeServer() {
  const present = installedCodeServerVersion();
  if (present === CODE_SERVER_VERSION) {
    log(`code-server ${present} present in ${path.relative(REPO_ROOT, INSTALL_DIR)}`);
    return;
  }
  ensureRipgrepCache();
  fs.mkdirSync(INSTALL_DIR, { recursive: true });
  // A package.json of its own keeps code-server out of the extension's dependencies and lockfile.
  fs.writeFileSync(
    path.join(INSTALL_DIR, 'package.json'),
    JSON.stringify(
      { name: 'carrier-workbench-code-server', private: true, description: 'Test host only; installed by scripts/vscode-host/ensure-code-server.js' },
      null,
      2,
    ) + '\n',
  );
  const env = {
    ...process.env,
    // Its postinstall refuses to run as root otherwise, and a nested `npx node-gyp` would be
    // cancelled by the machine's npm config without `yes`.
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
  };
  // Once per machine: about 70 s on an idle machine, several minutes on a busy 2-core one (it
  // downloads code-server from the npm registry and builds its native modules).
  await progress.run(
    `installing code-server ${CODE_SERVER_VERSION} into ${path.relative(REPO_ROOT, INSTALL_DIR)} (once; 1-5 min)`,
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: INSTALL_DIR, env },
    INSTALL_LOG,
  );
  const version = installedCodeServerVersion();
  if (version !== CODE_SERVER_VERSION) throw new Error(`code-server install finished but ${CODE_SERVER_VERSION} is not there (found ${version})`);
}

/**
 * @param {{ browser?: boolean }} [options] browser: false leaves chromium out (`npm start` serves
 *   the workbench to the person's own browser; only the tests drive one).
 */
async function ensure(options = {}) {
  if (process.platform !== 'linux') {
    log('Not Linux: skipping (use a desktop VS Code; run-tests.js finds `code` on PATH).');
    return;
  }
  await ensureDebianPackages(options.browser === false ? SERVER_PACKAGES : [...BROWSER_PACKAGES, ...SERVER_PACKAGES]);
  await ensureCodeServer();
}

module.exports = { ensure, CODE_SERVER_VERSION };

if (require.main === module) {
  ensure().catch((err) => {
    console.error(`${PREFIX}${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}
