/**
 * The reply reader of the lean dispatcher (leanDispatcher.ts): http-parser-js framing the body,
 * the status line, header and trailer lines and chunk framing read as strictly as undici's
 * llhttp reads them, and failed with undici's errors.
 */
import { HTTPParser } from 'http-parser-js';

// Header lines decoded byte for byte (http-parser-js decodes them as 'ascii' by default, which
// clears the high bit of each byte): a header's text is what undici's Buffer gives as latin1.
HTTPParser.encoding = 'latin1';

export interface ParserInfo {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly headers: string[];
  readonly shouldKeepAlive: boolean;
  readonly upgrade: boolean;
}

/** undici's most header bytes (client.js). */
export const MAX_HEADER_SIZE = 16 * 1024;

/** An error as undici makes it: a name, a message and the `code` classifyError reads (none for a parse error, as undici's). */
export class LeanHttpError extends Error {
  constructor(
    name: string,
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = name;
  }
}

/** A header name (an HTTP token) and the bytes a header value may hold, as undici checks them. */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
export const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** The same checks by byte, for the head read in one pass (StrictParser.readHead): 1 where a byte may stand. */
const TOKEN_BYTE = byteTable((c) => TOKEN.test(c));
const VALUE_BYTE = byteTable((c) => !BAD_VALUE.test(c));
function byteTable(allowed: (c: string) => boolean): Uint8Array {
  const table = new Uint8Array(256);
  for (let b = 0; b < 256; b++) table[b] = allowed(String.fromCharCode(b)) ? 1 : 0;
  return table;
}

/**
 * A header name in lower case: the names most servers send, spelled as they spell them, give a
 * constant (no string made, and a key an object finds at once: headerObject in leanDispatcher.ts
 * keys by it); any other is lower-cased.
 */
export function lowerName(name: string): string {
  switch (name) {
    case 'Content-Type':
      return 'content-type';
    case 'Content-Length':
      return 'content-length';
    case 'Transfer-Encoding':
      return 'transfer-encoding';
    case 'Connection':
      return 'connection';
    case 'Keep-Alive':
      return 'keep-alive';
    case 'Date':
      return 'date';
    case 'Server':
      return 'server';
    case 'Cache-Control':
      return 'cache-control';
    case 'Content-Encoding':
      return 'content-encoding';
    default:
      return name.toLowerCase();
  }
}

export const overflowError = () => new LeanHttpError('HeadersOverflowError', 'Headers Overflow Error', 'UND_ERR_HEADERS_OVERFLOW');

/** The parts of http-parser-js's parser the strict one below uses or replaces (its own typings keep them private). */
interface ParserCore {
  chunk: Buffer | null;
  offset: number;
  end: number;
  line: string;
  state: string;
  info: ParserInfo & { versionMajor: number; versionMinor: number; statusCode: number; statusMessage: string; upgrade: boolean; shouldKeepAlive: boolean };
  trailers: string[];
  isChunked: boolean;
  body_bytes: number | null;
  connection: string;
  hadError: boolean;
  isUserCall: boolean;
  initialize(type: string): void;
  execute(chunk: Buffer): number | Error;
  finish(): void | Error;
  userCall(): <T>(ret: T) => T;
  nextRequest(): void;
  shouldKeepAlive(): boolean;
  [HTTPParser.kOnHeaders]: (trailers: string[], url: string) => void;
  [HTTPParser.kOnHeadersComplete]: (info: ParserInfo) => number;
  [HTTPParser.kOnBody]: (chunk: Buffer, offset: number, length: number) => void;
  [HTTPParser.kOnMessageComplete]: () => void;
}
const ParserBase = HTTPParser as unknown as new (type: string) => ParserCore;

const STATUS_LINE = /^(?:HTTP|RTSP|ICE)\/([0-9])\.([0-9]) ([0-9]{3})(?: ([^\r]*))?\r$/;
const CHUNK_HEAD = /^([0-9a-fA-F]+)(;[^\r]*)?\r$/;
const HEX = /^[0-9a-fA-F]*/;
const EXT_QUOTED = /^"(?:[\t\x20\x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t\x20-\x7e\x80-\xff])*"$/;
/** The largest Content-Length llhttp holds (a uint64). */
const MAX_LENGTH = '18446744073709551615';

