/**
 * The sandbox with a data folder (argv[2]), in a process of its own: prints `{"url": …, "pid": …}`
 * once listening and stops cleanly (last state write, folder unlocked) when its stdin closes.
 */
import { startSandbox } from '../../src/sandbox/server';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: sandboxData.ts DATA_DIR');
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dataDir });
  process.stdout.write(`${JSON.stringify({ url: sandbox.url, pid: process.pid })}\n`);
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.stdin.on('end', stop).on('close', stop).resume();
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
