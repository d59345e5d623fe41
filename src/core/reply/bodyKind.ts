/**
 * What a reply body is, decided once: parseReply reads only an `xml` one, and `expect.body`
 * (src/core/runner/evaluate.ts) is held against this same answer.
 */
import { mediaType } from './decodeText';
import { firstNonSpace, looksLikeHtml } from './html';

/** `text`: neither XML nor HTML (plain text, JSON…): the HTTP bindings' error replies among them. */
export type BodyKind = 'empty' | 'html' | 'text' | 'xml';

export function bodyKind(text: string, contentType: string | undefined): BodyKind {
  const first = firstNonSpace(text);
  if (first < 0) return 'empty';
  const media = mediaType(contentType);
  if (looksLikeHtml(text, media)) return 'html';
  const xmlish = media === '' || media.endsWith('/xml') || media.endsWith('+xml');
  return !xmlish && text[first] !== '<' ? 'text' : 'xml';
}

export const BODY_PHRASES: Readonly<Record<BodyKind, string>> = {
  empty: 'an empty body',
  html: 'an HTML page',
  text: 'plain text (not XML)',
  xml: "the service's XML answer",
};