/**
 * http-parser-js reads replies leniently (a bad chunk size taken as the last chunk, a header line
 * without a colon dropped, a bare LF, `gzip, chunked` not chunked, a 204's Content-Length read as
 * a body…), where undici's llhttp refuses them. This one reads the status line, header lines and
 * chunk framing as llhttp does (strict, as undici runs it) and fails them with undici's error: a
 * parse error says llhttp's reason, or is the Content-Length mismatch when undici's own check
 * comes first (client-h1.js createError). Bodies are still framed by http-parser-js.
 */
export class StrictParser extends ParserBase {
  /** The Content-Length values as undici adds them up (client-h1.js onHeaderValue), and the body bytes read. */
  contentLength = '';
  bytesRead = 0;
  /** Header name and value bytes of this message, as undici counts them against its 16 KiB. */
  private headerBytes = 0;
  private hasLength = false;
  private hasEncoding = false;
  private hasUpgrade = false;
  private firstHeader = true;
  private sawCR = false;
  /** Where each header line of the head read in one pass has its colon, value and CR (readHead): up to 64 lines. */
  private readonly marks = new Int32Array(3 * 64);
  /** What userCall hands back, made once: http-parser-js makes a closure for each call (three a reply). */
  private readonly userReturned = <T>(ret: T): T => {
    this.isUserCall = false;
    return ret;
  };

  constructor() {
    super(HTTPParser.RESPONSE);
  }

  override initialize(type: string): void {
    super.initialize(type);
    this.contentLength = '';
    this.bytesRead = 0;
    this.headerBytes = 0;
    this.hasLength = this.hasEncoding = this.hasUpgrade = this.sawCR = false;
    this.firstHeader = true;
  }

  /** As http-parser-js's: a callback's own throw goes out of execute(), not returned as the reply's fault. */
  override userCall(): <T>(ret: T) => T {
    this.isUserCall = true;
    return this.userReturned;
  }

  /** undici's error for a reply llhttp refuses: the Content-Length mismatch when one was announced and not read. */
  private refuse(reason: string): LeanHttpError {
    if (this.contentLength && this.bytesRead !== parseInt(this.contentLength, 10))
      return new LeanHttpError(
        'ResponseContentLengthMismatchError',
        'Response body length does not match content-length header',
        'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
      );
    return new LeanHttpError('HTTPParserError', `Response does not match the HTTP/1.1 protocol (${reason})`, undefined);
  }

  /** A line with its CR kept (http-parser-js drops it): a bare LF or CR is refused, not read past. */
  consumeLine(): string | undefined {
    const { end, chunk } = this;
    const at = chunk!.indexOf(0x0a, this.offset);
    if (at >= 0 && at < end) {
      const line = this.line + chunk!.toString('latin1', this.offset, at);
      this.line = '';
      this.offset = at + 1;
      return line;
    }
    this.line += chunk!.toString('latin1', this.offset, end);
    this.offset = end;
    const state = this.state;
    // llhttp counts header bytes as they come: a line that never ends overflows too.
    if ((state === 'HEADER' || state === 'BODY_CHUNKTRAILERS') && this.headerBytes + this.line.length >= MAX_HEADER_SIZE) throw overflowError();
    // Not a status line from its first bytes: refused at once, as llhttp does, not after a timeout.
    if (
      state === 'RESPONSE_LINE' &&
      this.line !== '\r' &&
      !/^(?:H(?:T(?:T(?:P\/?)?)?)?|R(?:T(?:S(?:P\/?)?)?)?|I(?:C(?:E\/?)?)?)$|^(?:HTTP|RTSP|ICE)\//.test(this.line)
    )
      throw this.refuse('Expected HTTP/, RTSP/ or ICE/');
    return undefined;
  }

  RESPONSE_LINE(): void {
    if (this.line === '' && this.readHead()) return;
    const line = this.consumeLine();
    // llhttp skips empty lines before a message.
    if (line === undefined || line === '' || line === '\r') return;
    const m = STATUS_LINE.exec(line);
    const version = m ? `${m[1]}.${m[2]}` : '';
    if (!m || (version !== '1.1' && version !== '1.0' && version !== '0.9' && version !== '2.0')) throw this.refuse(statusLineFault(line));
    const info = this.info;
    info.versionMajor = +m[1];
    info.versionMinor = +m[2];
    info.statusCode = +m[3];
    info.statusMessage = reasonText(m[4] ?? '');
    this.state = 'HEADER';
  }

  HEADER(): void {
    const line = this.consumeLine();
    if (line === undefined) return;
    if (line !== '\r') {
      this.header(line, this.info.headers, this.firstHeader);
      this.firstHeader = false;
      return;
    }
    this.headRead();
  }

