/**
 * A reader that goes away ends the command quietly: `carrier run … | grep -m1 -q fault`, `| head`.
 * Node ignores SIGPIPE and reports the closed pipe as an EPIPE error on the stream, which nothing
 * handled, so the process died with a stack trace. Here EPIPE on stdout or stderr ends the process
 * at once with status 141 (128 + SIGPIPE), what the shell reports for a program the closed pipe
 * stopped, as `yes | head -1` does: nobody reads what the command would still write, and `set -o
 * pipefail` still tells a command cut short from one that ran to its end (0 would claim a run, a
 * send or a check that never finished as passed). Nothing is written about it: stderr may be
 * the closed pipe too, and the reader that left knows.
 */

/** The exit status of a command whose reader closed the pipe (docs/collections.md, docs/wire.md). */
export const BROKEN_PIPE_EXIT = 141;

const isBrokenPipe = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';

/** Installs the quiet end on process.stdout and process.stderr (main.ts, before any command runs). */
export function endQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (isBrokenPipe(error)) process.exit(BROKEN_PIPE_EXIT);
      throw error;
    });
  }
}

/** `write` to `stream`, ended quietly the same way when the pipe is closed and the write throws at once. */
export function writeOrEnd(stream: NodeJS.WriteStream, text: string): void {
  try {
    stream.write(text);
  } catch (error) {
    if (isBrokenPipe(error)) process.exit(BROKEN_PIPE_EXIT);
    throw error;
  }
}
