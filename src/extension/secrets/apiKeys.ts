/**
 * API keys in VS Code's SecretStorage (the OS keychain on desktop), one list per environment
 * name, each key bound to the destination it was stored for (core's keyDestination: origin,
 * proxy, TLS verification). This is the only place a key is stored; it is read just before a send
 * and handed to core, never logged, never put in settings, state, history or files.
 */
import * as vscode from 'vscode';
import { type KeyDestination } from '../../core';

const PREFIX = 'carrier.apiKey.';
const FORMAT = 2;

interface StoredKey {
  readonly key: string;
  /** KeyDestination.id; absent for a key stored before keys were bound (a bare string then). */
  readonly to?: string;
  readonly label?: string;
}

/** What is stored for a name, seen from one destination. */
export interface KeyLookup {
  /** The key stored for exactly this destination. */
  readonly key?: string;
  /** Else a key stored for another destination (or before keys were bound): never sent without asking. */
  readonly elsewhere?: { readonly key: string; readonly label: string };
}

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

  private async entries(environment: string): Promise<StoredKey[]> {
    const raw = await this.secrets.get(PREFIX + environment);
    if (raw === undefined) return [];
    try {
      const parsed = JSON.parse(raw) as { v?: number; keys?: StoredKey[] };
      if (parsed && parsed.v === FORMAT && Array.isArray(parsed.keys)) return parsed.keys.filter((k) => typeof k.key === 'string');
    } catch {
      // A bare string: a key stored before keys were bound to a destination.
    }
    return [{ key: raw }];
  }

  async lookup(environment: string, to: KeyDestination): Promise<KeyLookup> {
    const all = await this.entries(environment);
    const exact = all.find((k) => k.to === to.id);
    if (exact) return { key: exact.key };
    const other = all[0];
    return other ? { elsewhere: { key: other.key, label: other.label ?? 'an address not recorded (stored by an earlier version)' } } : {};
  }

  /** Every key stored for a name, whatever its destination: values to hide, never to send. */
  async values(environment: string): Promise<string[]> {
    return (await this.entries(environment)).map((k) => k.key);
  }

  async has(environment: string): Promise<boolean> {
    return (await this.entries(environment)).length > 0;
  }

  async hasFor(environment: string, to: KeyDestination): Promise<boolean> {
    return (await this.lookup(environment, to)).key !== undefined;
  }

  /** Stores `key` for `to`; keys the name has for other destinations stay theirs. */
  async set(environment: string, to: KeyDestination, key: string): Promise<void> {
    const rest = (await this.entries(environment)).filter((k) => k.to !== undefined && k.to !== to.id);
    const keys: StoredKey[] = [{ key, to: to.id, label: to.label }, ...rest];
    await this.secrets.store(PREFIX + environment, JSON.stringify({ v: FORMAT, keys }));
  }

  clear(environment: string): Thenable<void> {
    return this.secrets.delete(PREFIX + environment);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
