/**
 * The exchanges of this workspace, newest first. Summaries live in workspaceState; full
 * exchanges in memory for this session and, trimmed when large, as files under the workspace
 * storage folder so the History view and a restored results panel survive a reload.
 */
import * as vscode from 'vscode';
import { type Exchange } from '../../core';
import { toHistoryEntry, type HistoryEntry } from './historyEntry';
import { trimForStorage, type StoredExchange } from './trimExchange';

const ENTRIES_KEY = 'carrier.history.v1';

export interface LoadedExchange {
  readonly exchange: Exchange;
  readonly trimmed: boolean;
}

export class HistoryStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly live = new Map<string, Exchange>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly storageDir: vscode.Uri | undefined,
    private readonly capacity: () => number,
  ) {}

  entries(): readonly HistoryEntry[] {
    return this.state.get<HistoryEntry[]>(ENTRIES_KEY, []);
  }

  /** Adds an exchange that has already been redacted (and scrubbed). */
  async add(exchange: Exchange): Promise<void> {
    const max = this.capacity();
    if (max === 0) {
      this.live.set(exchange.id, exchange);
      this.pruneLive([exchange.id]);
      return;
    }
    const entries = [toHistoryEntry(exchange), ...this.entries().filter((e) => e.id !== exchange.id)];
    const kept = entries.slice(0, max);
    const dropped = entries.slice(max);
    this.live.set(exchange.id, exchange);
    this.pruneLive(kept.map((e) => e.id));
    await this.state.update(ENTRIES_KEY, kept);
    await this.writeFile(exchange);
    await Promise.all(dropped.map((e) => this.deleteFile(e.id)));
    this.changed.fire();
  }

  async get(id: string): Promise<LoadedExchange | undefined> {
    const live = this.live.get(id);
    if (live) return { exchange: live, trimmed: false };
    const file = this.fileOf(id);
    if (!file) return undefined;
    try {
      const stored = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as StoredExchange;
      return stored.v === 1 ? { exchange: stored.exchange, trimmed: stored.trimmed } : undefined;
    } catch {
      return undefined;
    }
  }

  /** The full exchange only while it is still in memory (the raw body on disk may be cut). */
  getLive(id: string): Exchange | undefined {
    return this.live.get(id);
  }

  async remove(id: string): Promise<void> {
    this.live.delete(id);
    await this.state.update(
      ENTRIES_KEY,
      this.entries().filter((e) => e.id !== id),
    );
    await this.deleteFile(id);
    this.changed.fire();
  }

  async clear(): Promise<void> {
    const ids = this.entries().map((e) => e.id);
    this.live.clear();
    await this.state.update(ENTRIES_KEY, []);
    await Promise.all(ids.map((id) => this.deleteFile(id)));
    this.changed.fire();
  }

  /** Applies a smaller history.size right away instead of at the next send. */
  async enforceCapacity(): Promise<void> {
    const max = this.capacity();
    const entries = this.entries();
    if (entries.length <= max) return;
    await this.state.update(ENTRIES_KEY, entries.slice(0, max));
    this.pruneLive(entries.slice(0, max).map((e) => e.id));
    await Promise.all(entries.slice(max).map((e) => this.deleteFile(e.id)));
    this.changed.fire();
  }

  private pruneLive(keep: readonly string[]): void {
    const keepSet = new Set(keep);
    for (const id of [...this.live.keys()]) if (!keepSet.has(id)) this.live.delete(id);
  }

  private fileOf(id: string): vscode.Uri | undefined {
    // Ids come from core; keep them to a file-name-safe alphabet all the same.
    return this.storageDir && vscode.Uri.joinPath(this.storageDir, 'history', `${id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }

  private async writeFile(exchange: Exchange): Promise<void> {
    const file = this.fileOf(exchange.id);
    if (!file || !this.storageDir) return;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.storageDir, 'history'));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(trimForStorage(exchange))));
  }

  private async deleteFile(id: string): Promise<void> {
    const file = this.fileOf(id);
    if (!file) return;
    try {
      await vscode.workspace.fs.delete(file);
    } catch {
      // Already gone (another window cleared it): nothing to do.
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
