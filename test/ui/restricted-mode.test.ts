/**
 * Restricted Mode as a person meets it: a cloned repository whose carrier.environments.json sends
 * to an address of its own, opened with workspace trust on (`npm start -- --restricted`) and the
 * trust prompt answered No. A send to the repository's environment is refused with a warning
 * that says why, and that address receives nothing; the embedded sandbox answers as usual.
 * Screenshot: restricted-mode-refused.png.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../scripts/vscode-host/code-server-process';
import { runStartScript, type StartedWorkbench } from './support/startProcess';
import { clickCodeLens, openBrowser, openWorkbench, quickOpen, resultsFrame, screenshot } from './support/workbench';

describe('Restricted Mode: a repository not yet trusted', function () {
  let scratch: string;
  let started: StartedWorkbench | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let elsewhere: http.Server;
  const received: string[] = [];

  before(async function () {
    // The address the repository names: anything reaching it is a request that should not have left.
    elsewhere = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;

    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-ui-restricted-'));
    const folder = path.join(scratch, 'cloned');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'carrier.environments.json'), `{\n  "theirs": { "baseUrl": "${url}" }\n}\n`);
    const example = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'transit-times', 'get-transit-times.carrier.json'), 'utf8');
    fs.writeFileSync(path.join(folder, 'sandbox-transit-times.carrier.json'), example);
    fs.writeFileSync(path.join(folder, 'theirs-transit-times.carrier.json'), example.replace(/^\{/, '{\n  "environment": "theirs",'));

    started = await runStartScript(['--restricted', '--data-dir', path.join(scratch, 'data'), '--folder', folder]);
    browser = await openBrowser();
    page = await openWorkbench(browser, started.url);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page && !page.isClosed())
      await screenshot(page, `failed-restricted-${this.currentTest.title.slice(0, 40)}`).catch(() => undefined);
  });

  after(async function () {
    await browser?.close();
    if (started && started.child.exitCode === null && started.child.signalCode === null) {
      started.child.kill('SIGINT');
      await started.exited;
    }
    await new Promise((resolve) => elsewhere.close(resolve));
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('the trust prompt answered No leaves the window in Restricted Mode', async () => {
    const no = page.locator('.monaco-dialog-box .monaco-button', { hasText: /No, I don.t trust/ });
    await no.waitFor({ timeout: 60_000 });
    await no.click();
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 30_000 });
  });

  it("a send to the repository's own environment is refused, saying why, and nothing reaches its address", async () => {
    await quickOpen(page, 'theirs-transit-times.carrier.json');
    await clickCodeLens(page, 'Send SOAP 1.1');
    const warning = page.locator('.notification-toast', { hasText: '"theirs" is defined by this workspace, which is in Restricted Mode' });
    await warning.waitFor({ timeout: 60_000 });
    assert.match(await warning.innerText(), /Manage Workspace Trust/);
    await screenshot(page, 'restricted-mode-refused');
    // Give a send that should not have happened every chance to arrive.
    await page.waitForTimeout(1500);
    assert.deepEqual(received, []);
  });

  it('the embedded sandbox answers as usual', async () => {
    await page.keyboard.press('Escape');
    await quickOpen(page, 'sandbox-transit-times.carrier.json');
    await clickCodeLens(page, 'Send SOAP 1.1');
    const frame = await resultsFrame(page);
    await frame.locator('.domain-transit-times').waitFor({ timeout: 60_000 });
    assert.match(await frame.locator('header.header').innerText(), /200/);
    assert.deepEqual(received, []);
  });
});
