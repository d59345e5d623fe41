#!/usr/bin/env node
// Makes sure the independent SOAP clients the inspector is tried with are on this machine:
// Python's zeep and PHP's SoapClient, built from the sandbox's ?WSDL and pointed at `carrier
// inspect` (test/unit/inspect-clients.test.ts). node-soap comes from npm and curl is already
// here. Installed from Debian the way ensure-xmllint.js installs its package; idempotent, so
// `npm run test:unit` calls it every time. Debian's zeep is for Debian's Python, so that one is
// asked by its full path (a pyenv `python3` on the PATH does not see it).
'use strict';

const { spawnSync } = require('node:child_process');

/** Each client, how to tell it is there, and the Debian packages that bring it. */
const CLIENTS = [
  { name: 'zeep', command: '/usr/bin/python3', args: ['-c', 'import zeep'], packages: ['python3-zeep'] },
  { name: 'PHP SoapClient', command: 'php', args: ['-r', 'exit(class_exists("SoapClient") ? 0 : 1);'], packages: ['php8.2-cli', 'php8.2-soap'] },
];

function log(message) {
  console.log(`[ensure-soap-clients] ${message}`);
}

function present(client) {
  return spawnSync(client.command, client.args, { stdio: 'ignore' }).status === 0;
}

function run(command, args) {
  log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** Installs the clients that are missing; throws with what to do when it cannot. */
function ensureSoapClients({ quiet = false } = {}) {
  const missing = CLIENTS.filter((c) => !present(c));
  if (missing.length === 0) {
    if (!quiet) log(`present: ${CLIENTS.map((c) => c.name).join(', ')}`);
    return;
  }
  const packages = missing.flatMap((c) => c.packages);
  const names = missing.map((c) => c.name).join(', ');
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(`${names} missing: install them (Debian and Ubuntu: apt-get install ${packages.join(' ')})`);
  }
  if (process.getuid && process.getuid() !== 0) throw new Error(`${names} missing: install them as root (apt-get install ${packages.join(' ')})`);
  // Other tools may be running apt at the same time; wait for the lock instead of failing.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  run('apt-get', [...lockWait, 'update', '-q']);
  run('apt-get', [...lockWait, 'install', '-y', '-q', '--no-install-recommends', ...packages]);
  const still = missing.filter((c) => !present(c));
  if (still.length > 0) throw new Error(`${packages.join(' ')} installed but ${still.map((c) => c.name).join(', ')} does not run`);
  log(`installed: ${names}`);
}

module.exports = { ensureSoapClients };

if (require.main === module) {
  try {
    ensureSoapClients();
  } catch (err) {
    console.error(`[ensure-soap-clients] ${err.message}`);
    process.exit(1);
  }
}
