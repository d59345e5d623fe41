/**
 * docs/architecture.md#judged-once: an exchange is judged in core once, and every face shows that
 * judgement. The places that may judge are named here; a face that starts judging for itself
 * (calling the expectation engine, or deciding a verdict anew) fails this test.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.join(__dirname, '../../src');

function sources(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.name.endsWith('.ts')) out.push(p);
    }
  }
  return out.sort();
}

/** Files that call `name(` (a definition or an import is no call). */
function callers(name: string): string[] {
  const call = new RegExp(`(?<![\\w.])${name}\\(`);
  return sources(SRC)
    .filter((f) =>
      fs
        .readFileSync(f, 'utf8')
        .split('\n')
        .some((line) => call.test(line) && !/^\s*(export )?(async )?function /.test(line)),
    )
    .map((f) => path.relative(SRC, f).split(path.sep).join('/'));
}

describe('judged once (docs/architecture.md#judged-once)', () => {
  it('only src/core/runner/judge.ts runs the expectation engine', () => {
    assert.deepEqual(callers('evaluateExchange'), ['core/runner/judge.ts']);
  });

  it('a verdict is decided only where an exchange is made or judged', () => {
    assert.deepEqual(callers('decideVerdict'), ['core/runner/judge.ts', 'core/send.ts', 'core/verdict.ts', 'inspector/readCapture.ts']);
  });

  it("the results panel judges nothing: it shows the exchange's judgement", () => {
    const panel = sources(path.join(SRC, 'extension')).concat(sources(path.join(SRC, 'webview')));
    const judging = panel.filter((f) => /\b(evaluateExchange|judgeExchange|compileExpect)\b/.test(fs.readFileSync(f, 'utf8')));
    assert.deepEqual(
      judging.map((f) => path.relative(SRC, f)),
      [],
    );
  });
});
