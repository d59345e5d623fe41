/**
 * Which environment requests go to. A request file's environments are found as `carrier send`
 * finds them (core's loadEnvironmentsFrom): the nearest carrier.environments.json at or above the
 * file's own folder, up to the repository root, else its workspace folder's — so a recording
 * folder with its own file, or each root of a multi-root workspace, sends with its own
 * definitions, never with those of the first folder. Each is read once and kept until the file
 * watcher says one changed. The choice of name is
 * per workspace; the embedded sandbox's URL is only known while it runs, so it is overlaid here.
 *
 * Session environments (a replay of recordings, src/extension/sandbox/replayController.ts) are
 * overlaid here too, on every folder's definitions, so Send, the Test Explorer, contract checks,
 * the picker and the status bar all find them by name as they find the file's; they are embedded
 * (no API key, their own sandbox's URL) and are never written to a file. Selecting one is kept
 * in memory, not in the workspace state: the next session starts on the saved choice.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Environment, LoadedEnvironments } from '../../core';
import { findEnvironment, loadEnvironmentsFrom, SANDBOX_ENVIRONMENT } from '../coreLight';
import type { EnvironmentDef } from '../core-adapter';

const SELECTED_KEY = 'carrier.environment';
/** The cache key of a file outside every workspace folder: it gets the built-in sandbox only. */
const NO_FOLDER = '';

/** An environment that lives for this session only, embedded, served at `url`. */
export interface SessionEnvironment {
  readonly environment: Environment;
  readonly url: string;
}

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
  private readonly session = new Map<string, SessionEnvironment>();
  /** A session environment selected: in memory only, over the saved choice. */
  private sessionSelected: string | undefined;

  constructor(private readonly state: vscode.Memento) {}

  /** The environments of a folder, read once until the file watcher invalidates them. */
  definitions(folder: string | undefined): LoadedEnvironments {
    return this.from(folder ? [folder] : []);
  }

  /**
   * The environments of a run of collections, found as `carrier run` finds them: from the
   * collections' folders up, then the workspace folder (core's loadEnvironmentsFrom).
   */
  definitionsFrom(starts: readonly string[]): LoadedEnvironments {
    return this.from(starts);
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
    if (!this.session.size) return found;
    const added = [...this.session.values()].map((s) => s.environment);
    return { ...found, environments: [...found.environments.filter((e) => !this.session.has(e.name)), ...added] };
  }

  /** The list a picker or the status bar shows, for `folder` (default: the active editor's folder). */
  all(folder: string | undefined = activeFolder()): EnvironmentDef[] {
    return this.definitions(folder).environments.map((e) => ({
      name: e.name,
      description: e.description,
      baseUrl: e.embedded ? (this.session.get(e.name)?.url ?? this.sandboxUrl) : e.baseUrl,
      embeddedSandbox: e.embedded,
    }));
  }

  selectedName(): string {
    return this.sessionSelected ?? this.state.get<string>(SELECTED_KEY) ?? SANDBOX_ENVIRONMENT;
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
    if (this.session.has(name)) this.sessionSelected = name;
    else {
      this.sessionSelected = undefined;
      await this.state.update(SELECTED_KEY, name);
    }
    this.changed.fire();
  }

  /** Adds (or replaces) a session environment; `select` makes it the selected one. */
  addSession(added: SessionEnvironment): void {
    this.session.set(added.environment.name, added);
    this.changed.fire();
  }

  /** Removes a session environment; when it was selected, the saved choice applies again. */
  removeSession(name: string): void {
    if (!this.session.delete(name)) return;
    if (this.sessionSelected === name) this.sessionSelected = undefined;
    this.changed.fire();
  }

  /** The URL of the session environment named so; undefined for any other. */
  sessionUrl(name: string): string | undefined {
    return this.session.get(name)?.url;
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
