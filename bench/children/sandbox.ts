/**
 * The sandbox in a process of its own, so the client being measured does not share its event
 * loop (and its one core) with the server answering it. Prints `{"url": …}` once listening and
 * stops when its stdin closes — the bench dying takes the sandbox with it. `--replay DIR` starts it
 * answering from the recordings in DIR; `--reply-memo` keeps the replies of operations that read
 * no state, as `carrier load` starts its embedded sandbox (docs/sandbox.md#the-reply-memo).
 */
import { startSandbox } from '../../src/sandbox/server';

async function main(): Promise<void> {
  // `--replay DIR`: a virtual carrier answering from recordings (docs/sandbox.md#replaying-recordings).
  const at = process.argv.indexOf('--replay');
  const replay = at >= 0 ? { replay: { dirs: [process.argv[at + 1]] } } : {};
  const replyMemo = process.argv.includes('--reply-memo') ? { replyMemo: true } : {};
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', ...replay, ...replyMemo });
  process.stdout.write(`${JSON.stringify({ url: sandbox.url })}\n`);
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
