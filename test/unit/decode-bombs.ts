/**
 * Decompression bombs for the decode-budget tests (test/unit/decode-budgets.test.ts,
 * test/browser/documents-budget.test.ts): deflate blocks of one MiB of zeros, flushed so copies
 * chain into one stream, so a gigabyte bomb is built from a few MB and never held inflated.
 */
import { constants, crc32, createInflate, deflateRawSync } from 'node:zlib';

const MiB = 1024 * 1024;

/** One MiB of zeros as raw deflate blocks ending on a full flush: byte-aligned, so copies chain into one stream. */
const ZERO_BLOCKS = deflateRawSync(Buffer.alloc(MiB), { finishFlush: constants.Z_FULL_FLUSH });
/** The last, empty block of a raw deflate stream. */
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));

function zeroBlocks(mib: number): Buffer[] {
  return [...Array.from({ length: mib }, () => ZERO_BLOCKS), FINAL_BLOCK];
}

/** A zlib stream (what a PDF's /FlateDecode holds) that inflates to `mib` MiB of zeros; its Adler-32 is right. */
export function zlibZeros(mib: number): Buffer {
  const n = mib * MiB;
  const adler = Buffer.alloc(4);
  // Adler-32 of n zero bytes: A stays 1, B adds 1 per byte.
  adler.writeUInt32BE((((n % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0x9c]), ...zeroBlocks(mib), adler]);
}

/** A gzip member that inflates to `mib` MiB of zeros, with its CRC-32 and size right. */
export function gzipZeros(mib: number): Buffer {
  let crc = 0;
  const zero = Buffer.alloc(MiB);
  for (let i = 0; i < mib; i++) crc = crc32(zero, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((mib * MiB) % 2 ** 32, 4);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]), ...zeroBlocks(mib), trailer]);
}

/** Inflates `bytes` as a stream, keeping nothing: how many bytes it makes. */
export function inflatedSize(bytes: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    let n = 0;
    const z = createInflate();
    z.on('data', (c: Buffer) => {
      n += c.length;
    });
    z.on('end', () => resolve(n));
    z.on('error', reject);
    z.end(bytes);
  });
}

/** A PDF whose only page sits in object streams, one per entry of `streams` (each a zlib stream). */
export function pdfWithObjectStreams(streams: Buffer[], filter = '/FlateDecode'): Buffer {
  const parts: Buffer[] = [
    Buffer.from(
      '%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
      'latin1',
    ),
  ];
  streams.forEach((data, i) => {
    parts.push(
      Buffer.from(`${10 + i} 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter ${filter} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    );
  });
  parts.push(Buffer.from('trailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'));
  return Buffer.concat(parts);
}
