/** Findings as the CLI and other plain-text tools print them: 1-based `file:line:col: severity: message`. */
import type { Finding, Position } from '../requestFile/types';

/** 1-based line and column (VS Code positions are 0-based). */
export function oneBased(position: Position): { line: number; column: number } {
  return { line: position.line + 1, column: position.character + 1 };
}

export function formatFinding(file: string, finding: Finding): string {
  const { line, column } = oneBased(finding.range.start);
  return `${file}:${line}:${column}: ${finding.severity}: ${finding.message}`;
}
