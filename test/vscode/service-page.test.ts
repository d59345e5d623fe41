/**
 * Carrier: Open Service Page opens the embedded sandbox's page of the picked operation in the
 * browser, at an address that browser can reach: on a desktop the sandbox's loopback URL, in
 * code-server its /proxy/<port>/ route. env.openExternal is stubbed to see that address, which
 * the test then loads the way the browser would.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { hasBrowserHost, typeIntoWorkbench } from './support/control';
import { carrierApi } from './support/extension';
import { waitFor } from './support/wait';

describe('Open Service Page', function () {
  before(function () {
    if (!hasBrowserHost()) this.skip(); // picking from the quick pick needs the browser host
  });

  it('opens the sandbox page of the picked operation, with its test form, at an address the browser reaches', async () => {
    await carrierApi();
    const env = vscode.env as { openExternal: typeof vscode.env.openExternal };
    const real = env.openExternal;
    const opened: vscode.Uri[] = [];
    // The extension host leaves env writable while tests run, for exactly this.
    env.openExternal = async (uri: vscode.Uri) => {
      opened.push(uri);
      return true;
    };
    try {
      const done = vscode.commands.executeCommand('carrier.openServicePage');
      assert.ok(await typeIntoWorkbench('GetTerminalInformation'), 'picked the operation');
      await done;
      await waitFor(() => opened.length > 0, 'openExternal');
    } finally {
      env.openExternal = real;
    }
    const url = new URL(opened[0].toString(true));
    assert.match(url.pathname, /\/1\.0\.2\/TerminalInformationService\.asmx$/, url.href);
    assert.equal(url.searchParams.get('op'), 'GetTerminalInformation');

    const page = await fetch(url);
    assert.equal(page.status, 200, url.href);
    const html = await page.text();
    assert.match(html, /<h1[^>]*>GetTerminalInformation/);
    // Every link and form of the page stays under the address it was opened at (a proxy prefix).
    const targets = [...html.matchAll(/(?:href|action)="([^"#][^"]*)"/g)].map((m) => new URL(m[1].replace(/&amp;/g, '&'), url));
    assert.ok(targets.length > 0, 'the page has links');
    const base = url.pathname.slice(0, url.pathname.indexOf('/1.0.2/'));
    for (const target of targets) assert.ok(target.pathname.startsWith(`${base}/`), `${target.href} is outside ${base}/`);
    const form = /<form class="test panel" method="post" action="([^"]+)"/.exec(html);
    assert.ok(form, 'the test form');
  });
});
