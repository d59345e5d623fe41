/**
 * Follows carrier.environments.json: an edit refreshes the environment list (status bar, picker)
 * and its problems go to the Problems panel, where a broken file is noticed before a send fails.
 */
import * as vscode from 'vscode';
import { environmentProblems } from '../core-adapter';
import type { EnvironmentStore } from './environmentStore';

const FILE = 'carrier.environments.json';

export function watchEnvironmentsFile(environments: EnvironmentStore): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('carrier-environments');
  const update = (): void => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    collection.clear();
    if (folder) {
      const problems = environmentProblems(folder.fsPath);
      const diagnostics = problems.map((p) => {
        const d = new vscode.Diagnostic(
          new vscode.Range(p.range.start.line, p.range.start.character, p.range.end.line, p.range.end.character),
          p.message,
          p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        d.source = 'carrier';
        return d;
      });
      collection.set(vscode.Uri.joinPath(folder, FILE), diagnostics);
    }
    environments.refresh();
  };
  const watcher = vscode.workspace.createFileSystemWatcher(`**/${FILE}`);
  update();
  return vscode.Disposable.from(collection, watcher, watcher.onDidChange(update), watcher.onDidCreate(update), watcher.onDidDelete(update));
}
