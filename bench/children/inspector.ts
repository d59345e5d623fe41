/**
 * The traffic inspector in a process of its own, for bench/inspector-memory.ts: its RSS is the
 * inspector's alone. `--target URL` (required), `--idle-ms N`, `--secret KEY`, and to try other
 * limits `--cap-mb`, `--keep-mb`, `--capture-mb` (MiB); every other option is the default. Prints `{"url": …}` once listening; answers each `stats` line on stdin with one
 * JSON line (memory, exchanges kept, their weight); stops when stdin closes.
 */
import { DEFAULT_NAMESPACES } from '../../src/core';
import { exchangeWeight, startInspector } from '../../src/inspector';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const target = arg('target');
  if (!target) throw new Error('--target URL is required');
  const idle = arg('idle-ms');
  const secret = arg('secret');
  const mib = (name: string) => (arg(name) ? Number(arg(name)) * 1024 * 1024 : undefined);
  const limits = { maxBodyBytes: mib('cap-mb'), keepBytes: mib('keep-mb'), captureBytes: mib('capture-mb') };
  const inspector = await startInspector({
    target,
    namespaces: DEFAULT_NAMESPACES,
    ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
    ...(idle ? { idleTimeoutMs: Number(idle) } : {}),
    ...(secret ? { secrets: [secret] } : {}),
  });
  process.stdout.write(`${JSON.stringify({ url: inspector.url })}\n`);
  let buffered = '';
  process.stdin.setEncoding('utf8').on('data', (d: string) => {
    buffered += d;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line !== 'stats') continue;
      const kept = inspector.exchanges();
      const m = process.memoryUsage();
      process.stdout.write(
        `${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, kept: kept.length, keptBytes: kept.reduce((n, r) => n + exchangeWeight(r), 0), lastSeq: kept.at(-1)?.seq ?? 0 })}\n`,
      );
    }
  });
  const stop = () => {
    inspector.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.stdin.on('end', stop).on('close', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
