/**
 * A finding in one line, as every face writes it: the contract code when it has one, the reply
 * path (once: reader messages often start with it already), the message. Browser-safe.
 */
import type { Finding } from './exchange';

/** The path to name before the message, or '' (none, the whole reply `$`, or already said). */
export function findingPath(f: Pick<Finding, 'path' | 'message'>): string {
  return f.path && f.path !== '$' && !f.message.startsWith(f.path) ? f.path : '';
}

export function findingText(f: Finding): string {
  const at = findingPath(f);
  return `${f.kind === 'contract' && f.code ? `[${f.code}] ` : ''}${at ? `${at}: ` : ''}${f.message}`;
}

/** With its severity first, padded, for a terminal's list of findings. */
export function findingLine(f: Finding): string {
  return `${f.severity.padEnd(7)} ${findingText(f)}`;
}
