/**
 * Content-Type as clients really write it. Reading it is request recognition's (core); which
 * charsets this service decodes is the sandbox's own choice.
 */
import type { MediaType } from '../../core';

export { parseMediaType, type MediaType } from '../../core';

/** Encodings the sandbox decodes; an ASMX service accepts these and refuses others. */
const CHARSETS: Readonly<Record<string, BufferEncoding>> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'us-ascii': 'latin1',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
};

/** The Node encoding for a declared charset (UTF-8 when none is declared); undefined when unsupported. */
export function encodingOf(media: MediaType): BufferEncoding | undefined {
  const cs = media.params.get('charset');
  return cs === undefined ? 'utf8' : CHARSETS[cs.toLowerCase()];
}
