/** A decoded document in one line, as the CLI's faces list it (send, inspect --show). Browser-safe. */
import type { DecodedDocument } from './exchange';

export function documentLine(d: DecodedDocument): string {
  const pages = d.pages !== undefined ? `  ${d.pages} page${d.pages === 1 ? '' : 's'}` : '';
  const unread = d.inspected === false ? `  not inspected: ${d.notInspected ?? 'past a budget'}` : '';
  return `${d.name}  ${d.mediaType}  ${d.size} bytes${pages}${unread}  (${d.path})`;
}
