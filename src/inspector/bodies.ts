/**
 * A body the inspector keeps, as people see it and as it is written down: its content codings
 * undone (gzip, deflate, br — never beyond the cap, so a small bomb stays small), its charset
 * decoded, and every secret masked in both. The recording file holds the bytes as they went,
 * masked byte for byte, wherever the charset lets a mask stand in place (UTF-8 and ASCII,
 * windows-1252/Latin-1, UTF-16); a body that was compressed, or in another charset, is written
 * as its decoded, masked text in UTF-8 instead, and marked so (masking compressed bytes would
 * hide nothing). `carrier send --out` writes a reply the same way.
 */
import * as zlib from 'node:zlib';
import { decodeText, MASK, type Redactor } from '../core';

export interface OpenedBody {
  /** The payload with its content codings undone, or the bytes as they went when there were none (or they could not be undone). */
  readonly bytes: Buffer;
  /** The codings undone, as the header lists them (`gzip`); empty when none was. */
  readonly undone: readonly string[];
  /** Decoding stopped at the cap: only the start of the payload is here. */
  readonly cut: boolean;
  /** Why the coding could not be undone; the bytes are then as they went. */
  readonly problem?: string;
}

const NONE: readonly string[] = [];

type Inflater = zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress;

/** A stream for one content coding, or undefined for one the inspector does not know. */
function inflaterFor(coding: string, bytes: Buffer): Inflater | undefined {
  // A body cut short (the inspector's cap) is inflated as far as it goes instead of failing.
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip(flush);
  if (coding === 'deflate') {
    // "deflate" is meant to be zlib-wrapped; some servers send the raw stream (RFC 9110 §8.4.1.2).
    const wrapped = bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
    return wrapped ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
  }
  if (coding === 'br') return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  return undefined;
}

/** Inflates `input`, keeping at most `cap` bytes of output; stops the stream there. */
function inflate(stream: Inflater, input: Buffer, cap: number): Promise<{ bytes: Buffer; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (cut: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ bytes: Buffer.concat(parts, size), cut });
    };
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      const room = cap - size;
      if (chunk.length < room) {
        parts.push(chunk);
        size += chunk.length;
        return;
      }
      parts.push(chunk.subarray(0, room));
      size += room;
      stream.destroy();
      settle(true);
    });
    stream.on('end', () => settle(false));
    stream.on('error', (e) => {
      if (settled) return;
      settled = true;
      reject(e);
    });
    stream.end(input);
  });
}

/** Undoes the body's content codings (last applied first), never producing more than `cap` bytes. */
export async function openBody(raw: Buffer, contentEncoding: string | undefined, cap: number): Promise<OpenedBody> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  if (!codings.length || !raw.length) return { bytes: raw, undone: NONE, cut: false };
  let bytes = raw;
  let cut = false;
  for (const coding of [...codings].reverse()) {
    const stream = inflaterFor(coding, bytes);
    if (!stream) return { bytes: raw, undone: NONE, cut: false, problem: `Content-Encoding "${coding}" is not one the inspector can undo` };
    try {
      const out = await inflate(stream, bytes, cap);
      bytes = out.bytes;
      cut ||= out.cut;
    } catch (e) {
      return { bytes: raw, undone: NONE, cut: false, problem: `it does not decode as ${coding}: ${(e as Error).message}` };
    }
  }
  return { bytes, undone: codings, cut };
}

export interface KeptBody {
  /** The decoded text, secrets masked: what the exchange shows. */
  readonly text: string;
  /** What the recording file holds. */
  readonly file: Buffer;
  /** Set when `file` is the decoded, masked text in UTF-8 rather than the bytes as they went: what was undone (`gzip`, `utf-16be`…). */
  readonly decoded?: string;
}

const EMPTY = Buffer.alloc(0);

/** windows-1252 has the bullet at 0x95, and decodeText reads Latin-1 labels as windows-1252. */
const MASK_1252 = Buffer.alloc([...MASK].length, 0x95);

function encodingOf(charset: string): string | undefined {
  try {
    return new TextDecoder(charset).encoding;
  } catch {
    return undefined;
  }
}

