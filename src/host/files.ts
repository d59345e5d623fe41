/**
 * Node's file system as core asks for it (CoreFiles, src/core/context.ts): synchronous, bounded,
 * never waiting on a FIFO or a device.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BoundedRead, CoreFiles, FileStat, FolderEntry } from '../core';

/**
 * Opened without blocking, so a FIFO named like a request file returns at once (to be refused
 * by fstat) instead of waiting for a writer; one open, fstat and read per file, since a run
 * reads thousands of them before its first request.
 */
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * The file's bytes, as many as fstat said (as readFileSync reads a regular file). A file of size
 * 0 may be one whose size the system does not know: it is read to its end, never past `maxBytes`.
 */
function readWhole(fd: number, size: number, maxBytes: number): BoundedRead {
  let buffer = Buffer.allocUnsafe(size || 8192);
  let length = 0;
  while (!size || length < size) {
    if (length === buffer.length) {
      if (length > maxBytes) return { refused: 'too-large', size: length };
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  return { bytes: length === buffer.length ? buffer : buffer.subarray(0, length) };
}

const statOf = (s: fs.Stats): FileStat => ({ isFile: s.isFile(), isDirectory: s.isDirectory(), size: s.size, mtimeMs: s.mtimeMs, id: `${s.dev}:${s.ino}` });

export const nodeFiles: CoreFiles = {
  stat(file) {
    try {
      return statOf(fs.statSync(file));
    } catch {
      return undefined;
    }
  },
  exists: (file) => fs.existsSync(file),
  realpath(file) {
    try {
      return fs.realpathSync(file);
    } catch {
      return path.resolve(file);
    }
  },
  list: (folder): FolderEntry[] =>
    fs
      .readdirSync(folder, { withFileTypes: true })
      .map((e) => ({ name: e.name, isFile: e.isFile(), isDirectory: e.isDirectory(), isSymbolicLink: e.isSymbolicLink() })),
  readBounded(file, maxBytes) {
    const fd = fs.openSync(file, READ_FLAGS);
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) return { refused: 'not-a-file' };
      if (stat.size > maxBytes) return { refused: 'too-large', size: stat.size };
      return readWhole(fd, stat.size, maxBytes);
    } finally {
      fs.closeSync(fd);
    }
  },
  writeText: (file, text) => fs.writeFileSync(file, text),
  writeTextAtomically(file, text) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, file);
  },
};
