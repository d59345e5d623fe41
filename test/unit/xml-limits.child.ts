/**
 * Run by xml-limits.test.ts in a process of its own, with a small heap (--max-old-space-size), so
 * that a document costing more memory than it may ends the process instead of passing: reads one
 * hostile document of bench/fixtures/hostileXml.ts (argv[2]: bomb, attributes or siblings) with
 * parseXml and then as a reply with parseReply, or (argv[2] = names) checks that the parser's
 * name cache keeps no document alive.
 * Prints one JSON line; the figures in it are for reading, not for asserting on.
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { parseReply } from '../../src/core/reply';
import { parseXml, XmlError } from '../../src/core/xml/dom';
import { HOSTILE, hostileReply, type HostileKind } from '../../bench/fixtures/hostileXml';

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

async function hostile(kind: HostileKind): Promise<void> {
  const text = hostileReply(HOSTILE[kind].inner());
  let started = performance.now();
  let code = '';
  let message = '';
  try {
    parseXml(text);
  } catch (e) {
    if (!(e instanceof XmlError)) throw e;
    ({ code, message } = e);
  }
  const parseMs = performance.now() - started;
  started = performance.now();
  const reply = await parseReply({
    op: findShape('GetTerminalInformation', '1.0.2')!,
    binding: 'soap11',
    namespaces: DEFAULT_NAMESPACES,
    status: 200,
    contentType: 'text/xml; charset=utf-8',
    text,
  });
  const replyMs = performance.now() - started;
  const findings = reply.findings.filter((f) => f.severity === 'error').map((f) => f.message);
  process.stdout.write(
    `${JSON.stringify({ kind, bytes: text.length, code, message, findings, parseMs, replyMs, maxRssMB: mb(process.resourceUsage().maxRSS * 1024) })}\n`,
  );
}

/** Twenty 5 MB documents, each with a long name of its own: what stays alive after them. */
function names(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 20; i++) parseXml(`<AnElementNameOfItsOwn${i} anAttributeOfItsOwn${i}="v">${'x'.repeat(5_000_000)}</AnElementNameOfItsOwn${i}>`);
  gc();
  process.stdout.write(`${JSON.stringify({ retainedMB: mb(process.memoryUsage().heapUsed - before) })}\n`);
}

if (require.main === module) {
  const kind = process.argv[2];
  (kind === 'names' ? Promise.resolve(names()) : hostile(kind as HostileKind)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
