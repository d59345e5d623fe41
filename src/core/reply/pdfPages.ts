/**
 * Page count of a PDF without a PDF library: count the page objects (`/Type /Page`, never
 * `/Pages`), one per object number so incremental updates do not count a page twice. Page
 * objects may sit compressed inside object streams (PDF 1.5+); those streams are inflated and
 * scanned too. A native Buffer.indexOf scan takes milliseconds on a 15 MB file; pdf-lib is only
 * asked when the scan finds nothing (an unusual structure), since it parses the whole file.
 */
import { inflateSync, constants } from 'node:zlib';

const WS = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

function skipWs(buf: Buffer, i: number): number {
  while (i < buf.length && WS.has(buf[i])) i++;
  return i;
}

/** True when `buf` at `i` holds the name `/Type` followed by the name `name` (and nothing longer). */
function typeIs(buf: Buffer, i: number, name: string): boolean {
  let j = skipWs(buf, i + 5);
  if (buf[j] !== 0x2f || buf.toString('latin1', j + 1, j + 1 + name.length) !== name) return false;
  j += 1 + name.length;
  return j >= buf.length || WS.has(buf[j]) || DELIM.has(buf[j]);
}

/** Offsets of every `/Type /<name>` in `buf`. */
function typeOffsets(buf: Buffer, name: string): number[] {
  const out: number[] = [];
  for (let i = buf.indexOf('/Type'); i >= 0; i = buf.indexOf('/Type', i + 5)) if (typeIs(buf, i, name)) out.push(i);
  return out;
}

/** The object number of the `N G obj` that most recently precedes `offset`. */
function objectNumberBefore(buf: Buffer, offset: number): number | undefined {
  const from = Math.max(0, offset - 4096);
  const at = buf.lastIndexOf('obj', offset);
  if (at < from) return undefined;
  const m = /(\d+)\s+(\d+)\s+$/.exec(buf.toString('latin1', Math.max(0, at - 24), at));
  return m ? Number(m[1]) : undefined;
}

function inflate(data: Buffer): Buffer | undefined {
  try {
    // Sync flush: a stream cut short still yields what it holds.
    return inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return undefined;
  }
}

/** Page objects inside compressed object streams, as "stream#index" keys mapped to object numbers. */
function pagesInObjectStreams(buf: Buffer, pages: Set<string>): void {
  for (const at of typeOffsets(buf, 'ObjStm')) {
    const dictStart = buf.lastIndexOf('<<', at);
    const streamKw = buf.indexOf('stream', at);
    if (dictStart < 0 || streamKw < 0) continue;
    const dict = buf.toString('latin1', dictStart, streamKw);
    if (!/\/FlateDecode/.test(dict) || /\/DecodeParms/.test(dict)) continue;
    let start = streamKw + 6;
    if (buf[start] === 0x0d) start++;
    if (buf[start] === 0x0a) start++;
    const direct = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    const end = direct ? start + Number(direct[1]) : buf.indexOf('endstream', start);
    if (end <= start || end > buf.length) continue;
    const data = inflate(buf.subarray(start, end));
    if (!data) continue;
    const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1] ?? NaN);
    const n = Number(/\/N\s+(\d+)/.exec(dict)?.[1] ?? NaN);
    // The header lists "objnum offset" pairs; offsets are relative to /First.
    const header = Number.isFinite(first) ? data.toString('latin1', 0, first).trim().split(/\s+/).map(Number) : [];
    const table: { num: number; off: number }[] = [];
    for (let i = 0; i + 1 < header.length && table.length < (Number.isFinite(n) ? n : Infinity); i += 2) table.push({ num: header[i], off: first + header[i + 1] });
    for (const off of typeOffsets(data, 'Page')) {
      let num: number | undefined;
      for (const entry of table) if (entry.off <= off) num = entry.num;
      pages.add(num !== undefined ? `obj${num}` : `objstm${at}@${off}`);
    }
  }
}

/** The page count from a byte scan; 0 when no page object was found. */
export function scanPdfPages(buf: Buffer): number {
  const pages = new Set<string>();
  for (const at of typeOffsets(buf, 'Page')) {
    const num = objectNumberBefore(buf, at);
    pages.add(num !== undefined ? `obj${num}` : `at${at}`);
  }
  pagesInObjectStreams(buf, pages);
  return pages.size;
}

/** The page count, or undefined when neither the scan nor pdf-lib can tell. */
export async function countPdfPages(buf: Buffer): Promise<number | undefined> {
  const scanned = scanPdfPages(buf);
  if (scanned > 0) return scanned;
  try {
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(buf, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    return doc.getPageCount();
  } catch {
    return undefined;
  }
}
