/**
 * Follows every folder's carrier.environments.json: an edit makes the environment store read
 * that folder again (status bar, picker, the next send) and its problems go to the Problems
 * panel, where a broken file is noticed before a send fails.
 */
import * as vscode from 'vscode';
import { ENVIRONMENTS_FILE } from '../coreLight';
import type { EnvironmentStore } from './environmentStore';

export function watchEnvironmentsFile(environments: EnvironmentStore): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('carrier-environments');
  const showProblems = (folder: vscode.Uri): void => {
    const loaded = environments.definitions(folder.fsPath);
    if (!loaded.file) return;
    const diagnostics = loaded.problems.map((p) => {
      const d = new vscode.Diagnostic(
        new vscode.Range(p.range.start.line, p.range.start.character, p.range.end.line, p.range.end.character),
        p.message,
        p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'carrier';
      return d;
    });
    collection.set(vscode.Uri.file(loaded.file), diagnostics);
  };
  // A file may serve several folders (one above them all, environments/where.ts): read all again.
  const changed = (): void => all();
  const all = (): void => {
    collection.clear();
    environments.refresh();
    for (const f of vscode.workspace.workspaceFolders ?? []) showProblems(f.uri);
  };
  const watcher = vscode.workspace.createFileSystemWatcher(`**/${ENVIRONMENTS_FILE}`);
  all();
  return vscode.Disposable.from(
    collection,
    watcher,
    watcher.onDidChange(changed),
    watcher.onDidCreate(changed),
    watcher.onDidDelete(changed),
    vscode.workspace.onDidChangeWorkspaceFolders(all),
    // The status bar speaks of the active editor's folder.
    vscode.window.onDidChangeActiveTextEditor(() => environments.notify()),
  );
}
