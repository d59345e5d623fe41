/**
 * A reader that goes away ends the command quietly (src/cli/brokenPipe.ts): `carrier run … |
 * grep -m1 -q fault`. The built CLI (bin/carrier.js, `npm run build`) runs the examples on the
 * embedded sandbox with its stdout a pipe the test closes after the first chunk; the run's next
 * line meets the closed pipe. No stack trace, no EPIPE on stderr, and status 141 (128 + SIGPIPE).
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/carrier.js');

function closedAfterFirstChunk(args: string[]): Promise<{ code: number | null; signal: string | null; first: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let first = '';
    let stderr = '';
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString();
      child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, first, stderr }));
  });
}

describe('a broken pipe ends the CLI quietly', function () {
  this.timeout(120_000);
  before(function () {
    if (!fs.existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('run `npm run build` first: this test runs the built CLI');
  });

  it('carrier run examples, its stdout closed after the first line: status 141, nothing on stderr', async () => {
    const r = await closedAfterFirstChunk(['run', 'examples', '--pass-with-no-tests']);
    assert.ok(r.first.length > 0, 'the run wrote before the pipe closed');
    assert.equal(r.stderr, '', 'nothing on stderr');
    assert.equal(r.signal, null);
    assert.equal(r.code, 141);
  });
});
