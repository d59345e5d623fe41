/** Carrier: Start Sandbox / Stop Sandbox. */
import * as vscode from 'vscode';
import { guarded } from '../errors';
import type { Log } from '../log';
import type { SandboxController } from './sandboxController';

export function registerSandboxCommands(sandbox: SandboxController, log: Log): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      'carrier.startSandbox',
      guarded(log, 'Start Sandbox', async () => {
        const already = sandbox.url;
        const url = await sandbox.start();
        vscode.window.setStatusBarMessage(`$(vm-running) Carrier sandbox ${already ? 'already running' : 'started'} on ${url}`, 5000);
      }),
    ),
    vscode.commands.registerCommand(
      'carrier.stopSandbox',
      guarded(log, 'Stop Sandbox', async () => {
        await sandbox.stop();
        vscode.window.setStatusBarMessage('$(vm-outline) Carrier sandbox stopped', 3000);
      }),
    ),
  ];
}
