/**
 * Request files follow the live contract of the environment they go to: core validates them
 * against it once it knows that environment (the file's own, else the one selected here), and
 * this adds what the editor's JSON service cannot know — completion and hovers for the elements
 * the live service adds. `onDidChange` fires when a stored contract or the selection changes, so
 * the open files are validated again.
 */
import * as vscode from 'vscode';
import { engine, setDefaultEnvironment } from '../engineBundle';
import type { EnvironmentStore } from '../environments/environmentStore';
import { REQUEST_LANGUAGE } from '../send/targetDocument';

export class ContractSupport implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(environments: EnvironmentStore) {
    // A file that names no environment goes to the selected one, so it follows that one's contract.
    setDefaultEnvironment(() => environments.selectedName());
    const watcher = vscode.workspace.createFileSystemWatcher('**/.carrier/contracts/*.json');
    const fire = () => this.changed.fire();
    this.disposables.push(
      this.changed,
      watcher,
      watcher.onDidCreate(fire),
      watcher.onDidChange(fire),
      watcher.onDidDelete(fire),
      environments.onDidChange(fire),
      vscode.languages.registerCompletionItemProvider({ language: REQUEST_LANGUAGE }, { provideCompletionItems: (doc, pos) => this.complete(doc, pos) }, '"'),
      vscode.languages.registerHoverProvider({ language: REQUEST_LANGUAGE }, { provideHover: (doc, pos) => this.hover(doc, pos) }),
    );
  }

  /** Files were validated before a contract was stored or changed: say so to whoever validates them. */
  contractsChanged(): void {
    this.changed.fire();
  }

  private complete(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] {
    if (doc.uri.scheme !== 'file') return [];
    return engine()
      .contractCompletions(doc.getText(), doc.uri.fsPath, doc.offsetAt(pos))
      .map((c) => {
        const item = new vscode.CompletionItem(c.name, vscode.CompletionItemKind.Property);
        item.insertText = new vscode.SnippetString(c.snippet);
        item.detail = c.detail;
        item.documentation = new vscode.MarkdownString(c.documentation);
        if (c.replace) item.range = new vscode.Range(doc.positionAt(c.replace.start), doc.positionAt(c.replace.end));
        // Before the catalog's fields: these are what the live service has and the schema does not.
        item.sortText = `0${c.name}`;
        item.filterText = `"${c.name}"`;
        return item;
      });
  }

  private hover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    if (doc.uri.scheme !== 'file') return undefined;
    const found = engine().contractHover(doc.getText(), doc.uri.fsPath, doc.offsetAt(pos));
    return found && new vscode.Hover(new vscode.MarkdownString(found.markdown), new vscode.Range(doc.positionAt(found.start), doc.positionAt(found.end)));
  }

  dispose(): void {
    setDefaultEnvironment(undefined);
    for (const d of this.disposables) d.dispose();
  }
}
