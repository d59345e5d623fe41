/**
 * Carrier: Open Service Page — the embedded sandbox's page for one operation (its test form,
 * parameters and samples) in the browser. Picks the shape as Open WSDL does, starts the sandbox
 * if it is not running, and opens `{path}?op=<Operation>` on it.
 */
import * as vscode from 'vscode';
import { findShape } from '../../core/catalog';
import { operationPageUrl } from '../../sandbox/pages/links';
import { pickShape } from '../authoring/pickShape';
import { guarded } from '../errors';
import type { Log } from '../log';
import type { SandboxController } from './sandboxController';

export function registerOpenServicePage(sandbox: SandboxController, log: Log): vscode.Disposable {
  return vscode.commands.registerCommand('carrier.openServicePage', guarded(log, 'Open Service Page', async () => {
    const shape = await pickShape('Carrier: Open Service Page');
    if (!shape) return;
    const op = findShape(shape.operation, shape.version);
    if (!op) throw new Error(`${shape.label} is not in the catalog`);
    const url = operationPageUrl(await sandbox.start(), op);
    // openExternal also forwards the loopback port when VS Code runs remotely, so the page is
    // still requested from the sandbox's own machine and keeps its SOAP test form.
    const opened = await vscode.env.openExternal(vscode.Uri.parse(url));
    if (!opened) void vscode.window.showInformationMessage(`Carrier: the service page is at ${url}`);
  }));
}
