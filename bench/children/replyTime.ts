/**
 * `replyTime.ts <reply.xml> <operation> <version> <runs> <expect-json>`: parseReply against a
 * bare fast-xml-parser parse of the same text, interleaved, a full GC before each. Prints one
 * JSON line {oursMs[], bareMs[]}.
 */
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { XMLParser } from 'fast-xml-parser';
import { DEFAULT_NAMESPACES, findShape, parseReply } from '../../src/core';
import { interleave } from '../lib/interleave';
import { checkParsed } from './replyCheck';

async function main(): Promise<void> {
  const [file, operation, version, runs, expect] = process.argv.slice(2);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const text = fs.readFileSync(file, 'utf8');
  const op = findShape(operation, version);
  if (!op) throw new Error(`no shape ${operation} ${version}`);
  const input = { op, binding: 'soap11' as const, namespaces: DEFAULT_NAMESPACES, status: 200, contentType: 'text/xml; charset=utf-8', text };
  checkParsed(await parseReply(input), JSON.parse(expect));
  const timed = async (f: () => unknown) => {
    gc();
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  const p = await interleave(
    Number(runs),
    () => timed(() => parseReply(input)),
    () => timed(() => new XMLParser().parse(text)),
    0,
  );
  process.stdout.write(`${JSON.stringify({ oursMs: p.a, bareMs: p.b })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
