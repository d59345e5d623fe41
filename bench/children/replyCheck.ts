/** Checks that parseReply really read a big reply, so a fast wrong answer cannot pass. */
import type { ParsedReply } from '../../src/core';
import type { BigReply } from '../fixtures/bigReplies';

export function checkParsed(parsed: ParsedReply, expect: BigReply['expect']): void {
  const errors = parsed.findings.filter((f) => f.severity === 'error');
  if (errors.length) throw new Error(`parseReply found errors: ${errors.map((e) => e.message).join('; ')}`);
  if (expect.pdfBytes !== undefined) {
    const doc = parsed.documents[0];
    if (!doc || doc.size !== expect.pdfBytes || doc.mediaType !== 'application/pdf' || doc.pages !== expect.pages) {
      throw new Error(
        `expected a ${expect.pdfBytes}-byte PDF of ${expect.pages} pages, got ${JSON.stringify(doc && { size: doc.size, pages: doc.pages, mediaType: doc.mediaType })}`,
      );
    }
  }
  if (expect.shipments !== undefined) {
    const n = (parsed.parsed as { Result?: unknown[] } | undefined)?.Result?.length;
    if (n !== expect.shipments) throw new Error(`expected ${expect.shipments} shipments, got ${n}`);
  }
}
