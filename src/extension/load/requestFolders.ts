/**
 * The folders that hold request files (at any depth), for Carrier: Run Load Test…: the folder
 * picker lists them, and the explorer's context menu offers the command on them alone, through
 * the `carrier.requestFolders` context key (package.json's `resourcePath in …`). Found with VS
 * Code's search, as the Test Explorer finds files (testing/discovery.ts), and found again when a
 * request file is created or deleted.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setContextList } from '../contextKeys';

const REQUEST_FILES = '**/*.carrier.json';
/** Where load reports go (loadCommands.ts) and what collectionRoots.ts skips: never offered. */
const SKIPPED = ['**/node_modules/**', '**/reports/**'];
const DEBOUNCE_MS = 500;

/** Each folder holding a request file, and each of its parents up to its workspace folder; sorted by path. */
export async function requestFolders(): Promise<vscode.Uri[]> {
  const files = await vscode.workspace.findFiles(REQUEST_FILES, `{${SKIPPED.join(',')}}`);
  const found = new Map<string, vscode.Uri>();
  for (const file of files) {
    const root = vscode.workspace.getWorkspaceFolder(file);
    if (!root || file.scheme !== 'file') continue;
    let dir = vscode.Uri.file(path.dirname(file.fsPath));
    // Up to the workspace folder itself: loading the whole folder is a choice too.
    for (;;) {
      found.set(dir.fsPath, dir);
      const rel = path.relative(root.uri.fsPath, dir.fsPath);
      if (!rel || rel.startsWith('..')) break;
      dir = vscode.Uri.file(path.dirname(dir.fsPath));
    }
  }
  return [...found.values()].sort((a, b) => (a.fsPath < b.fsPath ? -1 : a.fsPath > b.fsPath ? 1 : 0));
}

/**
 * Keeps the context key the explorer menu reads, as file paths: the explorer's `resourcePath` of a
 * file is its file-system path. The search runs after activation, never blocking it.
 */
export function watchRequestFolders(): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const update = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      void requestFolders().then(
        (folders) =>
          setContextList(
            'carrier.requestFolders',
            folders.map((f) => f.fsPath),
          ),
        () => undefined,
      );
    }, DEBOUNCE_MS);
  };
  const watcher = vscode.workspace.createFileSystemWatcher(REQUEST_FILES, false, true, false);
  update();
  return vscode.Disposable.from(watcher, watcher.onDidCreate(update), watcher.onDidDelete(update), vscode.workspace.onDidChangeWorkspaceFolders(update), {
    dispose: () => clearTimeout(timer),
  });
}
