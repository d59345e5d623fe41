/**
 * Secrets out of raw bytes, byte for byte: everything else in a recorded body stays exactly as it
 * went over the wire. Each spelling the core redactor knows (plain, XML-escaped, URL- and
 * form-encoded, JSON) is searched as its UTF-8 bytes; latin1 maps bytes to characters one to
 * one, so replacing in that view never touches a byte that is not part of a secret.
 */
import { MASK, secretSpellings } from '../core';

const MASK_BYTES = Buffer.from(MASK, 'utf8').toString('latin1');

export class ByteRedactor {
  private readonly spellings: string[];

  constructor(secrets: Iterable<string>) {
    const all = new Set<string>();
    for (const s of secrets) if (s && s !== MASK) for (const f of secretSpellings(s)) all.add(Buffer.from(f, 'utf8').toString('latin1'));
    this.spellings = [...all].sort((a, b) => b.length - a.length);
  }

  redact(bytes: Buffer): Buffer {
    if (!this.spellings.length || !bytes.length) return bytes;
    let text = bytes.toString('latin1');
    let changed = false;
    for (const s of this.spellings) {
      if (!text.includes(s)) continue;
      text = text.split(s).join(MASK_BYTES);
      changed = true;
    }
    return changed ? Buffer.from(text, 'latin1') : bytes;
  }
}
