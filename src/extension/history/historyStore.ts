/**
 * The exchanges of this workspace, newest first. Summaries live in workspaceState; full
 * exchanges in memory for this session and, trimmed when large, as files under the workspace
 * storage folder so the History view and a restored results panel survive a reload.
 *
 * A large exchange (a 45 MB trace, its parsed tree several times that) is not held whole: memory
 * keeps what disk keeps (trimForStorage), and its whole reply body goes to a file of its own beside
 * it, so Open Full Body still opens every byte and the extension host gives the memory back.
 */
import * as vscode from 'vscode';
import { type Exchange } from '../../core';
import { toHistoryEntry, type HistoryEntry } from './historyEntry';
import { isLarge, trimForStorage, type StoredExchange } from './trimExchange';

const ENTRIES_KEY = 'carrier.history.v1';

export interface LoadedExchange {
  readonly exchange: Exchange;
  readonly trimmed: boolean;
}

export class HistoryStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly live = new Map<string, Exchange>();
  /** Live entries held as disk holds them (large ones): their whole body is in their `.body` file. */
  private readonly trimmedLive = new Set<string>();

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
    const large = isLarge(exchange);
    // A large one is kept as disk keeps it; its whole body, in a file of its own (fullBody).
    const kept = large ? trimForStorage(exchange) : undefined;
    if (large && exchange.reply) await this.writeBody(exchange.id, exchange.reply.bodyText);
    this.live.set(exchange.id, kept?.exchange ?? exchange);
    if (kept?.trimmed) this.trimmedLive.add(exchange.id);
    if (max === 0) {
      this.pruneLive([exchange.id]);
      return;
    }
    const entries = [toHistoryEntry(exchange), ...this.entries().filter((e) => e.id !== exchange.id)];
    const keptEntries = entries.slice(0, max);
    const dropped = entries.slice(max);
    this.pruneLive(keptEntries.map((e) => e.id));
    await this.state.update(ENTRIES_KEY, keptEntries);
    await this.writeFile(kept ?? trimForStorage(exchange));
    await Promise.all(dropped.map((e) => this.deleteFile(e.id)));
    this.changed.fire();
  }

  /**
   * The reply body: whole from memory, or from the file a large one was written to; else what
   * history kept of it (`whole` false when that was cut). Undefined when there is none.
   */
  async fullBody(id: string): Promise<{ readonly text: string; readonly whole: boolean } | undefined> {
    if (!this.trimmedLive.has(id)) {
      const live = this.live.get(id);
      if (live?.reply) return { text: live.reply.bodyText, whole: true };
    }
    const file = this.bodyFileOf(id);
    if (file) {
      try {
        return { text: new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), whole: true };
      } catch {
        // Not written (a small one) or already removed: what history kept is all there is.
      }
    }
    const kept = await this.get(id);
    return kept?.exchange.reply && { text: kept.exchange.reply.bodyText, whole: !kept.trimmed };
  }

  async get(id: string): Promise<LoadedExchange | undefined> {
    const live = this.live.get(id);
    if (live) return { exchange: live, trimmed: this.trimmedLive.has(id) };
    const file = this.fileOf(id);
    if (!file) return undefined;
    try {
      const stored = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as StoredExchange;
      return stored.v === 1 ? { exchange: stored.exchange, trimmed: stored.trimmed } : undefined;
    } catch {
      return undefined;
    }
  }

  async remove(id: string): Promise<void> {
    this.forgetLive(id);
    await this.state.update(
      ENTRIES_KEY,
      this.entries().filter((e) => e.id !== id),
    );
    await this.deleteFile(id);
    this.changed.fire();
  }

  async clear(): Promise<void> {
    const ids = this.entries().map((e) => e.id);
    for (const id of [...this.live.keys()]) this.forgetLive(id);
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
    for (const id of [...this.live.keys()]) if (!keepSet.has(id)) this.forgetLive(id);
  }

  private forgetLive(id: string): void {
    this.live.delete(id);
    this.trimmedLive.delete(id);
  }

  private fileOf(id: string): vscode.Uri | undefined {
    return this.storageDir && vscode.Uri.joinPath(this.storageDir, 'history', `${safeId(id)}.json`);
  }

  /** Where a large exchange's whole reply body is kept (it is redacted like the rest). */
  private bodyFileOf(id: string): vscode.Uri | undefined {
    return this.storageDir && vscode.Uri.joinPath(this.storageDir, 'history', `${safeId(id)}.body`);
  }

  private async writeFile(stored: StoredExchange): Promise<void> {
    const file = this.fileOf(stored.exchange.id);
    if (!file || !this.storageDir) return;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.storageDir, 'history'));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(stored)));
  }

  private async writeBody(id: string, body: string): Promise<void> {
    const file = this.bodyFileOf(id);
    if (!file || !this.storageDir) return;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.storageDir, 'history'));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(body));
  }

  private async deleteFile(id: string): Promise<void> {
    for (const file of [this.fileOf(id), this.bodyFileOf(id)]) {
      if (!file) continue;
      try {
        await vscode.workspace.fs.delete(file);
      } catch {
        // Already gone (another window cleared it), or never written: nothing to do.
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Ids come from core; keep them to a file-name-safe alphabet all the same. */
function safeId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_');
}
