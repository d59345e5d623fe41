/**
 * A 20 MB reply carrying a 15 MB PDF: parsing and decoding it may take at most twice as long as a
 * bare fast-xml-parser parse of the same text, and at most four times the reply's size in memory.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { makePdf, soapReply, tmpDir } from './transport-support';

describe('reply: performance on a 20 MB reply with a 15 MB PDF', function () {
  this.timeout(120_000);
  let dir: string;
  let result: { replyBytes: number; peakAboveStart: number; bareMs: number; oursMs: number; document: { size: number; pages: number; mediaType: string }; errors: number };
  const pdfBytes = 15 * 1024 * 1024;

  before(() => {
    dir = tmpDir();
    const pdf = makePdf(12, pdfBytes - 2000);
    const reply = soapReply('1.1', `<GetBillOfLadingPdfResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetBillOfLadingPdfResult><PdfDocument>${pdf.toString('base64')}</PdfDocument></GetBillOfLadingPdfResult></GetBillOfLadingPdfResponse>`);
    const file = path.join(dir, 'reply.xml');
    fs.writeFileSync(file, reply);
    const out = execFileSync(process.execPath, ['--expose-gc', '-r', 'tsx/cjs', path.join(__dirname, 'reply-benchmark.child.ts'), file], { cwd: path.join(__dirname, '../..'), maxBuffer: 1 << 20 });
    result = JSON.parse(out.toString('utf8'));
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('decodes the whole PDF and counts its pages', () => {
    assert.ok(result.replyBytes > 20_000_000, `${result.replyBytes} bytes`);
    assert.equal(result.errors, 0);
    assert.deepEqual({ ...result.document, size: result.document.size > pdfBytes - 4096 && result.document.size <= pdfBytes }, { size: true, pages: 12, mediaType: 'application/pdf' });
  });

  it('parses and decodes within twice a bare fast-xml-parser parse', () => {
    assert.ok(result.oursMs <= 2 * result.bareMs, `parse+decode ${result.oursMs.toFixed(1)} ms, bare parse ${result.bareMs.toFixed(1)} ms`);
  });

  it('stays within four times the reply size in memory', () => {
    assert.ok(result.peakAboveStart <= 4 * result.replyBytes, `peak ${(result.peakAboveStart / 1e6).toFixed(1)} MB above start for a ${(result.replyBytes / 1e6).toFixed(1)} MB reply`);
  });
});
