import * as path from 'node:path';

/** A path as the user would type it from where they stand: relative below cwd, else absolute. */
export function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : file;
}
