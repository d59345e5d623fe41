#!/usr/bin/env node
// Makes sure Debian's python3-junitparser is on this machine: the unit suite reads the JUnit
// report of a run with retries through it (test/unit/run-retries.test.ts), a reader that is not
// ours, as a CI's would be. Installed from Debian the way ensure-xmllint.js installs its package;
// idempotent, so `npm run test:unit` calls it every time. Debian's module is for Debian's Python,
// so it is asked by its full path (a pyenv `python3` on the PATH does not see it).
'use strict';

const { spawnSync } = require('node:child_process');

const PACKAGE = 'python3-junitparser';
const PYTHON = '/usr/bin/python3';

function log(message) {
  console.log(`[ensure-junitparser] ${message}`);
}

function present() {
  return spawnSync(PYTHON, ['-c', 'import junitparser'], { stdio: 'ignore' }).status === 0;
}

function run(command, args) {
  log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** Installs junitparser when it is missing; throws with what to do when it cannot. */
function ensureJunitparser({ quiet = false } = {}) {
  if (present()) {
    if (!quiet) log('junitparser present');
    return;
  }
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(`junitparser is missing: install it (Debian and Ubuntu: apt-get install ${PACKAGE})`);
  }
  if (process.getuid && process.getuid() !== 0) throw new Error(`junitparser is missing: install it as root (apt-get install ${PACKAGE})`);
  // Other tools may be running apt at the same time; wait for the lock instead of failing.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  run('apt-get', [...lockWait, 'update', '-q']);
  run('apt-get', [...lockWait, 'install', '-y', '-q', '--no-install-recommends', PACKAGE]);
  if (!present()) throw new Error(`${PACKAGE} was installed but ${PYTHON} cannot import junitparser`);
  log('junitparser installed');
}

module.exports = { ensureJunitparser, PYTHON };

if (require.main === module) {
  try {
    ensureJunitparser();
  } catch (err) {
    console.error(`[ensure-junitparser] ${err.message}`);
    process.exit(1);
  }
}
