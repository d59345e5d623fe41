/**
 * A 20 MB reply carrying a 15 MB PDF is read whole: the document decoded to its exact bytes and
 * its pages counted, with no finding. How long that takes and how much memory it holds, against a
 * bare fast-xml-parser parse and the reply's size, are the bench's `large-replies` rows
 * (BENCHMARKS.md): a timed or memory-peak assertion here would fail whenever the machine is busy.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { parseReply } from '../../src/core/reply';
import { makePdf, soapReply } from './transport-support';

describe('reply: a 20 MB reply with a 15 MB PDF', function () {
  this.timeout(120_000);

  it('decodes the whole PDF and counts its pages', async () => {
    const pdf = makePdf(12, 15 * 1024 * 1024 - 2000);
    const text = soapReply(
      '1.1',
      `<GetBillOfLadingPdfResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetBillOfLadingPdfResult><PdfDocument>${pdf.toString('base64')}</PdfDocument></GetBillOfLadingPdfResult></GetBillOfLadingPdfResponse>`,
    );
    assert.ok(Buffer.byteLength(text) > 20_000_000, `${Buffer.byteLength(text)} bytes`);
    const reply = await parseReply({
      op: findShape('GetBillOfLadingPdf')!,
      binding: 'soap11',
      namespaces: DEFAULT_NAMESPACES,
      status: 200,
      contentType: 'text/xml; charset=utf-8',
      text,
    });
    assert.deepEqual(
      reply.findings.filter((f) => f.severity === 'error'),
      [],
    );
    const doc = reply.documents[0];
    assert.deepEqual({ size: doc?.size, pages: doc?.pages, mediaType: doc?.mediaType }, { size: pdf.length, pages: 12, mediaType: 'application/pdf' });
  });
});
