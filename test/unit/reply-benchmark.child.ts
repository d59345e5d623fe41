/**
 * Run by reply-performance.test.ts in its own process (node --expose-gc), so that memory figures
 * belong to this parse alone: reads a reply from the file named in argv, measures the peak memory
 * of parseReply above the moment before it, then times parseReply against a bare fast-xml-parser
 * parse of the same text. Prints one JSON line.
 */
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { XMLParser } from 'fast-xml-parser';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { parseReply } from '../../src/core/reply';

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const text = fs.readFileSync(process.argv[2]).toString('utf8');
  const input = { op: findShape('GetBillOfLadingPdf')!, binding: 'soap11' as const, namespaces: DEFAULT_NAMESPACES, status: 200, contentType: 'text/xml; charset=utf-8', text };
  gc();
  const before = process.memoryUsage().rss;
  const first = await parseReply(input);
  const peak = process.resourceUsage().maxRSS * 1024;
  const doc = first.documents[0];

  const bare = () => new XMLParser().parse(text);
  const ours = () => parseReply(input);
  const timeBare: number[] = [];
  const timeOurs: number[] = [];
  // The bare parse is the slow, steady one: once is enough; ours takes the best of three.
  gc();
  let t = performance.now();
  bare();
  timeBare.push(performance.now() - t);
  for (let i = 0; i < 3; i++) {
    gc();
    t = performance.now();
    await ours();
    timeOurs.push(performance.now() - t);
  }
  process.stdout.write(`${JSON.stringify({
    replyBytes: Buffer.byteLength(text),
    peakAboveStart: Math.max(0, peak - before),
    bareMs: Math.min(...timeBare),
    oursMs: Math.min(...timeOurs),
    document: doc && { size: doc.size, pages: doc.pages, mediaType: doc.mediaType },
    errors: first.findings.filter((f) => f.severity === 'error').length,
  })}\n`);
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err));
  process.exit(1);
});
