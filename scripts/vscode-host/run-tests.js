#!/usr/bin/env node
// Runs the mocha suite in dist/test/vscode/index.js inside a real VS Code extension host: a
// desktop VS Code when `code` is on PATH, otherwise code-server in headless chromium. The suite
// gets a throwaway copy of test/vscode/workspace so tests never dirty the repository.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startControlServer } = require('./control-server');
const { runInCodeServer } = require('./code-server-host');
const { findDesktopVSCode, runInElectron } = require('./electron-host');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const TESTS_INDEX = path.join(REPO_ROOT, 'dist', 'test', 'vscode', 'index.js');
const WORKSPACE_TEMPLATE = path.join(REPO_ROOT, 'test', 'vscode', 'workspace');
const RESULTS_DIR = path.join(REPO_ROOT, 'test-results', 'vscode');
const TIMEOUT_MS = Number(process.env.CARRIER_VSCODE_TIMEOUT_MS || 8 * 60_000);

function log(message) {
  console.log(`[vscode-host] ${message}`);
}

/**
 * A two-folder workspace: the copy of test/vscode/workspace first (the folder every suite works
 * in), then an empty second folder, so the suites also run where a window holds several folders
 * and the multi-root suite can give each folder its own environments.
 */
function prepareWorkspace(scratch) {
  const workspace = path.join(scratch, 'workspace');
  const second = path.join(scratch, 'second-folder');
  fs.cpSync(WORKSPACE_TEMPLATE, workspace, { recursive: true });
  fs.mkdirSync(second);
  const file = path.join(scratch, 'carrier-tests.code-workspace');
  fs.writeFileSync(file, JSON.stringify({ folders: [{ path: 'workspace' }, { path: 'second-folder' }] }, null, 2));
  return file;
}

function printSummary(result, exitCode) {
  if (!result) {
    log('the suite reported no result');
    console.log(`vscode: 0 passed, ${exitCode === 0 ? 0 : 1} failed`);
    return;
  }
  for (const f of result.failures ?? []) {
    console.log(`\n  FAILED ${f.title}\n    ${String(f.message).split('\n').join('\n    ')}`);
  }
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'results.json'), JSON.stringify(result, null, 2) + '\n');
  // CI reads this plain closing line.
  const skipped = result.pending ? `, ${result.pending} skipped` : '';
  console.log(`vscode: ${result.passed} passed, ${result.failed} failed${skipped}`);
}

async function main() {
  if (!fs.existsSync(TESTS_INDEX)) throw new Error(`${path.relative(REPO_ROOT, TESTS_INDEX)} missing: run npm run build first`);
  const started = Date.now();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-vscode-tests-'));
  fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
  fs.mkdirSync(RESULTS_DIR, { recursive: true });

  let page;
  const control = await startControlServer({
    screenshot: async (name) => (page ? page.screenshot(name) : undefined),
    type: async (text, selector, waitForValue) => (page ? page.type(text, selector, waitForValue) : false),
    webview: async (op) => (page ? page.webview(op) : undefined),
    workbench: async (op) => (page && page.workbench ? page.workbench(op) : undefined),
  });
  const env = {
    ...process.env,
    CARRIER_TEST_CONTROL_URL: control.url,
    CARRIER_TEST_RESULTS_DIR: RESULTS_DIR,
  };
  const workspace = prepareWorkspace(scratch);
  const common = { workspace, extensionDevelopmentPath: REPO_ROOT, extensionTestsPath: TESTS_INDEX, env };

  let exitCode;
  try {
    const desktop = process.env.CARRIER_VSCODE_HOST === 'code-server' ? undefined : findDesktopVSCode();
    if (desktop) {
      log(`desktop VS Code: ${desktop}`);
      exitCode = await runInElectron({
        ...common,
        vscodeExecutablePath: desktop,
        userDataDir: path.join(scratch, 'user-data'),
        extensionsDir: path.join(scratch, 'extensions'),
      });
    } else {
      log('no desktop VS Code on PATH: using code-server + chromium');
      exitCode = await runInCodeServer({
        ...common,
        // Tells the suite that screenshots and typing into the page are available.
        env: { ...env, CARRIER_TEST_BROWSER: '1' },
        screenshotsDir: RESULTS_DIR,
        timeoutMs: TIMEOUT_MS,
        onPageReady: (actions) => {
          page = actions;
        },
      });
    }
  } finally {
    await control.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const result = control.result();
  printSummary(result, exitCode);
  log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // Green only when the host and the suite's own report agree: a run that reported nothing (the
  // tests module never loaded) is a failure, not an empty success.
  return exitCode === 0 && result && result.failed === 0 ? 0 : exitCode || 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[vscode-host] ${err && err.stack ? err.stack : err}`);
    process.exit(1);
  },
);
