/** The status-bar item that names the target environment; clicking it switches. */
import * as vscode from 'vscode';
import type { KeyPresence } from './keyPresence';
import { keyDestination } from '../coreLight';
import type { EnvironmentStore } from './environmentStore';

export function createEnvironmentStatus(environments: EnvironmentStore, keys: KeyPresence): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('carrier.environment', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Carrier Environment';
  item.command = 'carrier.selectEnvironment';

  const refresh = async (): Promise<void> => {
    const env = environments.selected();
    // A key counts only for where the environment points now (core's keyDestination).
    const hasKey = await keys.hasFor(env.name, keyDestination(environments.selectedEnvironment()));
    // The sandbox accepts requests without a key, so a missing one is only worth a warning
    // for a real environment.
    const missingKey = !hasKey && !env.embeddedSandbox;
    item.text = `$(server-environment) ${env.name}${missingKey ? ' $(warning)' : ''}`;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`**Carrier environment:** ${escape(env.name)}\n\n`);
    tip.appendMarkdown(
      env.baseUrl
        ? `Endpoint: \`${escape(env.baseUrl)}\`\n\n`
        : env.embeddedSandbox
          ? 'Sandbox not running — [Start Sandbox](command:carrier.startSandbox)\n\n'
          : '',
    );
    tip.appendMarkdown(
      hasKey ? '$(key) API key stored\n\n' : missingKey ? '$(warning) No API key — [Set API Key](command:carrier.setApiKey)\n\n' : 'No API key needed\n\n',
    );
    tip.isTrusted = { enabledCommands: ['carrier.startSandbox', 'carrier.setApiKey'] };
    item.tooltip = tip;
    item.accessibilityInformation = { label: `Carrier environment ${env.name}${missingKey ? ', no API key' : ''}` };
  };

  // Hidden while another language's editor is active, where it means nothing; kept while the
  // results panel (no text editor) has focus, since the panel shows that environment's replies.
  const updateVisibility = (): void => {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId === 'carrier-request') item.show();
    else item.hide();
  };

  void refresh();
  updateVisibility();
  return vscode.Disposable.from(
    item,
    environments.onDidChange(() => void refresh()),
    keys.onDidChange(() => void refresh()),
    vscode.window.onDidChangeActiveTextEditor(updateVisibility),
  );
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}
