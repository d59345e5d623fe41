/**
 * What `npm start` says while code-server installs (scripts/start/progress.js, used by
 * scripts/vscode-host/ensure-code-server.js and scripts/start/start.js): a line per step with
 * its seconds; on a terminal one line redrawn in place each second, in a log a plain line every
 * ten seconds, never a redraw (issue 38: a silent first start looked hung for minutes).
 */
import * as assert from 'node:assert/strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script without types
const { createProgress } = require('../../scripts/start/progress') as {
  createProgress: (
    stream: { write(text: string): unknown; isTTY?: boolean },
    options: { prefix?: string; now?: () => number; setInterval?: unknown; clearInterval?: unknown },
  ) => {
    step(title: string): { done(note?: string): void; fail(note?: string): void };
    run(title: string, command: string, args: string[]): Promise<string>;
  };
};

/** A stream, a clock and a timer the test moves by hand. */
function harness(isTTY: boolean) {
  let written = '';
  let clock = 0;
  let tick: (() => void) | undefined;
  const progress = createProgress(
    { isTTY, write: (t: string) => (written += t) },
    {
      prefix: '[start] ',
      now: () => clock,
      setInterval: (fn: () => void) => ((tick = fn), 1),
      clearInterval: () => (tick = undefined),
    },
  );
  const advance = (seconds: number) => {
    for (let i = 0; i < seconds; i++) {
      clock += 1000;
      tick?.();
    }
  };
  return { progress, advance, written: () => written, ticking: () => tick !== undefined };
}

describe('npm start progress', () => {
  it('in a log: the step, a plain line every ten seconds, and its time when done', () => {
    const h = harness(false);
    const step = h.progress.step('installing code-server');
    h.advance(25);
    step.done();
    assert.equal(
      h.written(),
      [
        '[start] installing code-server …',
        '[start]   … installing code-server: 10 s',
        '[start]   … installing code-server: 20 s',
        '[start] installing code-server: done in 25 s',
        '',
      ].join('\n'),
    );
    assert.ok(!h.written().includes('\r') && !h.written().includes('\x1b'), 'no redraw in a log');
    assert.equal(h.ticking(), false, 'the timer stops with the step');
  });

  it('on a terminal: one line redrawn in place each second, ended with its time', () => {
    const h = harness(true);
    const step = h.progress.step('installing code-server');
    h.advance(2);
    step.fail();
    assert.equal(
      h.written(),
      '\r\x1b[2K[start] installing code-server … 0 s' +
        '\r\x1b[2K[start] installing code-server … 1 s' +
        '\r\x1b[2K[start] installing code-server … 2 s' +
        '\r\x1b[2K[start] installing code-server: failed in 2 s\n',
    );
    assert.equal(h.ticking(), false);
  });

  it("runs a command quietly, and says its output's end when it fails", async () => {
    const h = harness(false);
    assert.equal(await h.progress.run('echo', process.execPath, ['-e', 'console.log("fine")']), 'fine\n');
    await assert.rejects(
      h.progress.run('failing', process.execPath, ['-e', 'console.error("broken: no space left"); process.exit(3)']),
      /exited with 3:\nbroken: no space left/,
    );
    assert.match(h.written(), /\[start\] echo: done in 0 s\n[\s\S]*\[start\] failing: failed in 0 s\n$/);
  });
});
