/**
 * `replyMemory.ts <reply.xml> <operation> <version> <expect-json>`: the peak memory parseReply
 * needs for one reply, in a fresh process so the high-water mark is this parse's. The baseline is
 * taken after a full GC with the reply text already in memory (it is the input, held by the
 * caller either way); the peak is the process's maximum resident set size afterwards. Reading
 * the file briefly held its bytes twice, so if anything the peak is overstated.
 */
import * as fs from 'node:fs';
import { DEFAULT_NAMESPACES, findShape, parseReply } from '../../src/core';
import { checkParsed } from './replyCheck';

async function main(): Promise<void> {
  const [file, operation, version, expect] = process.argv.slice(2);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const op = findShape(operation, version);
  if (!op) throw new Error(`no shape ${operation} ${version}`);
  const text = fs.readFileSync(file, 'utf8');
  gc();
  const before = process.memoryUsage().rss;
  const parsed = await parseReply({ op, binding: 'soap11', namespaces: DEFAULT_NAMESPACES, status: 200, contentType: 'text/xml; charset=utf-8', text });
  const peak = process.resourceUsage().maxRSS * 1024;
  checkParsed(parsed, JSON.parse(expect));
  process.stdout.write(`${JSON.stringify({ peakAboveBaseline: Math.max(0, peak - before), replyBytes: Buffer.byteLength(text) })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
