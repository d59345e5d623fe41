/**
 * Which environment requests go to. The list comes from core (through the adapter); the choice is
 * per workspace. The embedded sandbox's URL is only known while it runs, so it is overlaid here.
 */
import * as vscode from 'vscode';
import { listEnvironments, SANDBOX_ENVIRONMENT, type EnvironmentDef } from '../core-adapter';

const SELECTED_KEY = 'carrier.environment';

export class EnvironmentStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private sandboxUrl: string | undefined;

  constructor(private readonly state: vscode.Memento) {}

  all(): EnvironmentDef[] {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return listEnvironments(folder).map((e) => (e.embeddedSandbox ? { ...e, baseUrl: this.sandboxUrl } : e));
  }

  selected(): EnvironmentDef {
    const all = this.all();
    const name = this.state.get<string>(SELECTED_KEY);
    return all.find((e) => e.name === name) ?? all.find((e) => e.name === SANDBOX_ENVIRONMENT) ?? all[0];
  }

  async select(name: string): Promise<void> {
    await this.state.update(SELECTED_KEY, name);
    this.changed.fire();
  }

  /** The environments file changed: whoever shows the list should read it again. */
  refresh(): void {
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
