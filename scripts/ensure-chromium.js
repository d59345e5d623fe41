#!/usr/bin/env node
// Makes sure Debian's Chromium is installed for the browser tests (test/browser), which drive it
// with playwright-core. The only install step the browser tests take, and only when it is
// missing: no browser download, just apt. Idempotent: a second run only checks.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

const EXECUTABLE = '/usr/bin/chromium';

function log(message) {
  console.log(`[ensure-chromium] ${message}`);
}

function run(command, args, env) {
  log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

function main() {
  if (fs.existsSync(EXECUTABLE)) {
    log(`present: ${EXECUTABLE}`);
    return;
  }
  if (process.platform !== 'linux' || !fs.existsSync('/usr/bin/apt-get')) {
    throw new Error(`${EXECUTABLE} not found and this is not a Debian system; install Chromium there or set CHROMIUM_PATH.`);
  }
  if (process.getuid && process.getuid() !== 0) {
    throw new Error(`${EXECUTABLE} not found; install it as root: apt-get install chromium`);
  }
  // Other tools may be running apt at the same time; wait for the lock instead of failing.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', [...lockWait, 'update', '-q'], env);
  run('apt-get', [...lockWait, 'install', '-y', '-q', '--no-install-recommends', 'chromium'], env);
  if (!fs.existsSync(EXECUTABLE)) throw new Error(`apt-get finished but ${EXECUTABLE} is not there`);
}

if (process.env.CHROMIUM_PATH) {
  log(`using CHROMIUM_PATH=${process.env.CHROMIUM_PATH}`);
} else {
  try {
    main();
  } catch (err) {
    console.error(`[ensure-chromium] ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
