/** The runner's 1-based file locations as VS Code ranges, and its failures as test messages. */
import * as vscode from 'vscode';
import type { RunFailure, SourceLocation } from '../core-adapter';

export function toRange(loc: SourceLocation): vscode.Range {
  return new vscode.Range(loc.line - 1, loc.column - 1, loc.endLine - 1, loc.endColumn - 1);
}

export function toLocation(loc: SourceLocation): vscode.Location {
  return new vscode.Location(vscode.Uri.file(loc.file), toRange(loc));
}

/**
 * One failure at the line of the expectation that did not hold (else the request's own line),
 * as a diff when the runner knows both sides, so the peek view shows expected against actual.
 */
export function testMessage(failure: RunFailure, fallback: SourceLocation, redact: (text: string) => string): vscode.TestMessage {
  const text = redact(failure.message);
  const message =
    failure.expected !== undefined && failure.actual !== undefined
      ? vscode.TestMessage.diff(text, redact(failure.expected), redact(failure.actual))
      : new vscode.TestMessage(text);
  message.location = toLocation(failure.location ?? fallback);
  return message;
}
