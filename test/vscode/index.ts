/**
 * Entry point that VS Code's extension host loads as `extensionTestsPath`. It is bundled into one
 * file, so the suites are pulled in with `require` *after* mocha's BDD globals exist (an `import`
 * would be hoisted and run `describe` before there is a `describe`).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the suites and mocha load after mocha's globals exist, as said above */
import * as vscode from 'vscode';
import { reportResult, screenshot, type SuiteResult } from './support/control';

// Each entry is a bundled module; order is the run order.
const SUITES: ReadonlyArray<() => unknown> = [
  () => require('./activation.test'),
  () => require('./codelens.test'),
  () => require('./editor.test'),
  () => require('./panel.test'),
  () => require('./panel-interaction.test'),
  () => require('./send.test'),
  () => require('./authoring.test'),
  () => require('./service-page.test'),
  () => require('./inspector.test'),
  () => require('./history-rows.test'),
  () => require('./secrets.test'),
  () => require('./testing.test'),
  () => require('./data-rows.test'),
  () => require('./tags.test'),
  () => require('./wait-cancel.test'),
  () => require('./flaky.test'),
  () => require('./snapshots.test'),
  () => require('./multiroot.test'),
  () => require('./contract.test'),
  () => require('./probe.test'),
  () => require('./load.test'),
  () => require('./new-user-editor.test'),
  () => require('./replay.test'),
];

export async function run(): Promise<void> {
  // mocha stays external: the bundle loads the repository's own copy at run time.
  const Mocha: typeof import('mocha') = require('mocha');
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  const grep = process.env.CARRIER_VSCODE_GREP;
  if (grep) mocha.grep(grep);

  mocha.suite.emit('pre-require', globalThis, 'carrier-vscode-suite', mocha);
  // What the screen showed when a test failed is most of the diagnosis, in CI above all.
  mocha.suite.afterEach(async function () {
    const test = this.currentTest;
    if (test?.state !== 'failed') return;
    await screenshot(`failed-${test.fullTitle()}`).catch(() => undefined);
    // A dialog a failed test left open would swallow the next test's typing.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });
  for (const load of SUITES) load();

  const result = await new Promise<SuiteResult>((resolve) => {
    const outcome: SuiteResult = { passed: 0, failed: 0, pending: 0, failures: [], tests: [] };
    const runner = mocha.run(() => resolve(outcome));
    runner.on('pass', (t) => {
      outcome.passed++;
      outcome.tests.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration ?? 0 });
    });
    runner.on('fail', (t, err: Error) => {
      outcome.failed++;
      outcome.failures.push({ title: t.fullTitle(), message: err?.stack ?? String(err) });
      outcome.tests.push({ title: t.fullTitle(), state: 'failed', durationMs: t.duration ?? 0 });
    });
    runner.on('pending', (t) => {
      outcome.pending++;
      outcome.tests.push({ title: t.fullTitle(), state: 'pending', durationMs: 0 });
    });
  });
  await reportResult(result);
  if (result.failed > 0) throw new Error(`${result.failed} extension-host test(s) failed`);
}
