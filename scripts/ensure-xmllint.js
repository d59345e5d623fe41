#!/usr/bin/env node
// Makes sure libxml2's xmllint is on this machine: the unit suite validates every reply of the
// embedded sandbox against the schemas of its own ?WSDL with it (test/unit/sandbox-contract.test.ts),
// as a strict client would. Installed from Debian (libxml2-utils) the way ensure-code-server.js
// installs its packages; idempotent, so `npm run test:unit` calls it every time and the suite's
// own `before` calls it again for a bare `npx mocha`.
'use strict';

const { spawnSync } = require('node:child_process');

const PACKAGE = 'libxml2-utils';

function log(message) {
  console.log(`[ensure-xmllint] ${message}`);
}

function present() {
  return spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0;
}

function run(command, args) {
  log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** Installs xmllint when it is missing; throws with what to do when it cannot. */
function ensureXmllint({ quiet = false } = {}) {
  if (present()) {
    if (!quiet) log('xmllint present');
    return;
  }
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(`xmllint is missing: install libxml2's command-line tools (Debian and Ubuntu: apt-get install ${PACKAGE}; macOS has it)`);
  }
  if (process.getuid && process.getuid() !== 0) throw new Error(`xmllint is missing: install it as root (apt-get install ${PACKAGE})`);
  // Other tools may be running apt at the same time; wait for the lock instead of failing.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  run('apt-get', [...lockWait, 'update', '-q']);
  run('apt-get', [...lockWait, 'install', '-y', '-q', '--no-install-recommends', PACKAGE]);
  if (!present()) throw new Error(`${PACKAGE} was installed but xmllint does not run`);
  log('xmllint installed');
}

module.exports = { ensureXmllint };

if (require.main === module) {
  try {
    ensureXmllint();
  } catch (err) {
    console.error(`[ensure-xmllint] ${err.message}`);
    process.exit(1);
  }
}
