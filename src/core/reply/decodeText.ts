/**
 * Reply bytes → text: the charset of the Content-Type, else a byte-order mark, else the XML
 * declaration's encoding, else UTF-8. Undecodable input is decoded anyway (with U+FFFD) and said
 * so; the raw bytes stay with the caller.
 */
import { isUtf8 } from 'node:buffer';

export interface DecodedText {
  readonly text: string;
  readonly charset: string;
  readonly problem?: string;
}

export function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

export function charsetOf(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return m?.[1].toLowerCase();
}

function sniff(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 200)).toString('latin1');
  return /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1].toLowerCase();
}

export function decodeText(bytes: Uint8Array, contentType?: string): DecodedText {
  const declared = charsetOf(contentType);
  const charset = declared ?? sniff(bytes) ?? 'utf-8';
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (charset === 'utf-8' || charset === 'utf8') {
    const text = buf.toString('utf8');
    // Undecodable bytes come out as U+FFFD, so a text without one was valid UTF-8 (an ASCII text
    // cannot hold one at all): only a text with one is checked again, byte by byte.
    const problem = !text.includes('\uFFFD') || isUtf8(buf) ? undefined : 'the reply is not valid UTF-8; undecodable bytes are shown as �';
    return { text, charset: 'utf-8', problem };
  }
  if (charset === 'us-ascii' || charset === 'ascii' || charset === 'iso-8859-1' || charset === 'latin1') {
    return { text: new TextDecoder('windows-1252').decode(buf), charset };
  }
  try {
    return { text: new TextDecoder(charset).decode(buf), charset };
  } catch {
    return { text: buf.toString('utf8'), charset: 'utf-8', problem: `unknown charset "${charset}"; decoded as UTF-8` };
  }
}
