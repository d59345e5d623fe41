/**
 * API keys, one per environment, in VS Code's SecretStorage (the OS keychain on desktop). This is
 * the only place a key is stored; it is read just before a send and handed to core, never logged,
 * never put in settings, state, history or files.
 */
import * as vscode from 'vscode';

const PREFIX = 'carrier.apiKey.';

export class ApiKeys implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the environment name whose key was set or cleared (here or in another window). */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith(PREFIX)) this.changed.fire(e.key.slice(PREFIX.length));
    });
  }

  get(environment: string): Thenable<string | undefined> {
    return this.secrets.get(PREFIX + environment);
  }

  async has(environment: string): Promise<boolean> {
    return (await this.get(environment)) !== undefined;
  }

  set(environment: string, key: string): Thenable<void> {
    return this.secrets.store(PREFIX + environment, key);
  }

  clear(environment: string): Thenable<void> {
    return this.secrets.delete(PREFIX + environment);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
