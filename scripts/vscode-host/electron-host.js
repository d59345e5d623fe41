// Runs the suite in an installed desktop VS Code through @vscode/test-electron. It is pointed at
// the installed build (vscodeExecutablePath) so nothing is downloaded at test time.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** The Electron executable behind a `code` CLI found on PATH, or undefined when there is none. */
function findDesktopVSCode() {
  if (process.env.VSCODE_EXECUTABLE_PATH) return process.env.VSCODE_EXECUTABLE_PATH;
  const cli = findOnPath(process.platform === 'win32' ? ['code.cmd', 'code'] : ['code']);
  if (!cli) return undefined;
  const real = fs.realpathSync(cli);
  // The CLI lives in <install>/bin (Linux, Windows) or <App>/Contents/Resources/app/bin (macOS).
  const binDir = path.dirname(real);
  const candidates =
    process.platform === 'darwin'
      ? [path.resolve(binDir, '..', '..', '..', 'MacOS', 'Electron'), path.resolve(binDir, '..', '..', '..', 'MacOS', 'Code')]
      : process.platform === 'win32'
        ? [path.resolve(binDir, '..', 'Code.exe'), path.resolve(binDir, '..', 'Code - Insiders.exe')]
        : [path.resolve(binDir, '..', 'code'), path.resolve(binDir, '..', 'code-insiders')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

function findOnPath(names) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (dir && fs.existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** @returns {Promise<number>} the suite's exit code */
async function runInElectron({ vscodeExecutablePath, workspace, extensionDevelopmentPath, extensionTestsPath, env, userDataDir, extensionsDir }) {
  const { runTests } = require('@vscode/test-electron');
  try {
    return await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath,
      extensionTestsPath,
      extensionTestsEnv: env,
      launchArgs: [workspace, '--disable-workspace-trust', '--skip-welcome', `--user-data-dir=${userDataDir}`, `--extensions-dir=${extensionsDir}`],
    });
  } catch (err) {
    console.error(`[vscode-host] ${err && err.message ? err.message : err}`);
    return 1;
  }
}

module.exports = { findDesktopVSCode, findOnPath, runInElectron };
