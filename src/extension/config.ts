/** Typed reads of the `carrier.*` settings (package.json declares their defaults and bounds). */
import * as vscode from 'vscode';
import type { Binding } from '../core';

export interface CarrierSettings {
  readonly timeoutMs: number;
  readonly maxReplyBytes: number;
  readonly defaultBinding: Binding;
  readonly codeLensEnabled: boolean;
  readonly historySize: number;
}

const BINDINGS: readonly Binding[] = ['soap11', 'soap12', 'get', 'post'];

export function readSettings(scope?: vscode.ConfigurationScope): CarrierSettings {
  const c = vscode.workspace.getConfiguration('carrier', scope);
  const binding = c.get<string>('defaultBinding', 'soap11');
  return {
    // Settings can be hand-edited to anything: clamp rather than trust them.
    timeoutMs: clamp(c.get<number>('timeoutMs', 30_000), 1_000, 3_600_000),
    maxReplyBytes: clamp(c.get<number>('maxReplyBytes', 67_108_864), 1_024, 2 ** 31),
    defaultBinding: (BINDINGS as readonly string[]).includes(binding) ? (binding as Binding) : 'soap11',
    codeLensEnabled: c.get<boolean>('codeLens.enabled', true),
    historySize: Math.floor(clamp(c.get<number>('history.size', 50), 0, 1_000)),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
}
