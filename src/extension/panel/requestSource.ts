/** The request file an exchange came from, as the panel reads it back. */
import * as vscode from 'vscode';
import type { Exchange } from '../../core';

/**
 * The file's URI. A send records a file's path (core's `source`), an untitled or virtual
 * document its URI; a Windows path's drive letter is not a scheme.
 */
export function sourceUri(exchange: Pick<Exchange, 'source'>): vscode.Uri | undefined {
  const source = exchange.source;
  if (!source) return undefined;
  return /^[a-z][a-z0-9+.-]+:/i.test(source) && !/^[a-z]:[\\/]/i.test(source) ? vscode.Uri.parse(source) : vscode.Uri.file(source);
}
