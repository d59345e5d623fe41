/**
 * Which environment requests go to. A request file's environments are found as `carrier send`
 * finds them (core's loadEnvironmentsFrom): the nearest carrier.environments.json at or above the
 * file's own folder, up to the repository root, else its workspace folder's — so a recording
 * folder with its own file, or each root of a multi-root workspace, sends with its own
 * definitions, never with those of the first folder. Each is read once and kept until the file
 * watcher says one changed. The choice of name is
 * per workspace; the embedded sandbox's URL is only known while it runs, so it is overlaid here.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Environment, LoadedEnvironments } from '../../core';
import { findEnvironment, loadEnvironmentsFrom, SANDBOX_ENVIRONMENT } from '../coreLight';
import type { EnvironmentDef } from '../core-adapter';

const SELECTED_KEY = 'carrier.environment';
/** The cache key of a file outside every workspace folder: it gets the built-in sandbox only. */
const NO_FOLDER = '';

/** The environment a send uses, resolved once and handed to core as it is. */
export interface ResolvedEnvironment {
  readonly environment: Environment;
  /** The workspace folder whose carrier.environments.json defined it; undefined outside any folder. */
  readonly folder?: string;
}

export class EnvironmentStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private sandboxUrl: string | undefined;
  private readonly loaded = new Map<string, LoadedEnvironments>();

  constructor(private readonly state: vscode.Memento) {}

  /** The environments of a folder, read once until the file watcher invalidates them. */
  definitions(folder: string | undefined): LoadedEnvironments {
    return this.from(folder ? [folder] : []);
  }

  /** The environments a request file goes by: from its own folder up, else from its workspace folder's. */
  definitionsOf(uri: vscode.Uri): LoadedEnvironments {
    const folder = folderOf(uri);
    return this.from([...(uri.scheme === 'file' ? [path.dirname(uri.fsPath)] : []), ...(folder ? [folder] : [])]);
  }

  private from(starts: readonly string[]): LoadedEnvironments {
    const key = starts.join('\0') || NO_FOLDER;
    let found = this.loaded.get(key);
    if (!found) this.loaded.set(key, (found = loadEnvironmentsFrom(starts)));
    return found;
  }

  /** The list a picker or the status bar shows, for `folder` (default: the active editor's folder). */
  all(folder: string | undefined = activeFolder()): EnvironmentDef[] {
    return this.definitions(folder).environments.map((e) => ({
      name: e.name,
      description: e.description,
      baseUrl: e.embedded ? this.sandboxUrl : e.baseUrl,
      embeddedSandbox: e.embedded,
    }));
  }

  selectedName(): string {
    return this.state.get<string>(SELECTED_KEY) ?? SANDBOX_ENVIRONMENT;
  }

  /** The selected environment as core has it, from `folder` (default: the active editor's), else the sandbox. */
  selectedEnvironment(folder: string | undefined = activeFolder()): Environment {
    const loaded = this.definitions(folder);
    return findEnvironment(loaded, this.selectedName()) ?? findEnvironment(loaded, SANDBOX_ENVIRONMENT) ?? loaded.environments[0];
  }

  /** The selected environment as `folder` defines it, else the sandbox (a folder that lacks the name). */
  selected(folder: string | undefined = activeFolder()): EnvironmentDef {
    const all = this.all(folder);
    return all.find((e) => e.name === this.selectedName()) ?? all.find((e) => e.name === SANDBOX_ENVIRONMENT) ?? all[0];
  }

  /**
   * The environment a request file goes to: the one it names, else the selected one, as the
   * file's own folder defines it. A string says why there is none (nothing is sent then).
   */
  resolve(uri: vscode.Uri, named?: string): ResolvedEnvironment | string {
    const folder = folderOf(uri);
    const loaded = this.definitionsOf(uri);
    const name = named ?? this.selectedName();
    const environment = findEnvironment(loaded, name);
    if (environment) return { environment, ...(folder ? { folder } : {}) };
    const where = loaded.file
      ? vscode.workspace.asRelativePath(vscode.Uri.file(loaded.file), true)
      : folder
        ? `${vscode.workspace.asRelativePath(vscode.Uri.file(folder), true)}/carrier.environments.json`
        : 'carrier.environments.json (the file is outside every workspace folder)';
    return named
      ? `The request names environment "${name}", which ${where} does not define.`
      : `Environment "${name}" is selected, but ${where} does not define it: select another with "Carrier: Select Environment".`;
  }

  async select(name: string): Promise<void> {
    await this.state.update(SELECTED_KEY, name);
    this.changed.fire();
  }

  /**
   * A carrier.environments.json changed: read them again. A file is found from every folder below
   * it, so nothing kept can be trusted; reading them is cheap.
   */
  refresh(): void {
    this.loaded.clear();
    this.changed.fire();
  }

  /** Nothing was re-read, but what "the active folder" means may have changed. */
  notify(): void {
    this.changed.fire();
  }

  setSandboxUrl(url: string | undefined): void {
    this.sandboxUrl = url;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * The workspace folder a file belongs to; undefined for a file outside every folder. An untitled
 * scratch file belongs to the only folder when there is just one (there is no other to mean).
 */
export function folderOf(uri: vscode.Uri): string | undefined {
  const own = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
  if (own || uri.scheme !== 'untitled') return own;
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.length === 1 ? folders[0].uri.fsPath : undefined;
}

/** The folder of the active editor, else the first folder: what the status bar speaks about. */
export function activeFolder(): string | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return (uri && folderOf(uri)) ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}
