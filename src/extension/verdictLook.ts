/**
 * How a verdict of core (src/core/verdict.ts) looks in the side bar's trees: one icon and one
 * phrase per kind, shared by History and the Traffic Inspector so they never disagree.
 */
import * as vscode from 'vscode';
import type { VerdictKind } from '../core';
import { VERDICT_PHRASES } from './coreLight';

const ICONS: Record<VerdictKind, vscode.ThemeIcon> = {
  success: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  'in-body-error': new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  fault: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  'http-error': new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  unreadable: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  'contract-error': new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  'transport-error': new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('testing.iconErrored')),
  cancelled: new vscode.ThemeIcon('circle-slash'),
  'not-read': new vscode.ThemeIcon('question'),
};

export function verdictIcon(kind: VerdictKind): vscode.ThemeIcon {
  return ICONS[kind];
}

export function verdictPhrase(kind: VerdictKind): string {
  return VERDICT_PHRASES[kind];
}
