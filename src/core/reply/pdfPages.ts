/**
 * Page count of a PDF without a PDF library: count the page objects (`/Type /Page`, never
 * `/Pages`), one per object number so incremental updates do not count a page twice. Page
 * objects may sit compressed inside object streams (PDF 1.5+); those streams are inflated and
 * scanned too. A native Buffer.indexOf scan takes milliseconds on a 15 MB file; pdf-lib is only
 * asked when the scan finds nothing (an unusual structure), since it parses the whole file.
 *
 * The document is untrusted: every inflate has an output budget (PDF_STREAM_BUDGET per stream,
 * PDF_INFLATE_BUDGET per document, docs/wire.md#budgets) and never makes more than it. A document
 * past a budget is not inspected: no page count, and the reason why. pdf-lib inflates object and
 * cross-reference streams itself, without a limit, so it is asked only when every stream it could
 * inflate on loading was inflated here within the budgets first.
 */
import { inflateSync, constants } from 'node:zlib';

const MiB = 1024 * 1024;
/** Decoded bytes one object stream may inflate to: a page object is a few hundred bytes, so this holds tens of thousands of pages. */
export const PDF_STREAM_BUDGET = 16 * MiB;
/** Decoded bytes all the streams of one document may inflate to together, for its page count. */
export const PDF_INFLATE_BUDGET = 32 * MiB;

/** What the page count found: `pages` (absent when nobody could tell), or why the document was not inspected. */
export interface PageCount {
  readonly pages?: number;
  readonly notInspected?: string;
}

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

/** Thrown when an inflate would pass a budget; carries the reason the document is not inspected. */
class OverBudget extends Error {}

const mib = (n: number) => `${n / MiB} MiB`;

/** Inflates a document's streams, stopping each at what is left of the budgets. */
class Inflater {
  private spent = 0;

  inflate(data: Buffer): Buffer | undefined {
    const left = PDF_INFLATE_BUDGET - this.spent;
    const room = Math.min(PDF_STREAM_BUDGET, left);
    const reason =
      room < PDF_STREAM_BUDGET
        ? `its compressed streams inflate to more than ${mib(PDF_INFLATE_BUDGET)} in all (the page count's budget per document)`
        : `a compressed stream inflates to more than ${mib(PDF_STREAM_BUDGET)} (the page count's budget per stream)`;
    if (room <= 0) throw new OverBudget(reason);
    let out: Buffer;
    try {
      // Sync flush: a stream cut short still yields what it holds. maxOutputLength stops zlib at the budget.
      out = inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: room });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new OverBudget(reason);
      return undefined;
    }
    this.spent += out.length;
    return out;
  }
}

interface StreamAt {
  /** The object's text from its `obj` keyword to the `stream` keyword, as latin1. */
  readonly dict: string;
  /** Where the `stream` keyword is. */
  readonly keyword: number;
  readonly data: Buffer;
}

/** The stream's dictionary and bytes, for the `stream` keyword at `kw`; undefined when it has none. */
function streamAt(buf: Buffer, kw: number): StreamAt | undefined {
  const objAt = buf.lastIndexOf('obj', kw);
  const dict = buf.toString('latin1', objAt >= 0 && kw - objAt < 65536 ? objAt : Math.max(0, kw - 4096), kw);
  let start = kw + 6;
  if (buf[start] === 0x0d) start++;
  if (buf[start] === 0x0a) start++;
  const direct = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
  let end = direct ? start + Number(direct[1]) : buf.indexOf('endstream', start);
  if (end < 0 || end > buf.length) end = buf.indexOf('endstream', start);
  if (end <= start) return undefined;
  return { dict, keyword: kw, data: buf.subarray(start, end) };
}