/**
 * A body to keep: `opened` is what openBody gave, `text` its decoding (decodeText, same content
 * type), `cut` whether it was kept only in part (a secret's start at its end is masked too),
 * `withFile` whether the recording file is wanted.
 */
export function keepBody(opened: OpenedBody, text: string, charset: string, r: Redactor, cut: boolean, withFile = true): KeptBody {
  const shown = r.text(text, { cut });
  if (opened.undone.length) return { text: shown, file: withFile ? utf8File(shown) : EMPTY, decoded: opened.undone.join(', ') };
  const bytes = opened.bytes;
  const encoding = charset === 'utf-8' || charset === 'utf8' ? 'utf-8' : encodingOf(charset);
  // Without a recording there is no file to make: the masking of bytes is skipped.
  if (!withFile) return { text: shown, file: EMPTY };
  if (encoding === 'utf-8') return { text: shown, file: r.bytes(bytes, { cut }) };
  if (encoding === 'windows-1252')
    return {
      text: shown,
      file: inPlace(
        bytes,
        text,
        r,
        cut,
        1,
        0,
        () => MASK_1252,
        (s) => Buffer.from(s, 'latin1'),
      ),
    };
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const le = encoding === 'utf-16le';
    // TextDecoder drops a byte-order mark that matches its encoding, so characters start after it.
    const bom = bytes.length >= 2 && (le ? bytes[0] === 0xff && bytes[1] === 0xfe : bytes[0] === 0xfe && bytes[1] === 0xff) ? 2 : 0;
    const encode = (s: string) => {
      const b = Buffer.from(s, 'utf16le');
      return le ? b : b.swap16();
    };
    return { text: shown, file: inPlace(bytes, text, r, cut, 2, bom, () => encode(MASK), encode) };
  }
  return { text: shown, file: utf8File(shown), decoded: charset };
}

/** The XML declaration's encoding, at the very start of a document (after a byte-order mark or blanks). */
const DECLARED_ENCODING = /^(\uFEFF?\s*<\?xml\b[^>]{0,200}?\bencoding\s*=\s*)(["'])([^"']{0,40})\2/;

/**
 * Decoded text written as a UTF-8 file. Its XML declaration may name the charset it came in
 * (`encoding="ISO-8859-1"`), which would make an XML reader misread the file's UTF-8 bytes: in the
 * file only, the declaration says UTF-8. What --show and the exchange print is left as it came.
 */
function utf8File(text: string): Buffer {
  const m = DECLARED_ENCODING.exec(text);
  if (!m || /^utf-?8$/i.test(m[3])) return Buffer.from(text, 'utf8');
  return Buffer.from(`${m[1]}${m[2]}UTF-8${m[2]}${text.slice(m[0].length)}`, 'utf8');
}

/**
 * Masks the bytes behind each secret found in the decoded text, for charsets where the i-th
 * character is bytes [offset + i·width, offset + (i+1)·width). The mask and any CDATA boundary
 * kept beside it are written in the same charset.
 */
function inPlace(
  bytes: Buffer,
  text: string,
  r: Redactor,
  cut: boolean,
  width: number,
  offset: number,
  mask: () => Buffer,
  encode: (s: string) => Buffer,
): Buffer {
  const found = r.replacements(text, { cut });
  if (!found.length) return bytes;
  const parts: Buffer[] = [];
  let at = 0;
  for (const [start, end, replacement] of found) {
    const from = Math.min(bytes.length, offset + start * width);
    const to = Math.min(bytes.length, offset + end * width);
    parts.push(bytes.subarray(at, from), mask(), encode(replacement.slice(MASK.length)));
    at = to;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

/** openBody, decodeText and keepBody in one, for a body read whole (`carrier send --out`). */
export async function keptBodyOf(
  raw: Buffer,
  headers: ReadonlyArray<readonly [string, string]>,
  r: Redactor,
  cap: number,
): Promise<KeptBody & { readonly problem?: string }> {
  const header = (name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
  const opened = await openBody(raw, header('content-encoding'), cap);
  const decoded = decodeText(opened.bytes, header('content-type'));
  return { ...keepBody(opened, decoded.text, decoded.charset, r, opened.cut), ...(opened.problem ? { problem: opened.problem } : {}) };
}
