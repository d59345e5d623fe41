/**
 * The tests of the workspace, as the runner plans them: request files found with VS Code's
 * search (so excluded and huge folders cost nothing), then read, validated and ordered by core's
 * own loadRun, the same code `carrier run` uses. Starts only when asked (the Test Explorer opens,
 * a request file is opened, a run begins) and then follows files and unsaved edits, debounced.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { collectionNames, planTests, type PlannedRun } from '../core-adapter';
import type { Log } from '../log';
import { REQUEST_LANGUAGE } from '../send/targetDocument';
import { collectionRoots } from './collectionRoots';
import { holdsRequestFiles } from './holdsRequestFiles';

export interface FolderPlan {
  readonly folder: vscode.WorkspaceFolder;
  readonly plan: PlannedRun;
}

const DEBOUNCE_MS = 300;
const FOUND = '**/{*.carrier.json,collection.json}';
/** Data files (collection.json "data") can have any name: changes count for the ones the plans read. */
const DATA = '**/*.{csv,json}';
/**
 * Anything created or deleted: a folder moved or copied in or out (a checkout, `mv`, `rm -r`) is
 * reported as the folder alone, and a file written into a folder just made can land before the
 * watcher follows that folder, so neither shows up as a FOUND event. A new folder, or the loss of
 * one that held listed files, is therefore a reason to search again.
 */
const ANY = '**/*';

function isRequestDocument(doc: vscode.TextDocument): boolean {
  return doc.uri.scheme === 'file' && (doc.languageId === REQUEST_LANGUAGE || doc.fileName.endsWith('.carrier.json'));
}

/** Reads through the editor's unsaved text, so what is listed and run is what is on screen. */
function editorReader(): (file: string) => string {
  const dirty = new Map<string, string>();
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.isDirty && isRequestDocument(doc)) dirty.set(doc.uri.fsPath, doc.getText());
  }
  return (file) => dirty.get(file) ?? fs.readFileSync(file, 'utf8');
}

async function loadFolder(folder: vscode.WorkspaceFolder): Promise<FolderPlan | undefined> {
  if (folder.uri.scheme !== 'file') return undefined;
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, FOUND), '**/node_modules/**');
  const roots = collectionRoots(
    folder.uri.fsPath,
    found.map((u) => u.fsPath),
  );
  if (!roots.length) return undefined;
  return { folder, plan: planTests(roots, folder.uri.fsPath, editorReader()) };
}

function foldersAbove(plans: readonly FolderPlan[]): Set<string> {
  const folders = new Set<string>();
  for (const { folder, plan } of plans) {
    for (const file of [...plan.files.keys(), ...plan.dataFiles]) {
      for (let dir = path.dirname(file); dir.startsWith(folder.uri.fsPath) && !folders.has(dir); dir = path.dirname(dir)) folders.add(dir);
    }
  }
  return folders;
}

export class TestDiscovery implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private started = false;
  private stale = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Loads run one after another, so a slow one never overwrites a newer one's result. */
  private chain: Promise<readonly FolderPlan[]> = Promise.resolve([]);
  /** The data files the last load's plans read. */
  private dataFiles = new Set<string>();
  /** Every folder above a file the last load read, up to its workspace folder. */
  private listedFolders = new Set<string>();

  constructor(
    private readonly log: Log,
    /** Called after every load with the plans of every workspace folder that has request files. */
    private readonly onLoad: (plans: readonly FolderPlan[]) => void,
  ) {
    // Opening a request file is a reason to list tests (its gutter gets run buttons); activation
    // by anything else (a restored results panel) is not.
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (isRequestDocument(doc)) this.start();
      }),
    );
    if (vscode.workspace.textDocuments.some(isRequestDocument)) this.start();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    const watcher = vscode.workspace.createFileSystemWatcher(FOUND);
    const schedule = () => this.schedule();
    const data = vscode.workspace.createFileSystemWatcher(DATA);
    const ifData = (uri: vscode.Uri) => {
      if (this.dataFiles.has(uri.fsPath)) this.schedule();
    };
    const any = vscode.workspace.createFileSystemWatcher(ANY, false, true, false);
    const ifFolder = (uri: vscode.Uri) => void this.scheduleIfFolder(uri);
    const ifListedFolder = (uri: vscode.Uri) => {
      if (this.listedFolders.has(uri.fsPath)) this.schedule();
    };
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate(schedule),
      watcher.onDidChange(schedule),
      watcher.onDidDelete(schedule),
      data,
      data.onDidCreate(ifData),
      data.onDidChange(ifData),
      data.onDidDelete(ifData),
      any,
      any.onDidCreate(ifFolder),
      any.onDidDelete(ifListedFolder),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && isRequestDocument(e.document)) schedule();
      }),
      // Closing an unsaved editor puts the file's saved text back in force.
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (isRequestDocument(doc)) schedule();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(schedule),
    );
    void this.refresh();
  }

  /** The plans as of now: waits for a pending or running load rather than using an old one. */
  current(): Promise<readonly FolderPlan[]> {
    this.start();
    return this.stale || this.timer ? this.refresh() : this.chain;
  }

  refresh(): Promise<readonly FolderPlan[]> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stale = false;
    this.chain = this.chain.catch(() => []).then(() => this.load());
    return this.chain;
  }

  /**
   * A created folder that holds request files, outside the folders a run never goes into; none is
   * looked at while a search is already due (an npm install creates thousands).
   */
  private async scheduleIfFolder(uri: vscode.Uri): Promise<void> {
    if (this.timer || uri.scheme !== 'file') return;
    const names = collectionNames();
    if (vscode.workspace.asRelativePath(uri, false).split(/[\\/]/).some(names.isNeverRunFolder)) return;
    if ((await holdsRequestFiles(uri.fsPath, names)) && !this.timer) this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), DEBOUNCE_MS);
  }

  private async load(): Promise<readonly FolderPlan[]> {
    try {
      const plans = (await Promise.all((vscode.workspace.workspaceFolders ?? []).map(loadFolder))).filter((p): p is FolderPlan => !!p);
      this.dataFiles = new Set(plans.flatMap((p) => p.plan.dataFiles));
      this.listedFolders = foldersAbove(plans);
      this.onLoad(plans);
      return plans;
    } catch (e) {
      this.stale = true;
      this.log.error(`test discovery failed: ${(e as Error).message}`);
      throw e;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscriptions.forEach((s) => s.dispose());
  }
}
