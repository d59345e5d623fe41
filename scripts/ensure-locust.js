#!/usr/bin/env node
// Makes sure Debian's python3-locust is on this machine: the unit suite runs the locustfile
// `carrier load --export locust` writes with a real Locust, a master and two workers
// (test/unit/load-locust.test.ts). Installed from Debian the way ensure-junitparser.js installs
// its package; idempotent and quick when present, so `npm run test:unit` calls it every time.
// Debian's module is for Debian's Python, so it is asked by its full path.
'use strict';

const { spawnSync } = require('node:child_process');

const PACKAGE = 'python3-locust';
const PYTHON = '/usr/bin/python3';

function log(message) {
  console.log(`[ensure-locust] ${message}`);
}

/** Found without importing it: importing locust patches the standard library (gevent) and takes a second. */
function present() {
  return spawnSync(PYTHON, ['-c', 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("locust") else 1)'], { stdio: 'ignore' }).status === 0;
}

function run(command, args) {
  log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** Installs Locust when it is missing; throws with what to do when it cannot. */
function ensureLocust({ quiet = false } = {}) {
  if (present()) {
    if (!quiet) log('locust present');
    return;
  }
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(`locust is missing: install it (Debian and Ubuntu: apt-get install ${PACKAGE})`);
  }
  if (process.getuid && process.getuid() !== 0) throw new Error(`locust is missing: install it as root (apt-get install ${PACKAGE})`);
  // Other tools may be running apt at the same time; wait for the lock instead of failing.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  run('apt-get', [...lockWait, 'update', '-q']);
  run('apt-get', [...lockWait, 'install', '-y', '-q', '--no-install-recommends', PACKAGE]);
  if (!present()) throw new Error(`${PACKAGE} was installed but ${PYTHON} cannot find locust`);
  log('locust installed');
}

module.exports = { ensureLocust, PYTHON };

if (require.main === module) {
  try {
    ensureLocust();
  } catch (err) {
    console.error(`[ensure-locust] ${err.message}`);
    process.exit(1);
  }
}
