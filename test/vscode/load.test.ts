/**
 * Carrier: Run Load Test… (docs/load.md#in-vs-code), its answers given as arguments: a short load
 * of a GetTerminalInformation request file on the embedded sandbox writes load-report.json and
 * load-report.html to reports/, shows the report in its panel with the operation's row, and
 * judges the thresholds given; Carrier: Cancel Load Test ends a run far too long to finish, which
 * says it was cancelled and still writes its reports.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { LoadCommandResult } from '../../src/extension/load/loadCommands';
import { hasBrowserHost, screenshot } from './support/control';
import { carrierApi } from './support/extension';
import { waitFor } from './support/wait';
import { workspaceRoot } from './support/workspace';

const LOAD_FOLDER = 'load-terminal';

function reportTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('carrier.loadReport'));
}

describe('load test', function () {
  this.timeout(120_000);
  const folder = () => vscode.Uri.joinPath(workspaceRoot(), LOAD_FOLDER);

  before(async () => {
    await carrierApi();
    // A folder of its own, made here, so the Test Explorer's suites never see it.
    const terminal = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(workspaceRoot(), 'requests', 'terminal.carrier.json'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), 'terminal.carrier.json'), terminal);
  });

  after(async () => {
    const tab = reportTab();
    if (tab) await vscode.window.tabGroups.close(tab);
    await vscode.workspace.fs.delete(folder(), { recursive: true });
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), 'reports'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  it('loads GetTerminalInformation on the embedded sandbox and shows the report with its row', async () => {
    const result = await vscode.commands.executeCommand<LoadCommandResult | undefined>('carrier.runLoad', folder(), {
      vus: 2,
      duration: '2s',
      rate: '',
      thresholds: ['GetTerminalInformation:errors<1%', '*:p99<30s'],
    });
    assert.ok(result, 'the command returned its result');
    assert.equal(result.cancelled, false);
    const { report } = result;
    assert.deepEqual(report.environments, ['sandbox']);
    assert.equal(report.model, 'closed');
    assert.equal(report.vus, 2);
    assert.deepEqual(
      report.operations.map((o) => o.name),
      ['GetTerminalInformation'],
    );
    const row = report.operations[0];
    assert.ok(row.count > 0, JSON.stringify(row));
    assert.equal(row.errors, 0, JSON.stringify(row.errorClasses));
    assert.deepEqual(
      report.thresholds?.map((t) => [t.threshold, t.held]),
      [
        ['GetTerminalInformation:errors<1%', true],
        ['*:p99<30s', true],
      ],
    );
    assert.match(result.summary, /^load of load-terminal on sandbox: \d+ requests?, [\d.]+ req\/s, p95 [\d.]+ ms, no errors; every threshold \(2\) held\.$/);

    // Both reports beside each other, as `carrier load -r json,html` writes them.
    assert.ok(result.jsonFile && result.htmlFile);
    const json = JSON.parse(fs.readFileSync(result.jsonFile, 'utf8')) as { format: string; operations: Array<{ name: string; count: number }> };
    assert.equal(json.format, 'carrier-load-report');
    assert.deepEqual(
      json.operations.map((o) => [o.name, o.count]),
      [['GetTerminalInformation', row.count]],
    );
    const html = fs.readFileSync(result.htmlFile, 'utf8');
    assert.match(html, /<tr><td>GetTerminalInformation<\/td><td>\d+<\/td>/);
    assert.match(html, /script-src 'none'/);

    await waitFor(() => reportTab() !== undefined, 'the load report panel');
    const tab = reportTab()!;
    assert.equal(tab.label, result.panelTitle);
    assert.equal(tab.isActive, true);
    if (hasBrowserHost()) {
      // The page draws without script: give the webview a moment to paint before each picture.
      await new Promise((r) => setTimeout(r, 1000));
      await screenshot('load-report');
      // The page follows the editor's theme, not the browser's (loadReportPanel.ts).
      const config = vscode.workspace.getConfiguration('workbench');
      try {
        await config.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
        await waitFor(() => vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.Dark, 'the dark theme');
        await new Promise((r) => setTimeout(r, 1000));
        await screenshot('load-report-dark');
      } finally {
        await config.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
      }
    }
  });

  it('Cancel Load Test ends a run under way, which still writes its reports', async () => {
    const html = vscode.Uri.joinPath(workspaceRoot(), 'reports', 'load-report.html');
    await vscode.workspace.fs.delete(html).then(undefined, () => undefined);
    // Ten minutes: only a cancel lets it end within mocha's timeout.
    const running = vscode.commands.executeCommand<LoadCommandResult | undefined>('carrier.runLoad', folder(), {
      vus: 2,
      duration: '10m',
      rate: '',
      thresholds: [],
    });
    await waitFor(async () => (await vscode.commands.executeCommand<boolean>('carrier.cancelLoad')) === true, 'a load to cancel', 30_000);
    const result = await running;
    assert.ok(result, 'the command returned its result');
    assert.equal(result.cancelled, true);
    assert.equal(result.report.cancelled, true);
    assert.match(result.summary, /^load cancelled; before that, of load-terminal/);
    assert.equal(result.htmlFile, html.fsPath);
    assert.ok(fs.existsSync(html.fsPath), 'the HTML report was written');
    assert.match(fs.readFileSync(html.fsPath, 'utf8'), /cancelled/);
  });
});