/** Page objects inside compressed object streams, as "stream#index" keys mapped to object numbers. */
function pagesInObjectStreams(buf: Buffer, pages: Set<string>, inflater: Inflater): void {
  for (const at of typeOffsets(buf, 'ObjStm')) {
    const streamKw = buf.indexOf('stream', at);
    if (streamKw < 0) continue;
    const stream = streamAt(buf, streamKw);
    if (!stream) continue;
    const dict = stream.dict;
    if (!/\/FlateDecode/.test(dict) || /\/DecodeParms/.test(dict)) continue;
    const data = inflater.inflate(stream.data);
    if (!data) continue;
    const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1] ?? NaN);
    const n = Number(/\/N\s+(\d+)/.exec(dict)?.[1] ?? NaN);
    // The header lists "objnum offset" pairs; offsets are relative to /First.
    const header = Number.isFinite(first) ? data.toString('latin1', 0, first).trim().split(/\s+/).map(Number) : [];
    const table: { num: number; off: number }[] = [];
    for (let i = 0; i + 1 < header.length && table.length < (Number.isFinite(n) ? n : Infinity); i += 2)
      table.push({ num: header[i], off: first + header[i + 1] });
    for (const off of typeOffsets(data, 'Page')) {
      let num: number | undefined;
      for (const entry of table) if (entry.off <= off) num = entry.num;
      pages.add(num !== undefined ? `obj${num}` : `objstm${at}@${off}`);
    }
  }
}

/** Filters pdf-lib decodes that can make more bytes than they read (full names and inline abbreviations). */
const EXPANDING = /\/(?:LZWDecode|LZW|RunLengthDecode|RL)(?![A-Za-z0-9])/;
const FLATE = /\/(?:FlateDecode|Fl)(?![A-Za-z0-9])/;

/**
 * Whether pdf-lib may load `buf`: every stream it could inflate on loading (object and
 * cross-reference streams — any stream whose /Type is not plainly another, or whose names are
 * spelled with # escapes) inflates within the budgets here. Throws OverBudget, or returns why not.
 */
function refusalForPdfLib(buf: Buffer, inflater: Inflater): string | undefined {
  for (let kw = buf.indexOf('stream'); kw >= 0; kw = buf.indexOf('stream', kw + 6)) {
    if (kw >= 3 && buf.toString('latin1', kw - 3, kw) === 'end') continue;
    const stream = streamAt(buf, kw);
    if (!stream || (!/\/Filter/.test(stream.dict) && !stream.dict.includes('#'))) continue;
    const dict = stream.dict;
    const escaped = dict.includes('#');
    const types = [...dict.matchAll(/\/Type\s*(\/[^\s/<>[\]()]*)?/g)].map((m) => m[1]);
    if (!escaped && (types.length === 0 || types.every((t) => t !== undefined && t !== '/ObjStm' && t !== '/XRef'))) continue;
    if (escaped) return 'a stream dictionary spells its names with # escapes, which the page count does not decode within a budget';
    if (EXPANDING.test(dict)) return 'an object stream uses an LZW or run-length filter, which the page count does not decode within a budget';
    if (!FLATE.test(dict)) continue;
    if (/\/Filter\s*\[[^\]]*\/[^\]]*\/[^\]]*\]/.test(dict)) return 'an object stream chains filters, which the page count does not decode within a budget';
    inflater.inflate(stream.data);
  }
  return undefined;
}

/** The page count from a byte scan (0 when no page object was found), within the budgets. */
function scan(buf: Buffer, inflater: Inflater): number {
  const pages = new Set<string>();
  for (const at of typeOffsets(buf, 'Page')) {
    const num = objectNumberBefore(buf, at);
    pages.add(num !== undefined ? `obj${num}` : `at${at}`);
  }
  pagesInObjectStreams(buf, pages, inflater);
  return pages.size;
}

/** The page count from a byte scan; 0 when no page object was found or a stream passed its budget. */
export function scanPdfPages(buf: Buffer): number {
  try {
    return scan(buf, new Inflater());
  } catch (e) {
    if (e instanceof OverBudget) return 0;
    throw e;
  }
}

/** The page count, or why the document was not inspected; neither when nothing could tell. */
export async function inspectPdfPages(buf: Buffer): Promise<PageCount> {
  const inflater = new Inflater();
  try {
    const scanned = scan(buf, inflater);
    if (scanned > 0) return { pages: scanned };
    const refusal = refusalForPdfLib(buf, inflater);
    if (refusal) return { notInspected: refusal };
  } catch (e) {
    if (e instanceof OverBudget) return { notInspected: e.message };
    throw e;
  }
  try {
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(buf, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    return { pages: doc.getPageCount() };
  } catch {
    return {};
  }
}

/** The page count, or undefined when neither the scan nor pdf-lib can tell (or the document is past a budget). */
export async function countPdfPages(buf: Buffer): Promise<number | undefined> {
  return (await inspectPdfPages(buf)).pages;
}
