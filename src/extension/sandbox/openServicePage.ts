/**
 * Carrier: Open Service Page — the embedded sandbox's page for one operation (its test form,
 * parameters and samples) in the browser. Picks the shape as Open WSDL does, starts the sandbox
 * if it is not running, and opens `{path}?op=<Operation>` on it.
 */
import * as vscode from 'vscode';
import { pickShape } from '../pickShape';
import { servicePageUrl } from '../core-adapter';
import { guarded } from '../errors';
import type { Log } from '../log';
import { repairedExternalUrl } from './externalPageUrl';
import type { SandboxController } from './sandboxController';

export function registerOpenServicePage(sandbox: SandboxController, log: Log): vscode.Disposable {
  return vscode.commands.registerCommand(
    'carrier.openServicePage',
    guarded(log, 'Open Service Page', async () => {
      const shape = await pickShape('Carrier: Open Service Page');
      if (!shape) return;
      const url = servicePageUrl(shape, await sandbox.start());
      // openExternal forwards the loopback port when VS Code runs remotely, so the page is still
      // requested from the sandbox's own machine and keeps its SOAP test form. Where that mapping
      // loses the page's path (code-server), the mapped root plus the path is opened instead.
      const external = await vscode.env.asExternalUri(vscode.Uri.parse(url));
      const repaired = repairedExternalUrl(url, external.toString(true));
      const target = repaired ?? url;
      log.info(`Open Service Page: ${target}`);
      const opened = await vscode.env.openExternal(vscode.Uri.parse(target));
      if (!opened) void vscode.window.showInformationMessage(`Carrier: the service page is at ${target}`);
    }),
  );
}
