import { FileTextError } from '../core';

/** Why a file named on the command line could not be read, with its line and column when the text itself is at fault. */
export function cannotRead(command: string, shown: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message;
  const where = err instanceof FileTextError && err.line !== undefined ? ` (${shown}:${err.line}:${err.column})` : '';
  return `carrier ${command}: cannot read ${shown}: ${why}${where}`;
}
