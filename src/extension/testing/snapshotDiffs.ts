/**
 * Reply snapshots that differ, as the editor offers them (docs/collections.md#snapshots): the
 * latest differing reply's snapshot text per snapshot file, kept from the Test Explorer's runs
 * (runReporter.ts) and served as `carrier-snapshot:<snapshot file>`, so **Show Snapshot Diff**
 * opens the kept snapshot against it and **Accept Snapshot** writes it over the kept one. Menus
 * and `when` clauses are package.json's.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setContext } from '../contextKeys';
import type { SnapshotOutcome } from '../core-adapter';
import type { Log } from '../log';

export const SNAPSHOT_SCHEME = 'carrier-snapshot';
export const SHOW_SNAPSHOT_DIFF = 'carrier.showSnapshotDiff';
export const ACCEPT_SNAPSHOT = 'carrier.acceptSnapshot';
/** The TestMessage contextValue of a snapshot difference: package.json's testing/message/context menu reads it. */
export const SNAPSHOT_MESSAGE = 'carrierSnapshot';

/** What a `testing/message/context` menu hands its command. */
interface MessageArgument {
  readonly test?: vscode.TestItem;
  readonly message?: vscode.TestMessage;
}

const NOTHING_KEPT = '# No differing reply is kept for this snapshot: run its test again.\n';

/** The virtual document of a snapshot file's differing reply. */
export function snapshotReplyUri(file: string): vscode.Uri {
  return vscode.Uri.file(file).with({ scheme: SNAPSHOT_SCHEME });
}

function fileOf(uri: vscode.Uri): string {
  return uri.with({ scheme: 'file' }).fsPath;
}

function isTestItem(arg: unknown): arg is MessageArgument {
  return typeof arg === 'object' && arg !== null && 'test' in arg;
}

export class SnapshotDiffs implements vscode.Disposable {
  /** Snapshot file → the latest differing reply's snapshot text. */
  private readonly texts = new Map<string, string>();
  /** Test item id → its snapshot file (one leaf item runs one planned test: testTree.ts). */
  private readonly ofItem = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly log: Log) {
    this.disposables = [
      this.changed,
      vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: (uri) => this.texts.get(fileOf(uri)) ?? NOTHING_KEPT,
      }),
      vscode.commands.registerCommand(SHOW_SNAPSHOT_DIFF, (arg?: unknown) => this.show(arg)),
      vscode.commands.registerCommand(ACCEPT_SNAPSHOT, (arg?: unknown) => this.accept(arg)),
    ];
  }

  /** What became of a test's snapshot in a run: a difference is kept; anything else means none is left to accept. */
  record(itemId: string | undefined, outcome: SnapshotOutcome): void {
    if (outcome.status === 'differs' && outcome.text !== undefined) {
      this.texts.set(outcome.file, outcome.text);
      if (itemId) this.ofItem.set(itemId, outcome.file);
    } else if (!this.texts.delete(outcome.file)) return;
    this.changed.fire(snapshotReplyUri(outcome.file));
    setContext('carrier.snapshotDiffers', this.texts.size > 0);
  }

  /** Opens the kept snapshot against the reply's; returns the snapshot file, undefined when there is none to show. */
  async show(arg?: unknown): Promise<string | undefined> {
    const file = await this.fileFor(arg, 'Show the difference of which snapshot?');
    if (!file) return undefined;
    await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(file), snapshotReplyUri(file), `${path.basename(file)}: kept ↔ this reply`);
    return file;
  }

  /** Writes the reply's snapshot over the kept one; returns the snapshot file, undefined when nothing was accepted. */
  async accept(arg?: unknown): Promise<string | undefined> {
    const file = await this.fileFor(arg, 'Accept which reply as its snapshot?');
    if (!file) return undefined;
    const text = this.texts.get(file)!;
    // Closed first: a diff editor whose kept side changes under it while it closes trips the workbench.
    await this.closeTabs(file);
    // Written beside it, then renamed over it: a reader never sees half a snapshot.
    const target = vscode.Uri.file(file);
    const temporary = vscode.Uri.file(`${file}.accept-${process.pid}.tmp`);
    try {
      await vscode.workspace.fs.writeFile(temporary, new TextEncoder().encode(text));
      await vscode.workspace.fs.rename(temporary, target, { overwrite: true });
    } catch (e) {
      await vscode.workspace.fs.delete(temporary).then(undefined, () => undefined);
      const message = `Snapshot not accepted: ${vscode.workspace.asRelativePath(file)}: ${(e as Error).message}`;
      this.log.error(message);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
    this.texts.delete(file);
    for (const [id, f] of this.ofItem) if (f === file) this.ofItem.delete(id);
    setContext('carrier.snapshotDiffers', this.texts.size > 0);
    const said = `Snapshot accepted: ${vscode.workspace.asRelativePath(file)}; the test's next run compares with it.`;
    this.log.info(said);
    void vscode.window.showInformationMessage(said);
    return file;
  }

  /** The snapshot a command is about: its diff editor, its test's message, else the one (or a chosen one) that differs. */
  private async fileFor(arg: unknown, question: string): Promise<string | undefined> {
    let file: string | undefined;
    if (arg instanceof vscode.Uri) file = fileOf(arg);
    else if (isTestItem(arg) && arg.test) file = this.ofItem.get(arg.test.id);
    else {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === SNAPSHOT_SCHEME) file = fileOf(input.modified);
      else if (this.texts.size === 1) file = [...this.texts.keys()][0];
      else if (this.texts.size > 1) {
        const picked = await vscode.window.showQuickPick(
          [...this.texts.keys()].map((f) => ({ label: path.basename(f), description: vscode.workspace.asRelativePath(path.dirname(f)), file: f })),
          { placeHolder: question },
        );
        file = picked?.file;
        if (!file) return undefined;
      }
    }
    if (file && this.texts.has(file)) return file;
    void vscode.window.showInformationMessage(
      file
        ? `No differing reply is kept for ${vscode.workspace.asRelativePath(file)}: run its test again.`
        : 'No snapshot differs in the last Test Explorer runs.',
    );
    return undefined;
  }

  private async closeTabs(file: string): Promise<void> {
    const ours = (uri: vscode.Uri) => uri.scheme === SNAPSHOT_SCHEME && fileOf(uri) === file;
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => (t.input instanceof vscode.TabInputTextDiff ? ours(t.input.modified) : t.input instanceof vscode.TabInputText && ours(t.input.uri)));
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  dispose(): void {
    setContext('carrier.snapshotDiffers', false);
    for (const d of this.disposables) d.dispose();
  }
}
