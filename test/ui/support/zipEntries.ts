/**
 * The names and sizes in a zip file (a VSIX is one), read from its central directory. Enough to
 * check what a package holds without a zip library.
 */
import * as fs from 'node:fs';

export interface ZipEntry {
  readonly name: string;
  readonly size: number;
}

export function zipEntries(file: string): ZipEntry[] {
  const zip = fs.readFileSync(file);
  // The end-of-central-directory record sits in the last 64 KiB + 22 bytes (its comment is at most 64 KiB).
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]), zip.length - 22);
  if (eocd < 0 || eocd < zip.length - 22 - 0xffff) throw new Error(`${file} is not a zip file`);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${i}`);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), size });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
