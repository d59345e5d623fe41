/**
 * `xmlLimits.ts <kind> time <runs>`: parseReply of one hostile reply (bench/fixtures/hostileXml.ts)
 * against a bare fast-xml-parser parse of the same text, attributes read, interleaved, a full GC
 * before each; prints {oursMs[], bareMs[], finding}.
 *
 * `xmlLimits.ts <kind> memory`: the resident memory of this whole fresh process (Node itself, the
 * hostile text and parseReply) at its highest; prints {maxRss, finding}.
 */
import { performance } from 'node:perf_hooks';
import { XMLParser } from 'fast-xml-parser';
import { DEFAULT_NAMESPACES, findShape, parseReply } from '../../src/core';
import { HOSTILE, hostileReply, type HostileKind } from '../fixtures/hostileXml';
import { interleave } from '../lib/interleave';

async function main(): Promise<void> {
  const [kind, mode, runs] = process.argv.slice(2);
  if (!(kind in HOSTILE)) throw new Error(`no hostile document ${kind}`);
  const text = hostileReply(HOSTILE[kind as HostileKind].inner());
  const input = {
    op: findShape('GetTerminalInformation', '1.0.2')!,
    binding: 'soap11' as const,
    namespaces: DEFAULT_NAMESPACES,
    status: 200,
    contentType: 'text/xml; charset=utf-8',
    text,
  };
  const ours = async () => {
    const errors = (await parseReply(input)).findings.filter((f) => f.severity === 'error');
    // Fast and wrong must not pass: the reply is refused for one of the reader's limits.
    if (errors.length !== 1 || !/the raw reply is kept as received/.test(errors[0].message))
      throw new Error(`${kind}: not refused by a limit: ${errors.map((f) => f.message).join('; ')}`);
    return errors[0].message;
  };
  if (mode === 'memory') {
    const finding = await ours();
    process.stdout.write(`${JSON.stringify({ maxRss: process.resourceUsage().maxRSS * 1024, finding })}\n`);
    return;
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const timed = async (f: () => unknown) => {
    gc();
    const t = performance.now();
    try {
      await f();
    } catch {
      // fast-xml-parser refuses the bomb too (more nested tags than it takes): a refusal is its answer.
    }
    return performance.now() - t;
  };
  const bare = new XMLParser({ ignoreAttributes: false });
  const p = await interleave(
    Number(runs),
    () => timed(ours),
    () => timed(() => bare.parse(text)),
  );
  process.stdout.write(`${JSON.stringify({ oursMs: p.a, bareMs: p.b, finding: await ours() })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
