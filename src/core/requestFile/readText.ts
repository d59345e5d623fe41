/**
 * The text of a file a repository gives us (request files, collection.json, environments):
 * bounded in size, and strict UTF-8 — a byte that is not UTF-8 is an error at its position,
 * never silently turned into U+FFFD and sent as something the file does not say.
 */
import type { CoreContext } from '../context';

/** A request file is a few kilobytes; a thousand times that is a mistake or a trap. */
export const MAX_TEXT_FILE_BYTES = 4 * 1024 * 1024;

export class FileTextError extends Error {
  /** Set when the file was refused for its size: how many bytes it has. */
  size?: number;
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'FileTextError';
  }
}

function tooLarge(size: number, maxBytes: number): FileTextError {
  const e = new FileTextError(`${size} bytes; such a file may be at most ${maxBytes} bytes`);
  e.size = size;
  return e;
}

const strict = new TextDecoder('utf-8', { fatal: true });

/** The file's text, read through the context's file system (a FIFO or device is refused, never waited on). */
export function readTextFile(context: Pick<CoreContext, 'files'>, file: string, maxBytes = MAX_TEXT_FILE_BYTES): string {
  const read = context.files.readBounded(file, maxBytes);
  if (read.refused === 'not-a-file') throw new FileTextError('not a regular file (a FIFO, device or socket is never read)');
  if (read.refused === 'too-large') throw tooLarge(read.size, maxBytes);
  return decodeUtf8(read.bytes);
}

export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    const at = firstInvalidByte(bytes);
    const { line, column } = lineColumnOf(bytes, at);
    throw new FileTextError(`invalid UTF-8 at byte ${at} (line ${line}, column ${column}): save the file as UTF-8`, line, column);
  }
}

/** The offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
export function firstInvalidByte(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    let n: number;
    let min: number;
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      min = 0x10000;
    } else return i;
    if (i + n >= b.length) return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return b.length;
}

function lineColumnOf(b: Uint8Array, at: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < at; i++)
    if (b[i] === 0x0a) {
      line++;
      start = i + 1;
    }
  // Columns count characters, as editors do: decode the line's start, which is valid up to `at`.
  return { line, column: new TextDecoder().decode(b.subarray(start, at)).length + 1 };
}