  /**
   * The common reply's head, read in one pass over its bytes: all of it in this chunk, an HTTP/1.1
   * or 1.0 status line, every header line `name:value` with a token for a name, only bytes llhttp
   * takes in the value, and CRLF line ends, at most 64 lines and under the 16 KiB. Anything else (a
   * head split across chunks, a bare LF or CR, an obs-fold, a byte llhttp refuses) is left to the
   * line-by-line reading, which fails it with llhttp's reason: nothing of the reply is taken here
   * until all of its head has passed.
   */
  private readHead(): boolean {
    const chunk = this.chunk!;
    const end = this.end;
    const start = this.offset;
    // "HTTP/1.1 " or "HTTP/1.0 ", then three digits.
    if (end - start < 16) return false;
    if (chunk[start] !== 0x48 || chunk[start + 1] !== 0x54 || chunk[start + 2] !== 0x54 || chunk[start + 3] !== 0x50) return false;
    if (chunk[start + 4] !== 0x2f || chunk[start + 5] !== 0x31 || chunk[start + 6] !== 0x2e || chunk[start + 8] !== 0x20) return false;
    const minor = chunk[start + 7] - 0x30;
    const d0 = chunk[start + 9] - 0x30;
    const d1 = chunk[start + 10] - 0x30;
    const d2 = chunk[start + 11] - 0x30;
    if ((minor !== 1 && minor !== 0) || d0 < 0 || d0 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return false;
    // Then CR, or a space and a reason of any bytes but CR and LF.
    let i = start + 12;
    const reason = i + 1;
    let c = chunk[i];
    if (c === 0x20) {
      i = reason;
      while (i < end && (c = chunk[i]) !== 0x0d && c !== 0x0a) i++;
    }
    if (i + 1 >= end || chunk[i] !== 0x0d || chunk[i + 1] !== 0x0a) return false;
    const statusEnd = i;
    i += 2;
    const marks = this.marks;
    let marked = 0;
    let headerBytes = 0;
    for (;;) {
      if (i + 1 >= end) return false;
      if (chunk[i] === 0x0d) {
        if (chunk[i + 1] !== 0x0a) return false;
        i += 2;
        break;
      }
      const nameStart = i;
      while (i < end && TOKEN_BYTE[chunk[i]] === 1) i++;
      if (i === nameStart || i >= end || chunk[i] !== 0x3a) return false;
      const colon = i++;
      while (i < end && ((c = chunk[i]) === 0x20 || c === 0x09)) i++;
      const valueStart = i;
      while (i < end && VALUE_BYTE[chunk[i]] === 1) i++;
      if (i + 1 >= end || chunk[i] !== 0x0d || chunk[i + 1] !== 0x0a) return false;
      headerBytes += colon - nameStart + i - valueStart;
      if (headerBytes >= MAX_HEADER_SIZE || marked === marks.length) return false;
      marks[marked++] = colon;
      marks[marked++] = valueStart;
      marks[marked++] = i;
      i += 2;
    }
    // The head passed: one string of it, its parts cut from it, the framing headers read in order (as the line-by-line reading would).
    const head = chunk.toString('latin1', start, i);
    const info = this.info;
    info.versionMajor = 1;
    info.versionMinor = minor;
    info.statusCode = d0 * 100 + d1 * 10 + d2;
    info.statusMessage = statusEnd > reason ? reasonText(head.slice(reason - start, statusEnd - start)) : '';
    const headers = info.headers;
    let lineStart = statusEnd + 2;
    for (let m = 0; m < marked; m += 3) {
      const name = head.slice(lineStart - start, marks[m] - start);
      const value = head.slice(marks[m + 1] - start, marks[m + 2] - start);
      this.framing(name, value);
      headers.push(name, value);
      lineStart = marks[m + 2] + 2;
    }
    this.offset = i;
    this.headRead();
    return true;
  }

  /** The head's end: the body's framing settled, the head handed on. */
  private headRead(): void {
    const info = this.info;
    const status = info.statusCode;
    info.upgrade = this.hasUpgrade && status === 101 && this.connection.includes('upgrade');
    // No body for 1xx, 204 and 304, whatever their headers say (llhttp); undici then checks the Content-Length.
    const noBody = status < 200 || status === 204 || status === 304;
    if (noBody) {
      this.isChunked = false;
      this.body_bytes = 0;
    } else if (this.isChunked || !this.hasLength) this.body_bytes = null;
    info.shouldKeepAlive = this.shouldKeepAlive();
    this.headerBytes = 0;
    const skip = this.userCall()(this[HTTPParser.kOnHeadersComplete](info));
    if (noBody || skip || this.body_bytes === 0) this.nextRequest();
    else this.state = this.isChunked ? 'BODY_CHUNKHEAD' : this.body_bytes === null ? 'BODY_RAW' : 'BODY_SIZED';
  }

  /** One header or trailer line (CR kept) into `into`, refused as llhttp refuses it. */
  private header(line: string, into: string[], first: boolean): void {
    const c = line.charCodeAt(0);
    if (line === '') throw this.refuse('Invalid header field char');
    // An obs-fold (a continuation line) is refused; so is whitespace before the first name.
    if (c === 0x20 || c === 0x09) {
      if (!first) throw this.refuse('Unexpected whitespace after header value');
      throw this.refuse(c === 0x20 && this.state === 'HEADER' ? 'Unexpected space after start line' : 'Invalid header token');
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!TOKEN.test(name)) throw this.refuse('Invalid header token');
    let from = colon + 1;
    while (line.charCodeAt(from) === 0x20 || line.charCodeAt(from) === 0x09) from++;
    const cr = line.length - 1;
    // A bare LF or CR before the value starts: llhttp names it otherwise than one within the value.
    if (from === line.length) throw this.refuse('Invalid header value char');
    if (from < cr && line.charCodeAt(from) === 0x0d) throw this.refuse('Expected LF after CR');
    const bad = BAD_VALUE.exec(line.slice(from, cr));
    if (bad) throw this.refuse(bad[0] === '\r' ? 'Missing expected LF after header value' : 'Invalid header value char');
    if (line.charCodeAt(cr) !== 0x0d)
      throw this.refuse(line.charCodeAt(cr) < 0x20 && line.charCodeAt(cr) !== 0x09 ? 'Invalid header value char' : 'Missing expected CR after header value');
    // The value as llhttp gives it: leading whitespace gone, trailing kept.
    const value = line.slice(from, cr);
    this.headerBytes += name.length + value.length;
    if (this.headerBytes >= MAX_HEADER_SIZE) throw overflowError();
    if (this.state === 'HEADER') this.framing(name, value);
    into.push(name, value);
  }

  /** The headers that frame the body, checked and read as llhttp does. */
  private framing(name: string, value: string): void {
    const length = name.length;
    if (length !== 14 && length !== 17 && length !== 10 && length !== 7) return;
    const lower = lowerName(name);
    if (lower === 'content-length') {
      if (this.hasEncoding) throw this.refuse("Content-Length can't be present with Transfer-Encoding");
      if (this.hasLength) throw this.refuse('Duplicate Content-Length');
      if (value === '') throw this.refuse('Empty Content-Length');
      // Digits, then spaces only; up to 15 digits, their number read on the way (no overflow, no precision lost).
      let announced = 0;
      let at = 0;
      for (let digit; at < value.length && (digit = value.charCodeAt(at) - 0x30) >= 0 && digit <= 9; at++) announced = announced * 10 + digit;
      const digitsEnd = at;
      while (value.charCodeAt(at) === 0x20) at++;
      if (digitsEnd === 0 || at < value.length) {
        // undici has added the digits read before the bad character.
        const digits = /^[0-9]+ */.exec(value)?.[0] ?? '';
        this.contentLength += digits;
        throw this.refuse('Invalid character in Content-Length');
      }
      this.contentLength += value;
      if (digitsEnd > 15) {
        const digits = value.slice(0, digitsEnd).replace(/^0+(?=.)/, '');
        if (digits.length > MAX_LENGTH.length || (digits.length === MAX_LENGTH.length && digits > MAX_LENGTH)) throw this.refuse('Content-Length overflow');
        announced = Number(digits);
      }
      this.hasLength = true;
      this.body_bytes = announced;
    } else if (lower === 'transfer-encoding') {
      if (this.hasLength) throw this.refuse("Transfer-Encoding can't be present with Content-Length");
      this.hasEncoding = true;
      // Chunked when the last coding of the last Transfer-Encoding is; otherwise the body runs to the close.
      this.isChunked =
        value
          .slice(value.lastIndexOf(',') + 1)
          .trim()
          .toLowerCase() === 'chunked';
    } else if (lower === 'connection') this.connection += value.toLowerCase();
    else if (lower === 'upgrade') this.hasUpgrade = true;
  }

  BODY_CHUNKHEAD(): void {
    const line = this.consumeLine();
    if (line === undefined) return;
    const m = CHUNK_HEAD.exec(line);
    const size = (m ? m[1] : (HEX.exec(line)?.[0] ?? '')).replace(/^0+(?=.)/, '');
    if (size.length > 16) throw this.refuse('Chunk size overflow');
    if (!m) throw this.refuse(chunkHeadFault(line));
    if (m[2]) {
      const fault = extensionFault(m[2]);
      if (fault) throw this.refuse(fault);
    }
    this.body_bytes = parseInt(size, 16);
    this.state = this.body_bytes === 0 ? 'BODY_CHUNKTRAILERS' : 'BODY_CHUNK';
  }

  /** The CRLF after a chunk's data, byte by byte: anything else is refused as it arrives. */
  BODY_CHUNKEMPTYLINE(): void {
    const c = this.chunk![this.offset];
    if (!this.sawCR) {
      if (c !== 0x0d) throw this.refuse(c === 0x0a ? 'Missing expected CR after chunk data' : 'Expected LF after chunk data');
      this.sawCR = true;
      this.offset++;
      return;
    }
    if (c !== 0x0a) throw this.refuse('Expected LF after chunk data');
    this.sawCR = false;
    this.offset++;
    this.state = 'BODY_CHUNKHEAD';
  }

  BODY_CHUNKTRAILERS(): void {
    const line = this.consumeLine();
    if (line === undefined) return;
    if (line !== '\r') return this.header(line, this.trailers, this.trailers.length === 0);
    if (this.trailers.length) this.userCall()(this[HTTPParser.kOnHeaders](this.trailers, ''));
    this.nextRequest();
  }

  /** The message is over: undici checks its Content-Length against the bytes read (a 204 or 304 that announced a body fails here). */
  override nextRequest(): void {
    if (this.info.statusCode >= 200 && this.contentLength && this.bytesRead !== parseInt(this.contentLength, 10))
      throw new LeanHttpError(
        'ResponseContentLengthMismatchError',
        'Response body length does not match content-length header',
        'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
      );
    super.nextRequest();
  }
}

/** The reason phrase (read as latin1) as undici gives it: its bytes read as UTF-8 (client-h1.js onStatus). */
function reasonText(latin1: string): string {
  for (let i = 0; i < latin1.length; i++) if (latin1.charCodeAt(i) >= 0x80) return Buffer.from(latin1, 'latin1').toString('utf8');
  return latin1;
}

/** llhttp's reason for a status line STATUS_LINE refused. */
function statusLineFault(line: string): string {
  const proto = /^(?:HTTP|RTSP|ICE)\//.exec(line);
  if (!proto) return 'Expected HTTP/, RTSP/ or ICE/';
  const at = proto[0].length;
  const digit = (i: number) => line.charCodeAt(i) >= 0x30 && line.charCodeAt(i) <= 0x39;
  if (!digit(at)) return 'Invalid major version';
  if (line[at + 1] !== '.') return 'Expected dot';
  if (!digit(at + 2)) return 'Invalid minor version';
  const version = line.slice(at, at + 3);
  if (version !== '1.1' && version !== '1.0' && version !== '0.9' && version !== '2.0') return 'Invalid HTTP version';
  if (line[at + 3] !== ' ') return 'Expected space after version';
  if (!digit(at + 4) || !digit(at + 5) || !digit(at + 6)) return 'Invalid status code';
  const next = line[at + 7];
  if (next !== ' ' && next !== '\r') return 'Invalid response status';
  const cr = line.indexOf('\r', at + 7);
  if (cr < 0) return 'Missing expected CR after response line';
  return 'Expected LF after CR';
}

function chunkHeadFault(line: string): string {
  const after = (HEX.exec(line)?.[0] ?? '').length;
  if (after === 0) return 'Invalid character in chunk size';
  const c = line[after];
  if (c === undefined) return 'Missing expected CR after chunk size';
  if (c === '\r') return 'Expected LF after chunk size';
  if (c !== ';') return 'Invalid character in chunk size';
  return line.endsWith('\r') ? 'Expected LF after chunk size' : 'Missing expected CR after chunk size';
}

/** Chunk extensions (`;name` or `;name=value`, the value a token or a quoted string), checked as llhttp does. */
function extensionFault(ext: string): string | undefined {
  for (const part of ext.slice(1).split(';')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (name === '') return 'Invalid character in chunk extensions';
    if (!TOKEN.test(name)) return 'Invalid character in chunk extensions name';
    if (eq >= 0) {
      const value = part.slice(eq + 1);
      if (!TOKEN.test(value) && !EXT_QUOTED.test(value)) return 'Invalid character in chunk extensions value';
    }
  }
  return undefined;
}
